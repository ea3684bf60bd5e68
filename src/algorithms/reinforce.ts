/**
 * REINFORCE (Williams, 1992), as in PaddlePaddle PARL's QuickStart `PolicyGradient`.
 *
 * Policy π_θ(a|s) = softmax(logits_θ(s))_a, from a model whose forward gives `{ logits }`.
 *
 * 1. Returns, per episode (restarting at every episode end, dones[t] = 1):
 *        G_t = r_t + γ·G_{t+1}   (G after the last step of an episode = 0)
 *            = Σ_k γ^k r_{t+k}   (k running to the end of t's episode)
 *    A batch that stops in the middle of an episode treats its end as the episode's end
 *    (REINFORCE needs whole episodes; collect them that way).
 *
 * 2. Normalisation over the WHOLE batch (all episodes together), as PARL's QuickStart:
 *        Ĝ_t = (G_t − mean(G)) / (std(G) + 1e-8),   std = population std (divide by N).
 *    It is done in float64 in JS, so it is identical on every backend. Off with
 *    `normalizeReturns: false` (then Ĝ_t = G_t).
 *
 * 3. Loss, minimised by Adam:
 *        L(θ) = −mean_t[ log π_θ(a_t|s_t) · Ĝ_t ]  −  entCoef · mean_t[ H(π_θ(·|s_t)) ]
 *        H(π) = −Σ_a π(a) log π(a)
 *    ∇L = −mean_t[ Ĝ_t ∇ log π(a_t|s_t) ] − ...: raising the log-probability of an action with
 *    positive Ĝ lowers the loss. Optional global-norm clipping of ∇L (`maxGradNorm`).
 *
 * Backends: with the same seed, cpu and wasm give the same returns bit for bit (JS), and losses
 * / weights equal to float32 rounding (not bit for bit: the matmul kernels sum in different orders).
 */
import * as tf from '@tensorflow/tfjs';
import { PolicyAlgorithm } from '../core/algorithm';
import type { Model } from '../core/model';
import { clipByGlobalNorm, readScalars, rowWidth } from '../core/tensorUtils';
import { rescaledLearningRate, setLiveNumber } from './liveChange';

export interface ReinforceConfig {
  /** Adam learning rate. */
  lr: number;
  /** Discount γ, used when the batch carries rewards + dones. */
  gamma: number;
  /** Weight of the entropy bonus (0 = plain REINFORCE). */
  entCoef: number;
  /** Normalise returns to zero mean / unit std over the batch. */
  normalizeReturns: boolean;
  /** Clip the gradient's global L2 norm to this; null = no clipping. */
  maxGradNorm: number | null;
}

/**
 * The settings the playground exposes (ReinforceParams) take their one default from the descriptor,
 * src/config/algorithms/reinforce.ts, and arrive through `create`; the rest are fixed here.
 */
export const REINFORCE_FIXED: Readonly<Omit<ReinforceConfig, keyof ReinforceParams>> = Object.freeze({
  normalizeReturns: true,
  maxGradNorm: null,
});

/**
 * A batch of whole episodes, flat and row-major. Give either `returns` (G_t already computed)
 * or `rewards` + `dones` (then G_t is computed here with `gamma`).
 */
export interface ReinforceBatch {
  obs: Float32Array; // [batchSize * obsDim]
  actions: Int32Array; // [batchSize]
  batchSize: number;
  returns?: Float32Array; // [batchSize]
  rewards?: Float32Array; // [batchSize]
  dones?: Uint8Array; // [batchSize], 1 at the last step of an episode
}

export type PolicyModel = Model<{ logits: tf.Tensor2D }>;

/**
 * Discounted returns G_t = r_t + γ·G_{t+1}, restarting after every t with dones[t] = 1.
 * Example: rewards [1, 1, 1], dones [0, 0, 1], γ = 0.9 → [2.71, 1.9, 1].
 * Computed in float64, rounded to float32 at the end.
 */
export function discountedReturns(rewards: Float32Array, dones: Uint8Array, gamma: number): Float32Array {
  if (rewards.length !== dones.length) throw new Error(`discountedReturns: ${rewards.length} rewards but ${dones.length} dones`);
  const out = new Float32Array(rewards.length);
  let g = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    if (dones[t]) g = 0; // t is the last step of its episode: nothing after it counts
    g = rewards[t] + gamma * g;
    out[t] = g;
  }
  return out;
}

/** (x − mean) / (std + eps), population std, in float64. */
export function normalize(x: Float32Array, eps = 1e-8): { out: Float32Array; mean: number; std: number } {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (x[i] - mean) * (x[i] - mean);
  const std = Math.sqrt(v / n);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (x[i] - mean) / (std + eps);
  return { out, mean, std };
}

export class Reinforce extends PolicyAlgorithm<ReinforceBatch, PolicyModel> {
  readonly config: ReinforceConfig;
  protected override optimizer: tf.Optimizer;

  constructor(model: PolicyModel, config: ReinforceParams & Partial<ReinforceConfig>) {
    super(model);
    this.config = { ...REINFORCE_FIXED, ...config };
    this.optimizer = tf.train.adam(this.config.lr);
  }

  /** The loss terms for a batch (no update); inside tf.tidy. Exposed for tests and teaching. */
  lossTerms(obs: tf.Tensor2D, actions: tf.Tensor1D, adv: tf.Tensor1D): { loss: tf.Scalar; pgLoss: tf.Scalar; entropy: tf.Scalar } {
    const logits = this.model.forward(obs).logits;
    const numActions = logits.shape[1];
    const logp = tf.logSoftmax(logits); // log π(·|s_t)
    const logpA = tf.sum(tf.mul(logp, tf.oneHot(actions, numActions)), 1); // log π(a_t|s_t)
    const pgLoss = tf.neg(tf.mean(tf.mul(logpA, adv))) as tf.Scalar; // −mean[log π(a|s)·Ĝ]
    const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1))) as tf.Scalar; // mean H(π)
    const loss = tf.sub(pgLoss, tf.mul(this.config.entCoef, entropy)) as tf.Scalar;
    return { loss, pgLoss, entropy };
  }

  /** Normalised returns Ĝ for a batch, with their raw mean and std. */
  advantages(batch: ReinforceBatch): { adv: Float32Array; returnMean: number; returnStd: number } {
    let g: Float32Array;
    if (batch.returns) g = batch.returns;
    else if (batch.rewards && batch.dones) g = discountedReturns(batch.rewards, batch.dones, this.config.gamma);
    else throw new Error('Reinforce.learn: the batch needs `returns`, or `rewards` and `dones`');
    if (g.length !== batch.batchSize) throw new Error(`Reinforce.learn: ${g.length} returns for batchSize ${batch.batchSize}`);
    const { out, mean, std } = normalize(g);
    return { adv: this.config.normalizeReturns ? out : g, returnMean: mean, returnStd: std };
  }

  learn(batch: ReinforceBatch): Record<string, number> {
    const { batchSize } = batch;
    rowWidth(batch.obs, batchSize, 'Reinforce.learn obs');
    if (batch.actions.length !== batchSize) throw new Error(`Reinforce.learn: ${batch.actions.length} actions for batchSize ${batchSize}`);
    const { adv, returnMean, returnStd } = this.advantages(batch);
    const vars = this.model.variables();

    const metrics = tf.tidy(() => {
      const obs = tf.tensor2d(batch.obs.slice(), [batchSize, batch.obs.length / batchSize]);
      const actions = tf.tensor1d(batch.actions.slice(), 'int32');
      const advT = tf.tensor1d(adv.slice());
      // variableGrads runs the closure in its own tidy: keep() the extra metrics so they survive.
      const side: { pgLoss?: tf.Scalar; entropy?: tf.Scalar } = {};
      const { value: loss, grads } = tf.variableGrads(() => {
        const terms = this.lossTerms(obs, actions, advT);
        side.pgLoss = tf.keep(terms.pgLoss);
        side.entropy = tf.keep(terms.entropy);
        return terms.loss;
      }, vars);
      const clipped = clipByGlobalNorm(grads, this.config.maxGradNorm);
      this.optimizer.applyGradients(clipped.grads as tf.NamedTensorMap);
      // Returned tensors survive this tidy; readScalars disposes them after one readback.
      return { loss, pgLoss: side.pgLoss as tf.Scalar, entropy: side.entropy as tf.Scalar, gradNorm: clipped.norm };
    });
    return { ...readScalars(metrics), returnMean, returnStd };
  }

  /**
   * A live change between updates (src/engine/liveChanges.ts): lr, entCoef. A new learning rate keeps
   * the schedule the optimizer is on (lr_k = lr · s_k). False for a name this rule does not change live.
   */
  applyChange(name: string, value: number | string | boolean): boolean {
    const oldLr = this.config.lr;
    if (!setLiveNumber(this.config, ['lr', 'entCoef'], name, value)) return false;
    if (name === 'lr') this.setLearningRate(rescaledLearningRate(this.optimizer, oldLr, this.config.lr));
    return true;
  }
}

/** The settings the playground exposes (src/config/algorithms/reinforce.ts), by field name. */
export type ReinforceParams = Pick<ReinforceConfig, 'lr' | 'gamma' | 'entCoef'>;

/** What kind of update rule `load` brings: one that trains the network the engine builds from the model settings. */
export const kind = 'network';

/** How the engine builds REINFORCE from its settings (see src/config/algorithms/reinforce.ts). */
export const create: (model: PolicyModel, params: ReinforceParams) => Reinforce = (model, params) => new Reinforce(model, params);
