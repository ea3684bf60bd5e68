/**
 * What DDPG, TD3 and SAC share: the tensor batch their `learn` takes, its conversion from the
 * replay buffer's typed arrays (the Agent's job; here for loops and tests), its shape check, and
 * the soft (Polyak) target update
 *     θ' ← τ·θ + (1 − τ)·θ';
 * and the plumbing around DDPG's and TD3's update rules (optimizers, acting, learning rates).
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm } from '../core/algorithm';
import type { ActorSpec, CriticSpec, DeterministicActor, QCritic } from '../core/continuousMlp';
import type { Model, ModelOutput } from '../core/model';
import { FusedAdam } from '../core/fusedAdam';
import type { ContinuousTransitionBatch } from './replayBuffer';

/** A batch of transitions as tensors. `learn` reads it and never disposes it: the caller does. */
export interface ContinuousBatch {
  /** [B, obsDim] s. */
  obs: tf.Tensor2D;
  /** [B, actionDim] a (env units, inside the bounds). */
  actions: tf.Tensor2D;
  /** [B] r. */
  rewards: tf.Tensor1D;
  /** [B, obsDim] s'. */
  nextObs: tf.Tensor2D;
  /** [B] float 1 where s' is terminal (terminated, not truncated), else 0. */
  dones: tf.Tensor1D;
}

/** Typed arrays → a tensor batch (fresh tensors; the caller disposes them with `tf.dispose(Object.values(b))`). */
export function toContinuousBatch(b: ContinuousTransitionBatch, obsDim: number, actionDim: number): ContinuousBatch {
  const B = b.batchSize;
  if (b.obs.length !== B * obsDim || b.nextObs.length !== B * obsDim) throw new Error(`toContinuousBatch: obs / nextObs must hold ${B}·${obsDim} values`);
  if (b.actions.length !== B * actionDim) throw new Error(`toContinuousBatch: actions must hold ${B}·${actionDim} values, got ${b.actions.length}`);
  if (b.rewards.length !== B || b.dones.length !== B) throw new Error(`toContinuousBatch: rewards / dones must hold ${B} values`);
  return {
    obs: tf.tensor2d(b.obs.slice(), [B, obsDim]),
    actions: tf.tensor2d(b.actions.slice(), [B, actionDim]),
    rewards: tf.tensor1d(b.rewards.slice()),
    nextObs: tf.tensor2d(b.nextObs.slice(), [B, obsDim]),
    dones: tf.tensor1d(Float32Array.from(b.dones)),
  };
}

/** A [B, k] tensor of standard-normal draws from the caller's seeded Rng (see normalNoise). */
export function noiseTensor(noise: Float32Array, rows: number, cols: number): tf.Tensor2D {
  if (noise.length !== rows * cols) throw new Error(`noiseTensor: ${noise.length} draws for [${rows}, ${cols}]`);
  return tf.tensor2d(noise.slice(), [rows, cols]);
}

/** Check the shapes of a batch against the model sizes; returns B. */
export function checkBatch(b: ContinuousBatch, obsDim: number, actionDim: number, who: string): number {
  const B = b.obs.shape[0];
  const want: [string, tf.Tensor, number[]][] = [
    ['obs', b.obs, [B, obsDim]],
    ['actions', b.actions, [B, actionDim]],
    ['rewards', b.rewards, [B]],
    ['nextObs', b.nextObs, [B, obsDim]],
    ['dones', b.dones, [B]],
  ];
  for (const [name, t, shape] of want) {
    if (!t || !tf.util.arraysEqual(t.shape, shape)) {
      throw new Error(`${who}: batch.${name} must have shape [${shape.join(', ')}], got ${t ? `[${t.shape.join(', ')}]` : 'nothing'}`);
    }
  }
  return B;
}

/** Check one extra [B, actionDim] noise tensor of a batch. */
export function checkNoise(t: tf.Tensor | undefined, B: number, actionDim: number, name: string, who: string): void {
  if (!t || !tf.util.arraysEqual(t.shape, [B, actionDim])) {
    throw new Error(`${who}: batch.${name} must be a [${B}, ${actionDim}] tensor of standard-normal draws, got ${t ? `[${t.shape.join(', ')}]` : 'nothing'}`);
  }
}

/** Receives mean Q_θ1(s, a) and mean Q_θ2(s, a) as a critic loss computes them (for the metrics). */
export type MeanQSink = (q1Mean: tf.Scalar, q2Mean: tf.Scalar) => void;

/** (Q_1(s, a), Q_2(s, a)) [B] each from ONE concatenation [s, a]; call inside tf.tidy or a gradient closure. */
export function twinQ(c1: QCritic, c2: QCritic, obs: tf.Tensor2D, action: tf.Tensor2D): [tf.Tensor1D, tf.Tensor1D] {
  const x = tf.concat([obs, action], 1) as tf.Tensor2D;
  return [c1.forward(x).q, c2.forward(x).q];
}

/**
 * The twin critics' loss L_Q = mean[(Q_θ1(s, a) − y)²] + mean[(Q_θ2(s, a) − y)²] (TD3, SAC);
 * `meanQ` gets mean Q_θi(s, a) from the same forward pass. Call inside a gradient closure.
 */
export function twinCriticLoss(c1: QCritic, c2: QCritic, batch: ContinuousBatch, y: tf.Tensor1D, meanQ?: MeanQSink): tf.Scalar {
  const [q1, q2] = twinQ(c1, c2, batch.obs, batch.actions);
  if (meanQ) meanQ(tf.mean(q1) as tf.Scalar, tf.mean(q2) as tf.Scalar);
  return tf.add(tf.mean(tf.square(tf.sub(q1, y))), tf.mean(tf.square(tf.sub(q2, y))));
}

/** θ' ← τ·θ + (1 − τ)·θ' for each (online, target) pair. */
export function softUpdate(pairs: [Model<ModelOutput>, Model<ModelOutput>][], tau: number): void {
  for (const [online, target] of pairs) online.syncWeightsTo(target, 1 - tau);
}

/** Each (online, target) pair must be two separate models; the target starts as a copy. */
export function initTargets(pairs: [Model<ModelOutput>, Model<ModelOutput>][], who: string): void {
  for (const [online, target] of pairs) {
    if (online === target) throw new Error(`${who}: a target network must be a separate model`);
    online.syncWeightsTo(target, 0);
  }
}

/** Throw unless low ≤ v ≤ high (a config field). */
export function checkRate(v: number, name: string, who: string, low = 0, high = Infinity): void {
  if (!(Number.isFinite(v) && v >= low && v <= high)) throw new Error(`${who}.${name} must be in [${low}, ${high}], got ${v}`);
}

/**
 * Change an optimizer's step size between updates. tfjs keeps `learningRate` protected but reads
 * it on every step; Reflect.set reaches it without a type cast.
 */
export function setOptimizerLr(opt: tf.Optimizer, lr: number): void {
  if (!(lr > 0)) throw new Error(`learning rate must be positive, got ${lr}`);
  Reflect.set(opt, 'learningRate', lr);
}

/**
 * Adam(lr, β1 0.9, β2 0.999, ε 1e-8), the optimizer of every off-policy learner here: tfjs's
 * tf.train.adam arithmetic run once over all of a network's variables as one flat vector
 * (FusedAdam, bit-identical to it) instead of ~14 small kernels per variable.
 */
export function adam(lr: number): FusedAdam {
  return new FusedAdam(lr, 0.9, 0.999, 1e-8);
}

/** The critic of an actor network's sizes: the same hidden layers and activation. */
export function criticSpecOf(net: ActorSpec): CriticSpec {
  return { obsDim: net.obsDim, actionDim: net.actionDim, hidden: net.hidden, activation: net.activation };
}

/** Config fields of every deterministic-policy actor-critic (DDPG, TD3). */
export interface DeterministicActorCriticConfig {
  actorLr: number;
  criticLr: number;
  explorationNoise: number;
}

/**
 * The plumbing DDPG and TD3 share around their update rules (each subclass's `learn`): an Adam
 * optimizer for the critic(s) (`optimizer`) and one for the actor, acting with μ_φ, and both
 * learning rates. The subclass checks its config and initialises its targets before `super`.
 */
export abstract class DeterministicActorCritic<B extends ContinuousBatch, C extends DeterministicActorCriticConfig> extends Algorithm<B, DeterministicActor> {
  protected override optimizer: tf.Optimizer;
  protected readonly actorOptimizer: tf.Optimizer;

  constructor(
    actor: DeterministicActor,
    readonly config: C,
  ) {
    super(actor);
    this.optimizer = adam(config.criticLr);
    this.actorOptimizer = adam(config.actorLr);
  }

  /** μ_φ(s) [B, A]: the greedy action. Caller disposes. */
  predict(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(obs).action);
  }

  /** Also μ_φ(s): the exploration noise is added by the caller (see `explore`), drawn with its seeded Rng. */
  sample(obs: tf.Tensor2D): tf.Tensor2D {
    return this.predict(obs);
  }

  /** clip(μ_φ(s) + σ·scale·ε, low, high) for standard-normal ε [B, A]. Caller disposes. */
  explore(obs: tf.Tensor2D, eps: tf.Tensor2D, sigma: number = this.config.explorationNoise): tf.Tensor2D {
    return tf.tidy(() => this.model.clipToBounds(tf.add(this.model.forward(obs).action, tf.mul(this.model.scaleT, tf.mul(sigma, eps)))));
  }

  /** Sets both learning rates to `lr`. */
  override setLearningRate(lr: number): void {
    setOptimizerLr(this.optimizer, lr);
    setOptimizerLr(this.actorOptimizer, lr);
  }

  override dispose(): void {
    this.actorOptimizer.dispose();
    super.dispose();
  }
}
