/**
 * Algorithm: the update rule (PaddlePaddle PARL's `parl.Algorithm`).
 *
 * An Algorithm holds its model(s) (e.g. a policy and a target network), the optimizer and the
 * loss. `predict` / `sample` take tensors; `learn` takes the algorithm's own typed batch (flat
 * typed arrays in the layout its update needs), because how a batch is staged into tensors
 * (whole, per minibatch, gathered) is part of the update rule. The Agent builds those batches
 * from what the actors send, converts observations to tensors and reads results back.
 *
 * Memory contract: every method disposes every tensor it creates (tf.tidy), except
 *   - the tensor `predict` / `sample` return, which the CALLER owns and must dispose, and
 *   - the optimizer's own state (Adam moments), created on the first `learn` and kept.
 * So after the first `learn`, `tf.memory().numTensors` is unchanged by any number of calls.
 */
import * as tf from '@tensorflow/tfjs';
import type { Model, ModelOutput } from './model';

/**
 * One update as a sequence of steps (a PPO update's minibatches): the generator yields before each
 * step and returns the update's metrics. Whoever drives it may let the event loop turn at each
 * yield, or close it there (`return({})`, which frees what the update held) and keep the weights
 * it started from. The steps, and so the numbers, are the same however it is driven.
 */
export type UpdateSteps = Generator<void, Record<string, number>, void>;

/** Run an update's steps to the end, at once. */
export function runToEnd(steps: UpdateSteps): Record<string, number> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export abstract class Algorithm<Batch = unknown, M extends Model<ModelOutput> = Model<ModelOutput>> {
  protected optimizer: tf.Optimizer | null = null;

  constructor(readonly model: M) {}

  /** One update from a batch of experience; returns the metrics as plain numbers. */
  abstract learn(batch: Batch): Record<string, number>;

  /** `learn` as steps (see UpdateSteps); an update rule made of many gradient steps yields between them. Default: one step. */
  *learnSteps(batch: Batch): UpdateSteps {
    yield;
    return this.learn(batch);
  }

  /** Greedy scores, [batch, numActions] (logits or Q-values); argmax gives the greedy action. Caller disposes. */
  abstract predict(obs: tf.Tensor2D): tf.Tensor;

  /** What sampling needs, [batch, numActions] action probabilities for discrete policies. Caller disposes. */
  abstract sample(obs: tf.Tensor2D): tf.Tensor;

  /**
   * Change the optimizer's step size between updates (learning-rate annealing). tfjs optimizers
   * read their `learningRate` field on every step.
   */
  setLearningRate(lr: number): void {
    // tfjs keeps `learningRate` protected but reads it on every step.
    if (this.optimizer) Reflect.set(this.optimizer, 'learningRate', lr);
  }

  /**
   * How far the run is, in [0, 1], before each update; an algorithm with a schedule (PPO's
   * learning-rate annealing) applies it here. Default: no schedule.
   */
  setProgress(fraction: number): void {
    void fraction;
  }

  /**
   * Move the target network(s) toward the online ones (τ = 1: copy), as PaddlePaddle PARL's
   * `sync_target`. Only algorithms with target networks have one.
   */
  syncTarget(tau?: number): void {
    throw new Error(`${this.constructor.name} has no target network to sync (tau ${tau})`);
  }

  /** Every model this algorithm holds, the main one first (a DQN adds its target network). */
  models(): Model<ModelOutput>[] {
    return [this.model];
  }

  /** Free the optimizer state and every model the algorithm holds. */
  dispose(): void {
    this.optimizer?.dispose();
    this.optimizer = null;
    for (const m of this.models()) m.dispose();
  }
}

/**
 * An Algorithm whose model has a discrete policy head (`logits`): greedy scores are the logits
 * and sampling uses their softmax. REINFORCE, A2C, PPO and IMPALA share this; only `learn` differs.
 */
export abstract class PolicyAlgorithm<Batch, M extends Model<{ logits: tf.Tensor2D } & ModelOutput>> extends Algorithm<Batch, M> {
  /** Logits [B, A]: argmax is the greedy action. */
  predict(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(obs).logits);
  }

  /** Probabilities π(·|s) [B, A]. */
  sample(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => tf.softmax(this.model.forward(obs).logits));
  }
}
