/**
 * The swarm's orchestrator: a policy over SETS (pointer heads over up to 100 candidate
 * subtasks and up to 4 subagent kinds), masked, with a value head. It plays the decomposition task
 * (src/envs/swarm/decomposition.ts) one tool call at a time.
 *
 * Observation (one flat row, so the engine's PPO batch needs no extra field), from
 * observeDecomposition (src/envs/swarm/decompositionFeatures.ts) and setActions.ts:
 *   [M·F subtask rows][M row valid][KM·KF kind rows][KM kind valid][G global]
 *   [M·KM·P pair features][X extra global][A action mask]
 * with M = 100, F = 14, KM = 4, KF = 11, G = 9, P = 4, X = 2. The pair features say what kind k
 * would do with candidate i (its success probability on it, its expected steps, whether it is
 * expected to return in the steps left, whether joining k's newest subagent would time out).
 *
 * Actions (A = 2·M·KM + 2·M + 2), in types:
 *   assignNew[i·KM + k]  create_subagent(kind k) + assign_task(candidate i)
 *   join[i·KM + k]       assign_task(candidate i) to the newest planned subagent of kind k (batching)
 *   direct[i]            the orchestrator works on candidate i itself
 *   check[i]             the orchestrator checks candidate i's claim
 *   launch, finish
 * An assignment or direct work whose item can certainly not come back as a claim the orchestrator
 * reads (bounds that hold for every draw: it would time out, be cut by the hard budget, or its
 * result alone would not fit in the context left; ReturnBounds in setActions.ts) is masked.
 * Finish is offered only when no open subtask (one with no claim) can still be planned or worked
 * on directly: finishing with such work left can only lower r_perf (F1 counts a missing claim as
 * a miss), and the hard budget ends the episode anyway. So no action's only effect is waste, and
 * the untrained policy does not end most episodes in their first few decisions.
 *
 * Network (H hidden units; a DeepSets encoder with pointer heads):
 *   h1_i   = relu(x_i W1 + g U1 + b1)                  per candidate row x_i, global g
 *   p1     = masked mean_i h1_i
 *   h2_i   = tanh(h1_i W2 + p1 U2 + b2)                every row sees the whole set
 *   p2     = masked mean_i h2_i,  q = [p1, p2, g]
 *   e_ik   = tanh(y_k Wk + z_ik Wp + bk)                per kind row y_k and pair features z_ik
 *   assignNew(i, k) = (h2_i Wa) · e_ik + h2_i · va + z_ik · ua
 *   join(i, k)      = (h2_i Wj) · e_ik + h2_i · vj + z_ik · uj
 *   direct(i) = h2_i · vd,   check(i) = h2_i · vc
 *   type logits τ = q Wt + bt  (6 types),   V(s) = tanh(q Wv1 + bv1) wv2 + bv2
 * π is hierarchical: a type, then a row (and kind) within it, each masked:
 *   log π(a) = log softmax(τ masked by "type has a legal action")_t(a) + log softmax(pointer logits of t masked)_a
 * and the model returns these joint log-probabilities as its logits, with −1e9 at every illegal
 * action, so softmax(logits) = π and every illegal action has probability 0 (exp(−1e9 − max) = 0
 * in float32). PPO (src/algorithms/ppo.ts) trains it unchanged.
 *
 * The start: every bias is 0 and the pointer and type output weights start small (scale 0.01), so
 * the type is nearly uniform over the legal types and the row nearly uniform within it. Every
 * preset and benchmark row starts from this one policy (seed aside): no lean toward working alone
 * or toward delegating is built in.
 */
import * as tf from '@tensorflow/tfjs';
import { Model, type WeightSpec } from '../core/model';
import { Rng } from '../core/rng';
import { DECOMP_GLOBAL_FEATURES, DECOMP_KIND_FEATURES, DECOMP_SUBTASK_FEATURES } from '../envs/swarm/decompositionFeatures';
import { SP_EXTRA_GLOBAL, SP_MAX_KINDS, SP_NUM_ACTIONS, SP_OBS_DIM, SP_OFFSETS, SP_PAIR_FEATURES, SP_ROWS, SP_SEGMENTS, SP_TYPES, SetPolicyError, type SetActionType } from './setActions';

export * from './setActions';

const M = SP_ROWS;
const KM = SP_MAX_KINDS;
const F = DECOMP_SUBTASK_FEATURES;
const KF = DECOMP_KIND_FEATURES;
const P = SP_PAIR_FEATURES;
/** Global inputs: the task's G features and the X extra ones. */
const G = DECOMP_GLOBAL_FEATURES + SP_EXTRA_GLOBAL;
const { rows: O_ROWS, valid: O_VALID, kinds: O_KINDS, global: O_GLOBAL, pairs: O_PAIRS, extra: O_EXTRA, mask: O_MASK } = SP_OFFSETS;
const MASK_LOGIT = -1e9;

export interface SetPolicyOptions {
  hidden: number;
  seed: number;
}

interface Param {
  name: string;
  shape: number[];
  v: tf.Variable;
}

/** Rows up to the last one holding a candidate, over `n` observations (at least 1). */
export function activeRowsOf(obs: Float32Array, n: number): number {
  let r = 1;
  for (let b = 0; b < n; b++) {
    const o = b * SP_OBS_DIM + O_VALID;
    for (let i = M - 1; i >= r; i--) {
      if (obs[o + i] > 0) {
        r = i + 1;
        break;
      }
    }
  }
  return r;
}

export class SetPolicyModel extends Model<{ logits: tf.Tensor2D; value: tf.Tensor1D }> {
  readonly hidden: number;
  /**
   * Candidate rows the next forward passes read (1..SP_ROWS): set it with `activeRowsOf` on the
   * observations about to be passed (every row past it must be empty in all of them).
   */
  activeRows = M;
  private readonly params: Param[] = [];
  private readonly p: Record<string, tf.Variable> = {};

  constructor(options: SetPolicyOptions) {
    super();
    const H = options.hidden;
    if (!(Number.isInteger(H) && H >= 1)) throw new SetPolicyError(`set policy: hidden must be a positive integer, got ${H}`);
    this.hidden = H;
    const rng = new Rng(options.seed).fork(0x5e7);
    const Q = 2 * H + G;
    // Glorot-uniform for the encoder; small output weights so the initial policy is near uniform.
    const glorot = (fanIn: number, fanOut: number) => Math.sqrt(6 / (fanIn + fanOut));
    const add = (name: string, shape: number[], scale: number, fill?: (i: number) => number) => {
      const n = shape.reduce((a, b) => a * b, 1);
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = fill ? fill(i) : scale * (2 * rng.uniform() - 1);
      const v = tf.variable(tf.tensor(data, shape), true);
      this.params.push({ name, shape, v });
      this.p[name] = v;
    };
    add('W1', [F, H], glorot(F, H));
    add('U1', [G, H], glorot(G, H));
    add('b1', [H], 0, () => 0);
    add('W2', [H, H], glorot(H, H));
    add('U2', [H, H], glorot(H, H));
    add('b2', [H], 0, () => 0);
    add('Wk', [KF, H], glorot(KF, H));
    add('Wp', [P, H], glorot(P, H));
    add('bk', [H], 0, () => 0);
    add('Wa', [H, H], 0.01);
    add('va', [H, 1], 0.01);
    add('ua', [P, 1], 0.01);
    add('Wj', [H, H], 0.01);
    add('vj', [H, 1], 0.01);
    add('uj', [P, 1], 0.01);
    add('vd', [H, 1], 0.01);
    add('vc', [H, 1], 0.01);
    add('Wt', [Q, SP_TYPES.length], 0.01);
    add('bt', [SP_TYPES.length], 0);
    add('Wv1', [Q, H], glorot(Q, H));
    add('bv1', [H], 0, () => 0);
    add('wv2', [H, 1], glorot(H, 1));
    add('bv2', [1], 0, () => 0);
  }

  forward(obs: tf.Tensor2D): { logits: tf.Tensor2D; value: tf.Tensor1D } {
    return tf.tidy(() => {
      const [B, D] = obs.shape;
      if (D !== SP_OBS_DIM) throw new SetPolicyError(`set policy: observations have ${D} columns, expected ${SP_OBS_DIM}`);
      const H = this.hidden;
      const p = this.p;
      // Rows past activeRows hold no candidate in any observation of this batch (the caller says
      // so, from the data): they are left out and their logits padded, which changes no output.
      const R = this.activeRows;
      const rows = tf.slice(obs, [0, O_ROWS], [B, R * F]).reshape([B * R, F]);
      const valid = tf.slice(obs, [0, O_VALID], [B, R]);
      const kinds = tf.slice(obs, [0, O_KINDS], [B, KM * KF]).reshape([B * KM, KF]);
      const g = tf.concat([tf.slice(obs, [0, O_GLOBAL], [B, DECOMP_GLOBAL_FEATURES]), tf.slice(obs, [0, O_EXTRA], [B, SP_EXTRA_GLOBAL])], 1);
      const z = tf.slice(obs, [0, O_PAIRS], [B, R * KM * P]).reshape([B * R * KM, P]);
      const mask = tf.slice(obs, [0, O_MASK], [B, SP_NUM_ACTIONS]);

      const count = tf.maximum(tf.sum(valid, 1, true), 1); // [B, 1]
      const pool = (h: tf.Tensor3D) => tf.div(tf.sum(tf.mul(h, valid.expandDims(2)), 1), count) as tf.Tensor2D; // masked mean, [B, H]
      const h1 = tf.relu(tf.add(tf.add(tf.matMul(rows, p.W1).reshape([B, R, H]), tf.matMul(g, p.U1).expandDims(1)), p.b1)) as tf.Tensor3D;
      const p1 = pool(h1);
      const h2 = tf.tanh(tf.add(tf.add(tf.matMul(h1.reshape([B * R, H]), p.W2).reshape([B, R, H]), tf.matMul(p1, p.U2).expandDims(1)), p.b2)) as tf.Tensor3D;
      const p2 = pool(h2);
      const q = tf.concat([p1, p2, g], 1);
      const ek = tf.add(tf.matMul(kinds, p.Wk), p.bk).reshape([B, 1, KM, H]);
      const e = tf.tanh(tf.add(ek, tf.matMul(z, p.Wp).reshape([B, R, KM, H]))); // e_ik, [B, R, KM, H]
      const h2f = h2.reshape([B * R, H]);
      const padRows = (x: tf.Tensor2D, per: number) => (R === M ? x : (tf.pad(x, [[0, 0], [0, (M - R) * per]]) as tf.Tensor2D));
      const rowScore = (v: tf.Variable) => tf.matMul(h2f, v).reshape([B, R]) as tf.Tensor2D;
      const pair = (W: tf.Variable, v: tf.Variable, u: tf.Variable) =>
        tf.add(tf.add(tf.sum(tf.mul(tf.matMul(h2f, W).reshape([B, R, 1, H]), e), 3), rowScore(v).expandDims(2)), tf.matMul(z, u).reshape([B, R, KM])).reshape([B, R * KM]) as tf.Tensor2D;
      const pointer: Record<SetActionType, tf.Tensor2D> = {
        assignNew: padRows(pair(p.Wa, p.va, p.ua), KM),
        join: padRows(pair(p.Wj, p.vj, p.uj), KM),
        direct: padRows(rowScore(p.vd), 1),
        check: padRows(rowScore(p.vc), 1),
        launch: tf.zeros([B, 1]),
        finish: tf.zeros([B, 1]),
      };
      const typeLogits = tf.add(tf.matMul(q, p.Wt), p.bt);
      const segMask = SP_TYPES.map((t) => tf.slice(mask, [0, SP_SEGMENTS[t].offset], [B, SP_SEGMENTS[t].length]));
      const typeOk = tf.stack(segMask.map((m) => tf.max(m, 1)), 1); // [B, 6]: the type has a legal action
      const typeLog = tf.logSoftmax(tf.where(tf.greater(typeOk, 0), typeLogits, tf.fill(typeLogits.shape, MASK_LOGIT)));
      const joint = SP_TYPES.map((t, j) => {
        const legal = tf.greater(segMask[j], 0);
        const within = tf.logSoftmax(tf.where(legal, pointer[t], tf.fill(pointer[t].shape, MASK_LOGIT)));
        return tf.add(within, tf.slice(typeLog, [0, j], [B, 1]));
      });
      const logits = tf.where(tf.greater(mask, 0), tf.concat(joint, 1), tf.fill([B, SP_NUM_ACTIONS], MASK_LOGIT)) as tf.Tensor2D;
      const value = tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(q, p.Wv1), p.bv1)), p.wv2), p.bv2).reshape([B]) as tf.Tensor1D;
      return { logits, value };
    });
  }

  variables(): tf.Variable[] {
    return this.params.map((x) => x.v);
  }

  weightSpecs(): WeightSpec[] {
    return this.params.map((x) => ({ name: `setPolicy/${x.name}`, shape: [...x.shape] }));
  }
}
