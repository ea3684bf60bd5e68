/**
 * A start from demonstrations for the set policy (an LLM orchestrator starts from supervised
 * fine-tuning before its RL, as Kimi K2.5's does): a scripted orchestrator plays some tasks, its
 * tool calls are recorded as set-policy actions, and the policy is fitted to them by maximum
 * likelihood before PPO trains it. Nothing else about training changes.
 *
 * Recording: RecordingDecompositionSim encodes the observation (setActions.ts) before each call
 * and writes the call as the action that plays it:
 *   createSubagent(kind, id) -> assignNew[row(id), kind]
 *   addToSubagent(slot, id)  -> join[row(id), kind of slot]  (slot must be its kind's newest planned subagent)
 *   launch / direct(id) / check(id) / finish -> launch / direct[row] / check[row] / finish
 * A call whose action the policy's mask forbids (certain waste by ReturnBounds, or finish with
 * open work left), or that no action plays (joining an older subagent), is still played but not
 * recorded: `skipped` counts them.
 *
 * Cloning: with the policy's log-probabilities log π(a|s) (its logits), minimise
 *   L = −(1/|B|) Σ_{(s,a) in B} log π(a|s)
 * over shuffled minibatches B (an Rng of the seed), with Adam, for a number of epochs. The value
 * head is not fitted (PPO's critic learns from the first update on).
 *
 * Rehearsal (optional; the demonstration term of DAPG, Rajeswaran et al. 2018, taken as a step of
 * its own): after RL update k, one Adam step on the same L over a minibatch of the demonstrations
 * drawn by the seed's Rng, at learning rate
 *   lr_k = lr · max(0, 1 − k / horizon)
 * so the demonstrations are scaffolding that falls to zero, as λ1 and λ2 do, and from update
 * `horizon` on only PPO moves the policy. Where PPO's credit cannot tell two actions apart (a join
 * and a new subagent earn the same per-decision credit; the context a join saves shows only in
 * the episode's end) the rehearsal keeps the teacher's choice.
 */
import * as tf from '@tensorflow/tfjs';
import { DecompositionSim, type DecompositionOutcome, type DecompStageRecord } from '../envs/swarm/decomposition';
import { DecompositionError, generateDecomposition } from '../envs/swarm/decompositionTask';
import { Rng, deriveSeed } from '../core/rng';
import { packerBaseline, plannerBaseline, type Baseline } from './baselines';
import { decompSimOptions, type DecompTaskSpec } from './decompActor';
import { activeRowsOf, encodeSetObservation, SP_MASK_OFFSET, SP_MAX_KINDS, SP_OBS_DIM, SP_ROWS, SP_SEGMENTS, type SetPolicyModel } from './setPolicy';

export class RecordingDecompositionSim extends DecompositionSim {
  readonly observations: Float32Array[] = [];
  readonly actions: number[] = [];
  skipped = 0;

  private record(actionOf: (rows: readonly number[]) => number): void {
    if (this.finished) return;
    const obs = new Float32Array(SP_OBS_DIM);
    const rows = encodeSetObservation(this, obs, 0);
    const a = actionOf(rows);
    if (a >= 0 && obs[SP_MASK_OFFSET + a] > 0) {
      this.observations.push(obs);
      this.actions.push(a);
    } else this.skipped += 1;
  }

  /** Flat index of a (row, kind) action of a pointer type, or −1 when the subtask is not a candidate row. */
  private pair(type: 'assignNew' | 'join', rows: readonly number[], id: number, kind: string): number {
    const row = rows.indexOf(id);
    return row < 0 ? -1 : SP_SEGMENTS[type].offset + row * SP_MAX_KINDS + this.subagentKinds.indexOf(kind);
  }

  private single(type: 'direct' | 'check', rows: readonly number[], id: number): number {
    const row = rows.indexOf(id);
    return row < 0 ? -1 : SP_SEGMENTS[type].offset + row;
  }

  override createSubagent(kind: string, id: number): number {
    this.record((rows) => this.pair('assignNew', rows, id, kind));
    return super.createSubagent(kind, id);
  }

  override addToSubagent(slot: number, id: number): void {
    this.record((rows) => {
      const kind = this.pendingPlan()[slot]?.kind;
      return kind !== undefined && this.lastPendingOf(kind) === slot ? this.pair('join', rows, id, kind) : -1;
    });
    super.addToSubagent(slot, id);
  }

  override launch(): DecompStageRecord {
    this.record(() => SP_SEGMENTS.launch.offset);
    return super.launch();
  }

  override direct(id: number): DecompStageRecord {
    this.record((rows) => this.single('direct', rows, id));
    return super.direct(id);
  }

  override check(id: number): boolean {
    this.record((rows) => this.single('check', rows, id));
    return super.check(id);
  }

  override finish(): DecompositionOutcome {
    this.record(() => SP_SEGMENTS.finish.offset);
    return super.finish();
  }
}

export interface Demonstrations {
  /** n × SP_OBS_DIM observations, row-major. */
  obs: Float32Array;
  actions: Int32Array;
  n: number;
  /** Calls played but not recorded (see the module comment). */
  skipped: number;
  /** Tasks the rules make impossible (a budget below the task's lower bound): not played. */
  infeasible: number;
  /** The scripted orchestrator's outcome on each task. */
  outcomes: DecompositionOutcome[];
}

/** The task seed of demonstration i of run seed `seed` (a stream of its own: not a training or evaluation task). */
export function demoTaskSeed(seed: number, i: number): number {
  return deriveSeed(seed, 0xbc, i);
}

/** `tasks` episodes of the scripted orchestrator on the spec's rules, recorded as set-policy decisions. */
export function collectDemonstrations(spec: DecompTaskSpec, seed: number, tasks: number, policy: Baseline): Demonstrations {
  const obs: Float32Array[] = [];
  const actions: number[] = [];
  const outcomes: DecompositionOutcome[] = [];
  let skipped = 0;
  let infeasible = 0;
  for (let i = 0; i < tasks; i++) {
    let sim: RecordingDecompositionSim;
    try {
      sim = new RecordingDecompositionSim(generateDecomposition(spec.task, demoTaskSeed(seed, i)), decompSimOptions(spec, demoTaskSeed(seed, i)));
    } catch (e) {
      if (!(e instanceof DecompositionError)) throw e;
      infeasible += 1;
      continue;
    }
    outcomes.push(policy(sim));
    obs.push(...sim.observations);
    actions.push(...sim.actions);
    skipped += sim.skipped;
  }
  const flat = new Float32Array(obs.length * SP_OBS_DIM);
  obs.forEach((o, k) => flat.set(o, k * SP_OBS_DIM));
  return { obs: flat, actions: Int32Array.from(actions), n: actions.length, skipped, infeasible, outcomes };
}

export interface CloneOptions {
  epochs: number;
  batchSize: number;
  lr: number;
  seed: number;
  /** Called after each epoch with its mean −log π(a|s) (progress for a page). */
  onEpoch?: (epoch: number, loss: number) => void;
}

/** Mean −log π(a|s) of the policy over the demonstrations (no gradient). */
export function demoNegLogLikelihood(model: SetPolicyModel, demos: Demonstrations, batchSize = 256): number {
  let sum = 0;
  for (let b = 0; b < demos.n; b += batchSize) {
    const idx = Array.from({ length: Math.min(batchSize, demos.n - b) }, (_, j) => b + j);
    sum += tf.tidy(() => -tf.sum(logProbOfActions(model, demos, idx)).dataSync()[0]);
  }
  return sum / Math.max(1, demos.n);
}

/** log π(a_k|s_k) for the demonstrations `idx` (rows past the batch's last candidate left out, as the learner does). */
function logProbOfActions(model: SetPolicyModel, demos: Demonstrations, idx: readonly number[]): tf.Tensor1D {
  const x = new Float32Array(idx.length * SP_OBS_DIM);
  idx.forEach((k, r) => x.set(demos.obs.subarray(k * SP_OBS_DIM, (k + 1) * SP_OBS_DIM), r * SP_OBS_DIM));
  model.activeRows = activeRowsOf(x, idx.length);
  try {
    const { logits } = model.forward(tf.tensor2d(x, [idx.length, SP_OBS_DIM]));
    const a = tf.tensor1d(Int32Array.from(idx, (k) => demos.actions[k]), 'int32');
    return tf.sum(tf.mul(logits, tf.oneHot(a, logits.shape[1])), 1) as tf.Tensor1D;
  } finally {
    model.activeRows = SP_ROWS;
  }
}

/** L = −mean log π(a|s) over the demonstrations `idx` (the loss of cloning and of the rehearsal). */
function demoLoss(model: SetPolicyModel, demos: Demonstrations, idx: readonly number[]): tf.Scalar {
  return tf.neg(tf.mean(logProbOfActions(model, demos, idx)));
}

/** Fit the policy to the demonstrations; returns the mean −log π(a|s) over each epoch's minibatches. */
export function cloneDemonstrations(model: SetPolicyModel, demos: Demonstrations, o: CloneOptions): number[] {
  if (demos.n === 0) throw new Error('demonstrations: nothing was recorded');
  const optimizer = tf.train.adam(o.lr);
  const rng = new Rng(o.seed).fork(0xc1);
  const order = Array.from({ length: demos.n }, (_, i) => i);
  const perEpoch: number[] = [];
  try {
    for (let epoch = 0; epoch < o.epochs; epoch++) {
      rng.shuffle(order);
      // The epoch's summed loss stays a tensor: one readback an epoch, not one a minibatch.
      let sum: tf.Scalar = tf.scalar(0);
      for (let b = 0; b < demos.n; b += o.batchSize) {
        const idx = order.slice(b, b + o.batchSize);
        const loss = optimizer.minimize(() => demoLoss(model, demos, idx), true, model.variables());
        if (!loss) throw new Error('demonstrations: the optimizer returned no loss');
        const next = tf.tidy(() => tf.add(sum, tf.mul(loss, idx.length)) as tf.Scalar);
        sum.dispose();
        loss.dispose();
        sum = next;
      }
      const mean = sum.dataSync()[0] / demos.n;
      sum.dispose();
      perEpoch.push(mean);
      o.onEpoch?.(epoch + 1, mean);
    }
  } finally {
    optimizer.dispose();
  }
  return perEpoch;
}

/** The demonstration start: the teacher on 64 tasks of the seed's own stream, 30 epochs of minibatches of 256, Adam 3e-3. */
export const DEMO_START = { tasks: 64, epochs: 30, batchSize: 256, lr: 3e-3 } as const;

export interface DemoStartReport {
  /** What was fitted (for a rehearsal during RL). */
  demonstrations: Demonstrations;
  decisions: number;
  skipped: number;
  /** Mean −log π(a|s) over the demonstrations before and after cloning. */
  before: number;
  after: number;
}

/** The scripted orchestrators a start may learn from (baselines.ts). */
export const DEMO_TEACHERS = { planner: plannerBaseline(), packer: packerBaseline() } as const satisfies Record<string, Baseline>;
export type DemoTeacher = keyof typeof DEMO_TEACHERS;

/** Fit `model` to a teacher's demonstrations on the spec's rules (DEMO_START), before any RL update. */
export function startFromDemonstrations(model: SetPolicyModel, spec: DecompTaskSpec, seed: number, onEpoch?: CloneOptions['onEpoch'], teacher: DemoTeacher = 'planner'): DemoStartReport {
  const demos = collectDemonstrations(spec, seed, DEMO_START.tasks, DEMO_TEACHERS[teacher]);
  const before = demoNegLogLikelihood(model, demos);
  const curve = cloneDemonstrations(model, demos, { ...DEMO_START, seed, ...(onEpoch ? { onEpoch } : {}) });
  return { demonstrations: demos, decisions: demos.n, skipped: demos.skipped, before, after: curve[curve.length - 1] };
}

/** The rehearsal's settings: one minibatch of 256 after each update, Adam 3e-3 (falling to 0 over the run's anneal horizon, the one λ1 and λ2 use). */
export const DEMO_REHEARSAL = { batchSize: 256, lr: 3e-3 } as const;

/** One Adam step on the demonstrations after each RL update, its learning rate falling to zero (see the module comment). */
export class DemoRehearsal {
  private readonly optimizer: tf.Optimizer;
  private readonly rng: Rng;

  constructor(
    private readonly model: SetPolicyModel,
    private readonly demos: Demonstrations,
    private readonly o: { batchSize: number; lr: number; horizon: number; seed: number },
  ) {
    if (demos.n === 0) throw new Error('demonstrations: nothing was recorded');
    if (!(Number.isInteger(o.horizon) && o.horizon >= 1)) throw new Error(`demonstrations: the rehearsal's horizon must be a positive integer, got ${o.horizon}`);
    if (!(Number.isInteger(o.batchSize) && o.batchSize >= 1)) throw new Error(`demonstrations: the rehearsal's batch size must be a positive integer, got ${o.batchSize}`);
    this.optimizer = tf.train.adam(o.lr);
    this.rng = new Rng(o.seed).fork(0xae);
  }

  /** lr_k after update k. */
  learningRateAt(update: number): number {
    return this.o.lr * Math.max(0, 1 - update / this.o.horizon);
  }

  /** The step after RL update `update`: its −log π(a|s) on the minibatch before the step, or null once the rate is 0. */
  step(update: number): number | null {
    const lr = this.learningRateAt(update);
    if (lr <= 0) return null;
    // tfjs keeps `learningRate` protected but reads it on every step (as Algorithm.setLearningRate).
    Reflect.set(this.optimizer, 'learningRate', lr);
    const idx = Array.from({ length: Math.min(this.o.batchSize, this.demos.n) }, () => this.rng.int(this.demos.n));
    const loss = this.optimizer.minimize(() => demoLoss(this.model, this.demos, idx), true, this.model.variables());
    if (!loss) throw new Error('demonstrations: the optimizer returned no loss');
    const value = loss.dataSync()[0];
    loss.dispose();
    return value;
  }

  dispose(): void {
    this.optimizer.dispose();
  }
}
