/**
 * The orchestrator's interface to the task: its action menu, its observation (a fixed-size feature
 * vector with the action mask appended) and its policy network.
 *
 * Actions mirror the report's tools (index: meaning):
 *   0          direct       work on the next ready subtask itself (a direct tool call: a stage of
 *                           its own, its steps are the orchestrator's, it uses context)
 *   1 .. 4     assign       create_subagent + assign_task for k = ASSIGN_OPTIONS[i − 1] of the
 *                           ready subtasks: one, a quarter, half, all of them (k = ceil(f · ready)),
 *                           one stage, the subagents run concurrently
 *   5          over-spawn   create 2 · ready subagents (at most the per-stage cap): every ready
 *                           subtask gets one, the extra subagents get duplicates whose results are
 *                           discarded. It buys nothing but r_parallel, and its results still cost
 *                           context: spurious parallelism is an explicit, learnable choice.
 *   6          finish       answer with every result received and end the episode
 * The menu is relative to the ready subtasks (not absolute counts such as 64 or 100), so the same
 * choice means the same thing for K = 8 and K = 100, and on retries. "Next ready subtask(s)":
 * ready subtasks ordered by fewest attempts so far, then id, so failed ones are retried after
 * fresh ones.
 *
 * Masking: invalid actions get logit −1e9 inside the model (`MaskedActorCritic`), so PPO's
 * π(a|s), log π and entropy all see the masked distribution. The mask travels as the last
 * NUM_ORCH_ACTIONS entries of the observation, so the PPO batch needs no extra field.
 */
import { log2 } from '../core/portableMath';
import * as tf from '@tensorflow/tfjs';
import { FastMlp, softmaxRowsF32 } from '../core/fastMlp';
import { ActorCriticMlp, type MlpSpec } from '../core/mlp';
import { Model, type WeightSpec } from '../core/model';
import type { OrchestrationSim } from '../envs/swarm/orchestration';
import type { StageRecord } from '../envs/swarm/types';

/** Assign options: the fraction of the ready subtasks handed out (k = ceil(f · ready)); 0 means exactly one. */
export const ASSIGN_OPTIONS = [0, 0.25, 0.5, 1] as const;
export const ACTION_DIRECT = 0;
/** Assign every ready subtask, one subagent each. */
export const ACTION_ASSIGN_ALL = ASSIGN_OPTIONS.length;
/** Over-spawn: 2 · ready subagents, the extra ones on duplicates. */
export const ACTION_OVERSPAWN = ASSIGN_OPTIONS.length + 1;
export const OVERSPAWN_FACTOR = 2;
export const ACTION_FINISH = ASSIGN_OPTIONS.length + 2;
export const NUM_ORCH_ACTIONS = ASSIGN_OPTIONS.length + 3;
/** The actions by index, in words. */
export const ORCH_ACTION_NAMES: readonly string[] = ['direct', ...ASSIGN_OPTIONS.map((f) => (f === 0 ? 'assign one' : f === 1 ? 'assign all' : `assign ${f * 100}%`)), 'over-spawn', 'finish'];
/** Features before the mask. */
export const ORCH_FEATURES = 18;
export const ORCH_OBS_DIM = ORCH_FEATURES + NUM_ORCH_ACTIONS;
const MASK_LOGIT = -1e9;

export type OrchAction =
  | { kind: 'direct' }
  /** `fraction` of the ready subtasks; with `overspawn`, OVERSPAWN_FACTOR subagents per ready subtask. */
  | { kind: 'assign'; fraction: number; overspawn: boolean }
  | { kind: 'finish' };

export function decodeAction(a: number): OrchAction {
  if (a === ACTION_DIRECT) return { kind: 'direct' };
  if (a === ACTION_FINISH) return { kind: 'finish' };
  if (a === ACTION_OVERSPAWN) return { kind: 'assign', fraction: 1, overspawn: true };
  if (Number.isInteger(a) && a >= 1 && a <= ASSIGN_OPTIONS.length) return { kind: 'assign', fraction: ASSIGN_OPTIONS[a - 1], overspawn: false };
  throw new Error(`orchestrator: invalid action ${a} (0..${NUM_ORCH_ACTIONS - 1})`);
}

/**
 * How many subagents an assign action launches with `ready` subtasks ready and at most
 * `maxPerStage` per stage: `real` get distinct ready subtasks, `extra` get duplicates.
 */
export function assignCounts(a: OrchAction, ready: number, maxPerStage: number): { real: number; extra: number } {
  if (a.kind !== 'assign' || ready < 1) return { real: 0, extra: 0 };
  const real = Math.min(maxPerStage, ready, a.fraction === 0 ? 1 : Math.ceil(a.fraction * ready));
  if (!a.overspawn) return { real, extra: 0 };
  return { real, extra: Math.max(0, Math.min(maxPerStage, OVERSPAWN_FACTOR * ready) - real) };
}

export function actionName(a: number): string {
  const d = decodeAction(a);
  if (d.kind !== 'assign') return d.kind;
  if (d.overspawn) return 'overspawn';
  return d.fraction === 0 ? 'assign1' : d.fraction === 1 ? 'assignAll' : `assign${d.fraction * 100}%`;
}

/** Ready subtasks, fewest attempts first, then by id. */
export function readyOrder(sim: OrchestrationSim): number[] {
  return sim.readySubtasks().sort((x, y) => sim.attempts(x) - sim.attempts(y) || x - y);
}

/**
 * 1 for each action valid now. Finish is always valid. An assign is valid when its subagents'
 * results fit in the context left; over-spawn only when it adds at least one duplicate.
 */
export function actionMask(sim: OrchestrationSim, out: Float32Array = new Float32Array(NUM_ORCH_ACTIONS), offset = 0): Float32Array {
  const ready = sim.readySubtasks().length;
  out[offset + ACTION_DIRECT] = sim.canDirect() ? 1 : 0;
  const l = sim.limits;
  const steps = sim.mainStepsLeft >= 1;
  for (let a = 1; a <= ACTION_OVERSPAWN; a++) {
    const { real, extra } = assignCounts(decodeAction(a), ready, l.maxSubagentsPerStage);
    const n = real + extra;
    const ok = n > 0 && steps && n * l.contextPerResult <= sim.contextLeft && (a !== ACTION_OVERSPAWN || extra > 0);
    out[offset + a] = ok ? 1 : 0;
  }
  out[offset + ACTION_FINISH] = 1;
  return out;
}

/**
 * The observation (ORCH_OBS_DIM floats), written at out[offset..]:
 *   0 done / K          1 ready / K           2 blocked / K        3 ready that failed before / K
 *   4 context left      5 main steps left     (fractions of their budgets)
 *   6 stages / 64 (clipped to 1)
 *   7..9 last stage was direct / assign / none yet
 *   10 last stage: subtasks completed / runs     11 last stage: subagents / 100
 *   12 last stage: duplicates / runs            13 log2(ready + 1) / log2(101)
 *   14 log2(K) / log2(100)                      15 critical steps so far / serial baseline (≤ 2) / 2
 *   16 answered but not done / K (wrong answers standing)      17 task is a graph (1) or wide search (0)
 *   18.. the action mask
 */
export function writeOrchestratorObs(sim: OrchestrationSim, last: StageRecord | null, out: Float32Array, offset: number): void {
  const K = sim.numSubtasks;
  let done = 0;
  let ready = 0;
  let failedReady = 0;
  const answers = sim.receivedAnswers();
  let wrongStanding = 0;
  for (let id = 0; id < K; id++) {
    const st = sim.status(id);
    if (st === 'done') done += 1;
    else {
      if (st === 'ready') {
        ready += 1;
        if (sim.attempts(id) > 0) failedReady += 1;
      }
      if (answers.has(id)) wrongStanding += 1;
    }
  }
  const l = sim.limits;
  const f = out;
  const o = offset;
  f[o + 0] = done / K;
  f[o + 1] = ready / K;
  f[o + 2] = (K - done - ready) / K;
  f[o + 3] = failedReady / K;
  f[o + 4] = l.contextBudget > 0 ? Math.max(0, sim.contextLeft) / l.contextBudget : 0;
  f[o + 5] = Math.max(0, sim.mainStepsLeft) / l.maxMainSteps;
  f[o + 6] = Math.min(1, sim.stages().length / 64);
  f[o + 7] = last?.action === 'direct' ? 1 : 0;
  f[o + 8] = last?.action === 'assign' ? 1 : 0;
  f[o + 9] = last ? 0 : 1;
  let runs = 0;
  let completed = 0;
  let dups = 0;
  if (last?.direct) {
    runs = 1;
    completed = last.direct.outcome === 'done' ? 1 : 0;
  } else if (last) {
    runs = last.subagents.length;
    for (const s of last.subagents) {
      if (s.outcome === 'done') completed += 1;
      if (s.duplicate) dups += 1;
    }
  }
  f[o + 10] = runs > 0 ? completed / runs : 0;
  f[o + 11] = last ? last.subagents.length / 100 : 0;
  f[o + 12] = runs > 0 ? dups / runs : 0;
  f[o + 13] = log2(ready + 1) / log2(101);
  f[o + 14] = log2(K) / log2(100);
  const serial = Math.max(1, sim.task.serialBaseline);
  f[o + 15] = Math.min(2, sim.elapsedCriticalSteps / serial) / 2;
  f[o + 16] = wrongStanding / K;
  f[o + 17] = sim.task.kind === 'taskGraph' ? 1 : 0;
  actionMask(sim, out, o + ORCH_FEATURES);
}

export function orchestratorSpec(hidden: readonly number[]): MlpSpec {
  return { obsDim: ORCH_FEATURES, numActions: NUM_ORCH_ACTIONS, hidden: [...hidden], activation: 'tanh', kind: 'actorCritic' };
}

/**
 * Actor-critic over the features, with the mask applied to the logits:
 *   logits' = logits + (1 − mask) · (−1e9),   value = V(features)
 * Input rows are [features (ORCH_FEATURES), mask (NUM_ORCH_ACTIONS)].
 */
export class MaskedActorCritic extends Model<{ logits: tf.Tensor2D; value: tf.Tensor1D }> {
  readonly net: ActorCriticMlp;

  /**
   * `directBias` (default 0) is added to the initial bias of the direct action's logit: an
   * orchestrator that starts as a single agent doing the work itself, as the report's model did
   * before PARL training. It only sets the starting point; every preset gets the same one, and
   * whether the policy leaves it is learned.
   */
  constructor(hidden: readonly number[], seed: number, options: { directBias?: number } = {}) {
    super();
    this.net = new ActorCriticMlp(orchestratorSpec(hidden), seed);
    const bias = options.directBias ?? 0;
    if (!Number.isFinite(bias)) throw new Error(`MaskedActorCritic: directBias must be finite, got ${bias}`);
    if (bias !== 0) {
      const head = this.net.policy.layers[this.net.policy.layers.length - 1];
      const b = new Float32Array(NUM_ORCH_ACTIONS);
      b[ACTION_DIRECT] = bias;
      const t = tf.tensor1d(b);
      head.bias.assign(t);
      t.dispose();
    }
  }

  forward(x: tf.Tensor2D): { logits: tf.Tensor2D; value: tf.Tensor1D } {
    return tf.tidy(() => {
      const feats = tf.slice(x, [0, 0], [-1, ORCH_FEATURES]);
      const mask = tf.slice(x, [0, ORCH_FEATURES], [-1, NUM_ORCH_ACTIONS]);
      const out = this.net.forward(feats);
      const logits = tf.add(out.logits, tf.mul(tf.sub(1, mask), MASK_LOGIT)) as tf.Tensor2D;
      return { logits, value: out.value };
    });
  }

  variables(): tf.Variable[] {
    return this.net.variables();
  }

  weightSpecs(): WeightSpec[] {
    return this.net.weightSpecs();
  }
}

/**
 * MaskedActorCritic's forward pass and softmax on typed arrays, bit for bit what tfjs's wasm
 * backend computes (core/fastMlp.ts: the dense layers, tanh and XNNPACK's softmax), for the
 * learner's central inference where a tick has only a few orchestrator rows and tfjs's per-call
 * cost (about 16 kernels and a readback) outweighs the arithmetic. Use it only where the tfjs pass
 * it replaces runs on wasm.
 *   z = fl(logit + fl(fl(1 − mask) · (−1e9)))   (each operation rounded to float32, as tfjs's Sub, Mul, Add)
 *   π = softmax(z),  V = critic(features)
 * The weights are copied from the model whenever one of its variables was reassigned since the
 * last copy (every optimizer step and setWeights assigns a new tensor, so a new dataId).
 */
const f32 = Math.fround;

export class FastMaskedActorCritic {
  private readonly policy: FastMlp;
  private readonly critic: FastMlp;
  private seen: readonly object[] = [];
  private features = new Float32Array(0);
  private logits = new Float32Array(0);
  /** Multiply-adds per row, policy and critic together (to size batches against tfjs). */
  readonly macsPerRow: number;

  constructor(private readonly model: MaskedActorCritic) {
    const spec = model.net.spec;
    this.policy = new FastMlp(spec);
    this.critic = new FastMlp({ ...spec, numActions: 1 });
    this.macsPerRow = this.policy.macsPerRow + this.critic.macsPerRow;
  }

  /** π(·|s) [n · NUM_ORCH_ACTIONS] and V(s) [n] for n observation rows [n · ORCH_OBS_DIM] (fresh arrays). */
  outputs(obs: Float32Array, n: number): { probs: Float32Array; values: Float32Array } {
    this.sync();
    const A = NUM_ORCH_ACTIONS;
    if (this.features.length < n * ORCH_FEATURES) {
      this.features = new Float32Array(n * ORCH_FEATURES);
      this.logits = new Float32Array(n * A);
    }
    const feats = this.features;
    for (let r = 0; r < n; r++) feats.set(obs.subarray(r * ORCH_OBS_DIM, r * ORCH_OBS_DIM + ORCH_FEATURES), r * ORCH_FEATURES);
    const raw = this.policy.forward(feats, n);
    const z = this.logits;
    for (let r = 0; r < n; r++) {
      for (let a = 0; a < A; a++) z[r * A + a] = raw[r * A + a] + f32(f32(1 - obs[r * ORCH_OBS_DIM + ORCH_FEATURES + a]) * MASK_LOGIT);
    }
    const probs = softmaxRowsF32(z, n, A, new Float32Array(n * A));
    const values = this.critic.forward(feats, n).slice(0, n);
    return { probs, values };
  }

  private sync(): void {
    const vars = this.model.variables();
    if (vars.length === this.seen.length && vars.every((v, i) => v.dataId === this.seen[i])) return;
    const ws = this.model.net.getWeights();
    this.policy.setWeights(ws);
    this.critic.setWeights(ws.slice(this.policy.weightCount));
    this.seen = vars.map((v) => v.dataId);
  }
}
