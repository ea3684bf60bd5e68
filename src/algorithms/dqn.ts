/**
 * DQN (Mnih et al. 2015, "Human-level control through deep reinforcement learning"), following
 * CleanRL's dqn.py, with the Huber loss and gradient clipping of Stable-Baselines3 and optional
 * double DQN (van Hasselt et al. 2016).
 *
 * Models: the online network Q_θ and a target network Q_θ⁻ of the same architecture, both
 * `{ q: [B, A] }` (QMlp). The Algorithm holds both (models() = [online, target]).
 *
 * 1. Targets, from the target network (no gradient):
 *        y = r + γ · (1 − d) · max_a' Q_θ⁻(s', a')                      (DQN)
 *        y = r + γ · (1 − d) · Q_θ⁻(s', argmax_a' Q_θ(s', a'))          (double DQN)
 *    d = 1 only when s' is terminal (a time-limit truncation keeps the bootstrap).
 * 2. Loss on the TD error δ = Q_θ(s, a) − y, averaged over the batch:
 *        Huber_κ(δ) = 0.5·δ²            if |δ| ≤ κ
 *                   = κ·(|δ| − 0.5·κ)   otherwise            (κ = huberDelta, SB3's smooth_l1_loss)
 *    With huberDelta = null the loss is CleanRL's F.mse_loss, mean(δ²).
 *    Then global-norm clipping of ∇L and an Adam step.
 * 3. The target network changes ONLY in syncTarget():
 *        θ⁻ ← τ·θ + (1 − τ)·θ⁻        (τ = 1: hard copy, every `targetNetworkFrequency` steps)
 *
 * Exploration is ε-greedy with ε from `linearEpsilon` (CleanRL's linear_schedule); `sample()`
 * returns the ε-greedy action probabilities ε/A + (1 − ε)·[a = argmax Q].
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm, runToEnd, type UpdateSteps } from '../core/algorithm';
import { QMlp } from '../core/mlp';
import type { Model, ModelOutput } from '../core/model';
import { FusedAdam } from '../core/fusedAdam';
import { ScalarCache } from '../core/tensorUtils';
import type { TransitionBatch } from './replayBuffer';
import { rescaledLearningRate, setLiveNumber } from './liveChange';

export type QModel = Model<{ q: tf.Tensor2D }>;

export interface DqnConfig {
  /** Adam learning rate. */
  lr: number;
  /** Adam ε. */
  eps: number;
  /** Discount γ. */
  gamma: number;
  /** Soft-update rate τ of syncTarget (1 = hard copy). */
  tau: number;
  /** Huber κ; null = mean squared error. */
  huberDelta: number | null;
  /** Double DQN targets. */
  doubleDqn: boolean;
  /** Clip ∇L's global L2 norm to this; null = no clipping. */
  maxGradNorm: number | null;
  // The rest is for the training loop (CleanRL keeps them in the same Args).
  /** Replay capacity. */
  bufferSize: number;
  /** Transitions sampled per learn(). */
  batchSize: number;
  /** Environment steps before learning starts. */
  learningStarts: number;
  /** Environment steps between learn() calls. */
  trainFrequency: number;
  /** Environment steps between syncTarget() calls. */
  targetNetworkFrequency: number;
  /** ε at step 0. */
  startE: number;
  /** Final ε. */
  endE: number;
  /** Fraction of the total steps over which ε decays linearly from startE to endE. */
  explorationFraction: number;
}

/**
 * Defaults: CleanRL dqn.py (learning_rate 2.5e-4, buffer_size 10000, gamma 0.99, tau 1.0,
 * target_network_frequency 500, batch_size 128, start_e 1, end_e 0.05, exploration_fraction 0.5,
 * learning_starts 10000, train_frequency 10); Huber loss (κ = 1) and max_grad_norm 10 from
 * Stable-Baselines3's DQN (CleanRL uses MSE and no clipping); Adam ε 1e-8 (torch default);
 * double DQN off (the 2015 paper).
 * The settings the playground exposes (DqnParams) take their one default from the descriptor,
 * src/config/algorithms/dqn.ts, and arrive through `create`; the rest are fixed here.
 */
export const DQN_FIXED: Readonly<Omit<DqnConfig, keyof DqnParams>> = Object.freeze({
  eps: 1e-8,
  tau: 1.0,
  huberDelta: 1.0,
  maxGradNorm: 10,
});

/**
 * ε for environment step `step`: linear from `start` to `end` over the first fraction·totalSteps
 * steps, then `end` (CleanRL's linear_schedule):
 *     ε(t) = max(end, start + (end − start) · t / (fraction · totalSteps))     (for start ≥ end)
 */
export function linearEpsilon(step: number, start: number, end: number, fraction: number, totalSteps: number): number {
  const duration = fraction * totalSteps;
  if (!(duration > 0) || step >= duration) return end;
  const e = start + ((end - start) * step) / duration;
  return start >= end ? Math.max(end, e) : Math.min(end, e);
}

/** A batch of transitions (see TransitionBatch: obs/nextObs [B·obsDim], actions/rewards/dones [B]). */
export type DqnBatch = TransitionBatch;

/**
 * Several gradient steps in one learn(): one per batch, in order. The metrics are the means over the
 * steps (summed in float64 in step order, then divided by their number), read back from the device
 * once for all steps instead of once per step.
 */
export interface DqnSteps {
  steps: readonly DqnBatch[];
}

/** The metrics each gradient step leaves on the device, in the order they are read back. */
const STEP_METRICS = ['loss', 'qMean', 'gradNorm'] as const;

export class Dqn extends Algorithm<DqnBatch | DqnSteps, QModel> {
  readonly config: DqnConfig;
  protected override optimizer: FusedAdam;
  /** ε used by sample(); set it from linearEpsilon as training goes. */
  epsilon: number;
  /** The update's float32 constants, kept between steps (uploaded once). */
  private readonly constants = new ScalarCache();

  /**
   * @param model  the online network Q_θ
   * @param target a network of the same architecture; it is overwritten with θ (θ⁻ ← θ) here
   */
  constructor(
    model: QModel,
    readonly target: QModel,
    config: DqnParams & Partial<DqnConfig>,
  ) {
    super(model);
    if (target === model) throw new Error('Dqn: the target network must be a separate model');
    this.config = { ...DQN_FIXED, ...config };
    this.optimizer = new FusedAdam(this.config.lr, 0.9, 0.999, this.config.eps); // = makeOptimizer('adam', …), fused
    this.epsilon = this.config.startE;
    model.syncWeightsTo(target, 0);
  }

  override models(): Model<ModelOutput>[] {
    return [this.model, this.target];
  }

  /** θ⁻ ← τ·θ + (1 − τ)·θ⁻ (τ = 1: hard copy). */
  override syncTarget(tau: number = this.config.tau): void {
    this.model.syncWeightsTo(this.target, 1 - tau);
  }

  /** Q-values [B, A]: argmax is the greedy action. */
  predict(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(obs).q);
  }

  /** ε-greedy probabilities [B, A]: ε/A everywhere plus (1 − ε) on argmax_a Q(s, a). */
  sample(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => {
      const q = this.model.forward(obs).q;
      const A = q.shape[1];
      const greedy = tf.oneHot(tf.argMax(q, 1), A);
      return tf.add(tf.mul(greedy, 1 - this.epsilon), this.epsilon / A) as tf.Tensor2D;
    });
  }

  /** y = r + γ(1 − d)·Q⁻(s', a*) (step 1); call inside tf.tidy. */
  tdTargets(rewards: tf.Tensor1D, nextObs: tf.Tensor2D, dones: tf.Tensor1D): tf.Tensor1D {
    const c = (x: number) => this.constants.get(x); // tf.mul(c(γ), x) ≡ tf.mul(γ, x), without the upload
    const qNextTarget = this.target.forward(nextObs).q;
    let qNext: tf.Tensor1D;
    if (this.config.doubleDqn) {
      const aStar = tf.argMax(this.model.forward(nextObs).q, 1); // argmax_a' Q_θ(s', a')
      qNext = tf.sum(tf.mul(qNextTarget, tf.oneHot(aStar, qNextTarget.shape[1])), 1) as tf.Tensor1D;
    } else {
      qNext = tf.max(qNextTarget, 1) as tf.Tensor1D; // max_a' Q_θ⁻(s', a')
    }
    return tf.add(rewards, tf.mul(tf.mul(c(this.config.gamma), tf.sub(c(1), dones)), qNext)) as tf.Tensor1D;
  }

  /** Loss on the TD error for given targets y (step 2); call inside tf.tidy. */
  lossTerms(obs: tf.Tensor2D, actions: tf.Tensor1D, y: tf.Tensor1D): { loss: tf.Scalar; qMean: tf.Scalar } {
    const c = (x: number) => this.constants.get(x);
    const q = this.model.forward(obs).q;
    const qa = tf.sum(tf.mul(q, tf.oneHot(actions, q.shape[1])), 1); // Q_θ(s, a)
    const td = tf.sub(qa, y); // δ
    const k = this.config.huberDelta;
    let perSample: tf.Tensor;
    if (k === null) {
      perSample = tf.square(td); // F.mse_loss
    } else {
      // The same function, written without a branch (tfjs has no gradient for comparisons):
      // with m = min(|δ|, κ), Huber_κ(δ) = 0.5·m² + κ·(|δ| − m).
      const abs = tf.abs(td);
      const m = tf.minimum(abs, c(k));
      perSample = tf.add(tf.mul(c(0.5), tf.square(m)), tf.mul(c(k), tf.sub(abs, m)));
    }
    return { loss: tf.mean(perSample) as tf.Scalar, qMean: tf.mean(qa) as tf.Scalar };
  }

  /** One gradient step on a batch, or one per batch of `{ steps }` (metrics: the means over the steps). */
  learn(batch: DqnBatch | DqnSteps): Record<string, number> {
    return runToEnd(this.learnSteps(batch));
  }

  /** The update, one gradient step a step: it yields before each (see UpdateSteps). */
  override *learnSteps(batch: DqnBatch | DqnSteps): UpdateSteps {
    const steps = 'steps' in batch ? batch.steps : [batch];
    if (steps.length === 0) throw new Error('Dqn.learn: no batches to learn from');
    steps.forEach((b) => this.checkBatch(b));
    const kept: tf.Scalar[] = [];
    try {
      for (const b of steps) {
        yield;
        const m = this.gradientStep(b);
        kept.push(...STEP_METRICS.map((k) => m[k]));
      }
      // One readback for every step's metrics.
      const stacked = tf.tidy(() => tf.stack(kept));
      const values = stacked.dataSync();
      stacked.dispose();
      const sums: Record<string, number> = {};
      for (let i = 0; i < steps.length; i++) {
        STEP_METRICS.forEach((k, j) => (sums[k] = (sums[k] ?? 0) + values[i * STEP_METRICS.length + j]));
        sums.epsilon = (sums.epsilon ?? 0) + this.epsilon;
      }
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(sums)) out[k] = v / steps.length;
      return out;
    } finally {
      for (const t of kept) t.dispose();
    }
  }

  private checkBatch(batch: DqnBatch): void {
    const B = batch.batchSize;
    if (!Number.isInteger(B) || B < 1) throw new Error(`Dqn.learn: batchSize must be a positive integer, got ${B}`);
    if (batch.obs.length % B !== 0 || batch.obs.length === 0) throw new Error(`Dqn.learn: obs length ${batch.obs.length} is not a multiple of batchSize ${B}`);
    const obsDim = batch.obs.length / B;
    if (batch.nextObs.length !== B * obsDim) throw new Error(`Dqn.learn: nextObs has ${batch.nextObs.length} values, expected ${B * obsDim}`);
    for (const [name, arr] of [
      ['actions', batch.actions],
      ['rewards', batch.rewards],
      ['dones', batch.dones],
    ] as const) {
      if (arr.length !== B) throw new Error(`Dqn.learn: ${arr.length} ${name} for batchSize ${B}`);
    }
  }

  /** Steps 1 and 2 and the Adam step on one batch; its metrics stay on the device (the caller disposes them). */
  private gradientStep(batch: DqnBatch): Record<(typeof STEP_METRICS)[number], tf.Scalar> {
    const B = batch.batchSize;
    const obsDim = batch.obs.length / B;
    const vars = this.model.variables(); // the online network only: θ⁻ gets no gradient
    if (this.constants.size > 64) this.constants.dispose(); // live changes add values: start afresh between steps

    return tf.tidy(() => {
      const obs = tf.tensor2d(batch.obs.slice(), [B, obsDim]);
      const nextObs = tf.tensor2d(batch.nextObs.slice(), [B, obsDim]);
      const actions = tf.tensor1d(batch.actions.slice(), 'int32');
      const rewards = tf.tensor1d(batch.rewards.slice());
      const dones = tf.tensor1d(Float32Array.from(batch.dones));
      const y = this.tdTargets(rewards, nextObs, dones); // outside variableGrads: a constant
      const side: { qMean?: tf.Scalar } = {};
      const { value: loss, grads } = tf.variableGrads(() => {
        const t = this.lossTerms(obs, actions, y);
        side.qMean = tf.keep(t.qMean);
        return t.loss;
      }, vars);
      // Global-norm clipping (clipByGlobalNorm's arithmetic) and the Adam step, on typed arrays where it can.
      const norm = this.optimizer.clipAndApply(grads, this.config.maxGradNorm);
      return { loss, qMean: side.qMean as tf.Scalar, gradNorm: norm };
    });
  }

  override dispose(): void {
    this.constants.dispose();
    super.dispose();
  }

  /**
   * A live change between updates (src/engine/liveChanges.ts): lr. A new learning rate keeps
   * the schedule the optimizer is on (lr_k = lr · s_k). False for a name this rule does not change live.
   */
  applyChange(name: string, value: number | string | boolean): boolean {
    const oldLr = this.config.lr;
    if (!setLiveNumber(this.config, ['lr'], name, value)) return false;
    if (name === 'lr') this.setLearningRate(rescaledLearningRate(this.optimizer, oldLr, this.config.lr));
    return true;
  }
}

/** The settings the playground exposes (src/config/algorithms/dqn.ts), by field name. */
export type DqnParams = Pick<DqnConfig, 'lr' | 'gamma' | 'bufferSize' | 'batchSize' | 'learningStarts' | 'trainFrequency' | 'targetNetworkFrequency' | 'startE' | 'endE' | 'explorationFraction' | 'doubleDqn'>;

/** What kind of update rule `load` brings: one that trains the network the engine builds from the model settings. */
export const kind = 'network';

/**
 * How the engine builds DQN from its settings (see src/config/algorithms/dqn.ts): the target
 * network starts as an exact copy of the online one (same spec, same seed).
 */
export const create: (model: QMlp, params: DqnParams, seed: number) => Dqn = (model, params, seed) => new Dqn(model, new QMlp(model.spec, seed), params);
