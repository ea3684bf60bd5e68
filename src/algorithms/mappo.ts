/**
 * MAPPO (Yu et al. 2022, "The Surprising Effectiveness of PPO in Cooperative Multi-Agent Games"):
 * PPO with one actor shared by every agent and a centralised critic, as in the authors' on-policy
 * code (marlbenchmark/on-policy, r_mappo.py) for the particle worlds.
 *
 * Actor (decentralised, parameters shared): π_θ(u | x_a), x_a = [o_a, onehot(a)] (the agent's own
 * observation zero-padded to the largest, and its id when `agentId`), logits over the largest
 * action set, the actions an agent does not have masked out.
 * Critic (centralised): V_φ(s, a, t) on [s, onehot(a), t / T], s = (o_1 … o_A) the global state
 * (every observation), one value per agent because each agent has its own reward (simple_spread's
 * collision term), and the time, since the episode ends at T (Pardo et al. 2018, time-aware values).
 *
 * One update (learn) takes the E whole episodes collected with the current weights since the last
 * one. As in the authors' code (done at episode_length, masks 0), the end of an episode is final:
 * V(s_T) = 0, so V estimates the reward left in the episode (hence t / T in the critic's input; without
 * it, measured on seed 1 at lr 1e-3, the returns fell below random for a while). Bootstrapping V(s_T) instead let the
 * critic's guesses about states it had rarely seen feed its own targets: measured on simple_spread
 * (seed 1, lr 1e-3), values grew to +20,000 while every reward is negative, and the agents learned to
 * run away from the landmarks to reach them (mean return −166, random's −79).
 * 1. Behaviour policy and values, no gradient: log π_old(u_t,a | x_t,a), V_old(s_t, a) for t < T.
 * 2. Values are kept normalised (MAPPO's ValueNorm): the critic outputs v̂, V = μ + σ·v̂, with
 *        m ← β m + (1 − β) mean(R),  q ← β q + (1 − β) mean(R²),  d ← β d + (1 − β)
 *        μ = m / d,  σ² = max(q / d − μ², 1e-2)                      (β = 0.99999, debiased)
 *    updated with each batch's returns R before the critic trains on (R − μ) / σ.
 * 3. GAE per agent and episode (gae.ts), the last step terminal: δ_t = r_t + γ V(s_{t+1})·[t + 1 < T] − V(s_t),
 *    A_t = δ_t + γλ A_{t+1}, R_t = A_t + V(s_t); Â = (A − mean A) / (std A + 1e-5) over the batch.
 * 4. `epochs` passes over the E·T·A rows, shuffled with the seeded Rng into `numMinibatches`:
 *        ρ   = exp(log π_θ(u|x) − log π_old(u|x))
 *        L_π = −mean[ min(ρ Â, clip(ρ, 1 − ε, 1 + ε) Â) ] − c_H · mean H(π_θ(·|x))
 *        L_V = 0.5 · mean[ (v̂_φ(s, a) − (R − μ)/σ)² ]
 *    each with its own Adam (ε 1e-5), gradients clipped to a global norm `maxGradNorm`.
 *    Diagnostics: approxKl = mean[(ρ − 1) − log ρ], clipFrac = mean[|ρ − 1| > ε].
 * The authors' code also clips the value loss and uses a Huber loss (δ 10, the same as 0.5·x² for
 * normalised errors under 10) and a LayerNorm on the inputs; here the value loss is not clipped and
 * there is no LayerNorm.
 *
 * learn() reads back twice: the behaviour policy's log-probabilities and values (for GAE in JS),
 * then every metric at once.
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm } from '../core/algorithm';
import { DenseStack } from '../core/mlp';
import { Model, type WeightSpec } from '../core/model';
import { Rng } from '../core/rng';
import { readScalars } from '../core/tensorUtils';
import { FusedAdam } from '../core/fusedAdam';
import { applyStack } from '../core/qmixMixer';
import { explainedVariance } from './common';
import { gae } from './gae';
import {
  checkEpisodeBatch,
  sharedActorInputDim,
  writeSharedActorInput,
  type EpisodeSource,
  type MarlActingSpec,
  type MarlAlgorithm,
  type MarlAlgorithmModule,
  type MarlEpisodeBatch,
  type MarlTaskSpec,
} from './marl';

export interface MappoParams {
  /** Adam step size of the shared actor. */
  lr: number;
  /** Adam step size of the centralised critic. */
  criticLr: number;
  gamma: number;
  gaeLambda: number;
  /** Surrogate clipping ε. */
  clipCoef: number;
  /** Entropy bonus weight c_H. */
  entCoef: number;
  /** Passes over the batch per update. */
  epochs: number;
  numMinibatches: number;
  /** Width of both hidden layers of the actor and the critic. */
  hidden: number;
  /** Global-norm clip of each gradient. */
  maxGradNorm: number;
  /** Whole episodes (of every agent) per update. */
  episodesPerUpdate: number;
  /** Give the actor its agent's one-hot id. */
  agentId: boolean;
}

/** Episodes one collection round may bring at most (16 actors × 64 envs): the replay keeps this many beyond a batch. */
const MAX_ROUND_EPISODES = 16 * 64;
/** ValueNorm's β (r_mappo's default). */
const VALUE_NORM_BETA = 0.99999;
const ADAM_EPS = 1e-5;
/** Logit added to the actions an agent does not have. */
const MASKED = -1e9;

/** The shared actor: rows x [B, sharedActorInputDim] → logits [B, max actions]. */
export class MappoActor extends Model<{ logits: tf.Tensor2D }> {
  readonly net: DenseStack;

  constructor(task: MarlTaskSpec, hidden: number, agentId: boolean, seed: number) {
    super();
    this.net = new DenseStack('actor', sharedActorInputDim(task, agentId), [hidden, hidden], Math.max(...task.actionSizes), 'relu', 0.01, new Rng(seed));
  }

  forward(x: tf.Tensor2D): { logits: tf.Tensor2D } {
    return tf.tidy(() => ({ logits: applyStack(this.net, x) }));
  }

  variables(): tf.Variable[] {
    return this.net.variables();
  }

  weightSpecs(): WeightSpec[] {
    return this.net.specs();
  }
}

/** The centralised critic: rows [s, onehot(a), t / T] [B, S + A + 1] → normalised values v̂ [B, 1]. */
export class MappoCritic extends Model<{ value: tf.Tensor2D }> {
  readonly net: DenseStack;

  constructor(task: MarlTaskSpec, hidden: number, seed: number) {
    super();
    this.net = new DenseStack('critic', criticInputDim(task), [hidden, hidden], 1, 'relu', 1, new Rng(seed));
  }

  forward(x: tf.Tensor2D): { value: tf.Tensor2D } {
    return tf.tidy(() => ({ value: applyStack(this.net, x) }));
  }

  variables(): tf.Variable[] {
    return this.net.variables();
  }

  weightSpecs(): WeightSpec[] {
    return this.net.specs();
  }
}

/** The batch's rows, built in JS from its episodes. Row r = (e·T + t)·A + a. */
export interface MappoRows {
  /** E·T·A */
  n: number;
  /** [n, actor input] */
  actorIn: Float32Array;
  /** [n] */
  actions: Int32Array;
  /** [n, max actions] 0 or MASKED */
  mask: Float32Array;
  /** [E·(T + 1)·A, S + A + 1]: the critic's input at every step t ≤ T (row (e·(T + 1) + t)·A + a). */
  criticIn: Float32Array;
}

/** Width of a critic input row: the global state, the agent's one-hot id and the time t / T. */
export function criticInputDim(task: MarlTaskSpec): number {
  return task.stateDim + task.agents.length + 1;
}

/** MAPPO's critic input row of agent a at step t of T: [s, onehot(a), t / T]. */
export function writeCriticInput(task: MarlTaskSpec, state: Float32Array, stateOffset: number, a: number, t: number, T: number, out: Float32Array, outOffset: number): void {
  const S = task.stateDim;
  const A = task.agents.length;
  out.fill(0, outOffset, outOffset + S + A + 1);
  out.set(state.subarray(stateOffset, stateOffset + S), outOffset);
  out[outOffset + S + a] = 1;
  out[outOffset + S + A] = t / T;
}

export class Mappo extends Algorithm<MarlEpisodeBatch, MappoActor> implements MarlAlgorithm<MarlEpisodeBatch> {
  readonly acting: MarlActingSpec;
  readonly critic: MappoCritic;
  private readonly actorOptimizer: FusedAdam;
  private readonly criticOptimizer: FusedAdam;
  private readonly rng: Rng;
  /** Episodes collected with the current weights, not yet learnt from. */
  private fresh = 0;
  /** ValueNorm's running moments (m, q, d of the header). */
  private normMean = 0;
  private normMeanSq = 0;
  private normDebias = 0;

  constructor(
    readonly task: MarlTaskSpec,
    readonly params: MappoParams,
    seed: number,
  ) {
    super(new MappoActor(task, params.hidden, params.agentId, seed));
    for (const k of ['episodesPerUpdate', 'epochs', 'numMinibatches'] as const) {
      if (!(Number.isInteger(params[k]) && params[k] >= 1)) throw new Error(`MAPPO: ${k} must be a positive integer, got ${params[k]}`);
    }
    this.critic = new MappoCritic(task, params.hidden, seed + 1);
    this.actorOptimizer = new FusedAdam(params.lr, 0.9, 0.999, ADAM_EPS);
    this.criticOptimizer = new FusedAdam(params.criticLr, 0.9, 0.999, ADAM_EPS);
    this.rng = new Rng(seed + 2);
    this.acting = { kind: 'mlpShared', hidden: [params.hidden, params.hidden], agentId: params.agentId };
  }

  override models(): Model[] {
    return [this.model, this.critic];
  }

  predict(x: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(x).logits);
  }

  sample(x: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => tf.softmax(this.model.forward(x).logits));
  }

  get replayEpisodes(): number {
    return this.params.episodesPerUpdate + MAX_ROUND_EPISODES;
  }

  explorationAt(): number {
    return 0;
  }

  /** One update once `episodesPerUpdate` fresh episodes are in. */
  gradientStepsDue(_totalEnvSteps: number, newEnvSteps: number): number {
    this.fresh += Math.round(newEnvSteps / this.task.episodeLength);
    return this.fresh >= this.params.episodesPerUpdate ? 1 : 0;
  }

  afterCollect(): void {
    // On-policy: nothing to schedule between rounds.
  }

  /** Every episode collected since the last update (at least one: a backend probe calls this cold). */
  sampleBatch(replay: EpisodeSource): MarlEpisodeBatch {
    const count = Math.min(Math.max(this.fresh, 1), replay.size);
    this.fresh = 0;
    return replay.latestEpisodes(count);
  }

  /** The actor's and the critic's input rows of a batch of episodes. */
  rows(batch: MarlEpisodeBatch): MappoRows {
    const { task } = this;
    const { numEpisodes: E, T } = batch;
    const A = task.agents.length;
    const S = task.stateDim;
    const X = sharedActorInputDim(task, this.params.agentId);
    const U = Math.max(...task.actionSizes);
    const C = criticInputDim(task);
    const n = E * T * A;
    const actorIn = new Float32Array(n * X);
    const mask = new Float32Array(n * U);
    const criticIn = new Float32Array(E * (T + 1) * A * C);
    for (let e = 0; e < E; e++) {
      for (let t = 0; t <= T; t++) {
        const so = (e * (T + 1) + t) * S;
        for (let a = 0; a < A; a++) {
          writeCriticInput(task, batch.state, so, a, t, T, criticIn, ((e * (T + 1) + t) * A + a) * C);
          if (t === T) continue;
          const r = (e * T + t) * A + a;
          writeSharedActorInput(task, this.params.agentId, batch.state, so, a, actorIn, r * X);
          mask.fill(MASKED, r * U + task.actionSizes[a], (r + 1) * U);
        }
      }
    }
    return { n, actorIn, actions: Int32Array.from(batch.actions), mask, criticIn };
  }

  /** log π(u|x) of the masked categorical and its entropy, per row (call inside tf.tidy). */
  private policy(actorIn: tf.Tensor2D, mask: tf.Tensor2D, actions: tf.Tensor1D): { logpA: tf.Tensor1D; entropy: tf.Tensor1D } {
    const logits: tf.Tensor2D = tf.add(this.model.forward(actorIn).logits, mask);
    const logp = tf.logSoftmax(logits);
    const logpA = tf.sum(tf.mul(logp, tf.oneHot(actions, logits.shape[1])), 1) as tf.Tensor1D;
    const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1)) as tf.Tensor1D;
    return { logpA, entropy };
  }

  /** ValueNorm's μ and σ now. */
  private valueScale(): { mu: number; sigma: number } {
    if (this.normDebias === 0) return { mu: 0, sigma: 1 };
    const mu = this.normMean / this.normDebias;
    return { mu, sigma: Math.sqrt(Math.max(this.normMeanSq / this.normDebias - mu * mu, 1e-2)) };
  }

  private updateValueNorm(returns: Float32Array): void {
    let s = 0;
    let sq = 0;
    for (const r of returns) {
      s += r;
      sq += r * r;
    }
    const b = VALUE_NORM_BETA;
    this.normMean = b * this.normMean + (1 - b) * (s / returns.length);
    this.normMeanSq = b * this.normMeanSq + (1 - b) * (sq / returns.length);
    this.normDebias = b * this.normDebias + (1 - b);
  }

  learn(batch: MarlEpisodeBatch): Record<string, number> {
    checkEpisodeBatch(this.task, batch, 'Mappo.learn');
    const { task, params } = this;
    const { numEpisodes: E, T } = batch;
    const A = task.agents.length;
    const X = sharedActorInputDim(task, params.agentId);
    const U = Math.max(...task.actionSizes);
    const C = criticInputDim(task);
    const rows = this.rows(batch);
    const { n } = rows;

    // 1. Behaviour policy and values (one readback).
    const [oldLogp, oldV] = tf.tidy(() => {
      const { logpA } = this.policy(tf.tensor2d(rows.actorIn, [n, X]), tf.tensor2d(rows.mask, [n, U]), tf.tensor1d(rows.actions, 'int32'));
      const v = tf.reshape(this.critic.forward(tf.tensor2d(rows.criticIn, [E * (T + 1) * A, C])).value, [-1]);
      return [logpA, v];
    });
    const oldLogProbs = oldLogp.dataSync() as Float32Array;
    const vHat = oldV.dataSync() as Float32Array;
    oldLogp.dispose();
    oldV.dispose();

    // 2–3. Values in return units, GAE time-major [T, N] with N = E·A, then ValueNorm.
    const { mu, sigma } = this.valueScale();
    const N = E * A;
    const values = new Float32Array(T * N);
    const rewards = new Float32Array(T * N);
    const lastValues = new Float32Array(N);
    for (let e = 0; e < E; e++) {
      for (let a = 0; a < A; a++) {
        for (let t = 0; t < T; t++) {
          values[t * N + e * A + a] = mu + sigma * vHat[(e * (T + 1) + t) * A + a];
          rewards[t * N + e * A + a] = batch.rewards[(e * T + t) * A + a];
        }
        lastValues[e * A + a] = mu + sigma * vHat[(e * (T + 1) + T) * A + a];
      }
    }
    const dones = new Uint8Array(T * N);
    dones.fill(1, (T - 1) * N); // the episode's end is final (see the header): V(s_T) is not used
    const g = gae(rewards, values, dones, lastValues, params.gamma, params.gaeLambda, N);
    this.updateValueNorm(g.returns);
    const scale = this.valueScale();
    // Back to row order r = (e·T + t)·A + a.
    const adv = new Float32Array(n);
    const target = new Float32Array(n);
    const valueRows = new Float32Array(n);
    const returnRows = new Float32Array(n);
    for (let e = 0; e < E; e++) {
      for (let t = 0; t < T; t++) {
        for (let a = 0; a < A; a++) {
          const r = (e * T + t) * A + a;
          const i = t * N + e * A + a;
          adv[r] = g.advantages[i];
          returnRows[r] = g.returns[i];
          valueRows[r] = values[i];
          target[r] = (g.returns[i] - scale.mu) / scale.sigma;
        }
      }
    }
    normalise(adv);
    // The critic trains on the rows t < T of criticIn.
    const criticRows = new Float32Array(n * C);
    for (let e = 0; e < E; e++) criticRows.set(rows.criticIn.subarray(e * (T + 1) * A * C, (e * (T + 1) + T) * A * C), e * T * A * C);

    // 4. Epochs of minibatches.
    const sums: Record<string, tf.Scalar> = {};
    const add = (k: string, v: tf.Scalar) => {
      const prev = sums[k];
      sums[k] = tf.keep(prev ? tf.add(prev, v) : tf.clone(v));
      prev?.dispose();
    };
    let steps = 0;
    const order = Array.from({ length: n }, (_, i) => i);
    for (let epoch = 0; epoch < params.epochs; epoch++) {
      this.rng.shuffle(order);
      for (let m = 0; m < params.numMinibatches; m++) {
        const idx = order.slice(Math.floor((m * n) / params.numMinibatches), Math.floor(((m + 1) * n) / params.numMinibatches));
        if (idx.length === 0) continue;
        const B = idx.length;
        const mb = {
          x: gatherRows(rows.actorIn, X, idx),
          mask: gatherRows(rows.mask, U, idx),
          actions: Int32Array.from(idx, (i) => rows.actions[i]),
          oldLogp: Float32Array.from(idx, (i) => oldLogProbs[i]),
          adv: Float32Array.from(idx, (i) => adv[i]),
          c: gatherRows(criticRows, C, idx),
          target: Float32Array.from(idx, (i) => target[i]),
        };
        tf.tidy(() => {
          const x = tf.tensor2d(mb.x, [B, X]);
          const mask = tf.tensor2d(mb.mask, [B, U]);
          const actions = tf.tensor1d(mb.actions, 'int32');
          const oldLogp = tf.tensor1d(mb.oldLogp);
          const advT = tf.tensor1d(mb.adv);
          const diag: { entropy?: tf.Scalar; approxKl?: tf.Scalar; clipFrac?: tf.Scalar } = {};
          const actor = tf.variableGrads(() => {
            const p = this.policy(x, mask, actions);
            const logRatio = tf.sub(p.logpA, oldLogp);
            const ratio = tf.exp(logRatio);
            const surrogate = tf.minimum(tf.mul(ratio, advT), tf.mul(tf.clipByValue(ratio, 1 - params.clipCoef, 1 + params.clipCoef), advT));
            const entropy = tf.mean(p.entropy) as tf.Scalar;
            diag.entropy = tf.keep(entropy);
            diag.approxKl = tf.keep(tf.mean(tf.sub(tf.sub(ratio, 1), logRatio)) as tf.Scalar);
            diag.clipFrac = tf.keep(tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), params.clipCoef), 'float32')) as tf.Scalar);
            return tf.sub(tf.neg(tf.mean(surrogate)), tf.mul(params.entCoef, entropy)) as tf.Scalar;
          }, this.model.variables());
          const actorNorm = this.actorOptimizer.clipAndApply(actor.grads, params.maxGradNorm);
          const c = tf.tensor2d(mb.c, [B, C]);
          const y = tf.tensor1d(mb.target);
          const critic = tf.variableGrads(() => tf.mul(0.5, tf.mean(tf.square(tf.sub(tf.reshape(this.critic.forward(c).value, [-1]), y)))) as tf.Scalar, this.critic.variables());
          const criticNorm = this.criticOptimizer.clipAndApply(critic.grads, params.maxGradNorm);
          const { entropy, approxKl, clipFrac } = diag;
          if (!entropy || !approxKl || !clipFrac) throw new Error('Mappo.learn: the actor loss did not run');
          add('policyLoss', tf.add(actor.value, tf.mul(params.entCoef, entropy)) as tf.Scalar);
          add('valueLoss', critic.value);
          add('entropy', entropy);
          add('approxKl', approxKl);
          add('clipFrac', clipFrac);
          add('actorGradNorm', actorNorm);
          add('criticGradNorm', criticNorm);
          for (const t of [entropy, approxKl, clipFrac]) t.dispose();
        });
        steps += 1;
      }
    }
    const out: Record<string, tf.Scalar> = {};
    for (const [k, v] of Object.entries(sums)) {
      out[k] = tf.div(v, steps) as tf.Scalar;
      v.dispose();
    }
    const metrics = readScalars(out);
    metrics.explainedVariance = explainedVariance(valueRows, returnRows);
    metrics.valueMean = mean(valueRows);
    metrics.returnMean = mean(returnRows);
    return metrics;
  }

  override setLearningRate(lr: number): void {
    Reflect.set(this.actorOptimizer, 'learningRate', lr);
    Reflect.set(this.criticOptimizer, 'learningRate', lr);
  }

  override dispose(): void {
    this.actorOptimizer.dispose();
    this.criticOptimizer.dispose();
    super.dispose();
  }
}

function gatherRows(src: Float32Array, width: number, idx: readonly number[]): Float32Array {
  const out = new Float32Array(idx.length * width);
  idx.forEach((i, k) => out.set(src.subarray(i * width, (i + 1) * width), k * width));
  return out;
}

/** In place: (x − mean) / (std + 1e-5), population std. */
function normalise(x: Float32Array): void {
  const m = mean(x);
  let v = 0;
  for (const a of x) v += (a - m) ** 2;
  const sd = Math.sqrt(v / x.length);
  for (let i = 0; i < x.length; i++) x[i] = (x[i] - m) / (sd + 1e-5);
}

function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / Math.max(x.length, 1);
}

export const mappo: MarlAlgorithmModule<MappoParams> = {
  kind: 'marl',
  create: (task, params, seed) => new Mappo(task, params, seed),
};
