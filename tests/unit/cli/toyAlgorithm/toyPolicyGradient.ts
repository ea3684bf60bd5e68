/**
 * A toy update rule, written the way "Adding an algorithm" says: one module, equations in comments,
 * a class extending Algorithm, and `create` plus `kind` for its descriptor's `load`. Tests only.
 *
 * Vanilla policy gradient on CartPole-style episodes, one SGD step per batch:
 *   G_t = Σ_{k ≥ t, same episode} r_k            (undiscounted reward-to-go)
 *   Ĝ_t = (G_t − mean G) / (std G + 1e-8)
 *   L   = −mean_t[ log π(a_t|s_t) · Ĝ_t ]
 */
import * as tf from '@tensorflow/tfjs';
import { PolicyAlgorithm } from '../../../../src/core/algorithm';
import type { PolicyMlp } from '../../../../src/core/mlp';
import type { ReinforceBatch } from '../../../../src/algorithms/reinforce';

/** The settings its descriptor exposes, by field name. */
export interface ToyParams {
  lr: number;
}

/** Undiscounted reward-to-go, restarting at each episode end, normalised over the batch. */
export function normalisedRewardToGo(rewards: Float32Array, dones: Uint8Array): Float32Array {
  const g = new Float32Array(rewards.length);
  let running = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    if (dones[t]) running = 0;
    running += rewards[t];
    g[t] = running;
  }
  const mean = g.reduce((a, b) => a + b, 0) / g.length;
  const std = Math.sqrt(g.reduce((a, b) => a + (b - mean) ** 2, 0) / g.length);
  return g.map((x) => (x - mean) / (std + 1e-8));
}

export class ToyPolicyGradient extends PolicyAlgorithm<ReinforceBatch, PolicyMlp> {
  protected override optimizer: tf.Optimizer;

  constructor(model: PolicyMlp, params: ToyParams) {
    super(model);
    this.optimizer = tf.train.sgd(params.lr);
  }

  learn(batch: ReinforceBatch): Record<string, number> {
    if (!batch.rewards || !batch.dones) throw new Error('ToyPolicyGradient.learn: the batch needs rewards and dones');
    const adv = normalisedRewardToGo(batch.rewards, batch.dones);
    const loss = tf.tidy(() => {
      const obs = tf.tensor2d(batch.obs, [batch.batchSize, batch.obs.length / batch.batchSize]);
      const actions = tf.tensor1d(batch.actions, 'int32');
      const { value, grads } = tf.variableGrads(() => {
        const logp = tf.logSoftmax(this.model.forward(obs).logits);
        const logpA = tf.sum(tf.mul(logp, tf.oneHot(actions, logp.shape[1])), 1);
        return tf.neg(tf.mean(tf.mul(logpA, tf.tensor1d(adv)))) as tf.Scalar;
      }, this.model.variables());
      this.optimizer.applyGradients(grads);
      return value;
    });
    const [value] = loss.dataSync();
    loss.dispose();
    return { loss: value };
  }
}

/** A network update rule: the engine builds the policy network from the model settings. */
export const kind = 'network';

export function create(model: PolicyMlp, params: ToyParams): ToyPolicyGradient {
  return new ToyPolicyGradient(model, params);
}
