/**
 * Behaviour cloning, the offline baseline: fit a deterministic policy μ_φ(s) (DeterministicActor,
 * inside the action bounds) to the dataset's actions by regression,
 *     L_BC = mean_{(s, a) ∈ D} ‖μ_φ(s) − a‖²,
 * one Adam step per learn(batch). It imitates the average behaviour in D, good and bad alike,
 * which is what CQL is measured against.
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm } from '../core/algorithm';
import { DeterministicActor, type ActorSpec } from '../core/continuousMlp';
import { readScalars } from '../core/tensorUtils';
import { makeOptimizer } from './common';
import { checkBatch, setOptimizerLr, type ContinuousBatch } from './offPolicy';

export interface BcConfig {
  /** Adam learning rate. */
  lr: number;
}

export class BehaviourCloning extends Algorithm<ContinuousBatch, DeterministicActor> {
  protected override optimizer: tf.Optimizer;

  constructor(actor: DeterministicActor, readonly config: BcConfig) {
    super(actor);
    if (!(config.lr > 0)) throw new Error(`BcConfig.lr must be positive, got ${config.lr}`);
    this.optimizer = makeOptimizer('adam', config.lr, 1e-8);
  }

  /** μ(s) [B, A] in env units. Caller disposes. */
  predict(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(obs).action);
  }

  sample(obs: tf.Tensor2D): tf.Tensor2D {
    return this.predict(obs);
  }

  /** L_BC on a batch (call inside tf.tidy). */
  loss(batch: ContinuousBatch): tf.Scalar {
    return tf.mean(tf.sum(tf.square(tf.sub(this.model.forward(batch.obs).action, batch.actions)), 1)) as tf.Scalar;
  }

  learn(batch: ContinuousBatch): Record<string, number> {
    checkBatch(batch, this.model.spec.obsDim, this.model.spec.actionDim, 'BehaviourCloning.learn');
    const scalars = tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => this.loss(batch), this.model.variables());
      this.optimizer.applyGradients(grads);
      return { actorLoss: value };
    });
    return readScalars(scalars);
  }

  override setLearningRate(lr: number): void {
    setOptimizerLr(this.optimizer, lr);
  }
}

/** The settings the playground exposes (src/config/algorithms/bc.ts), by field name. */
export type BcParams = BcConfig;

/** What kind of update rule `load` brings: a Box-action one that builds its own networks from the env's sizes and bounds. */
export const kind = 'continuous';

/** Evaluation acts with μ(s). */
export const policy = 'deterministic' as const;

export function create(net: ActorSpec, params: BcParams, seed: number): BehaviourCloning {
  return new BehaviourCloning(new DeterministicActor(net, seed), params);
}
