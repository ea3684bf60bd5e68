/**
 * A2C: synchronous Advantage Actor-Critic (Mnih et al. 2016, "Asynchronous Methods for Deep
 * Reinforcement Learning", made synchronous as in OpenAI Baselines / Stable-Baselines3), with
 * GAE advantages (gae.ts; λ = 1 gives the paper's n-step returns).
 *
 * Model: `{ logits: [B, A], value: [B] }` (ActorCriticMlp). π(a|s) = softmax(logits)_a.
 *
 * 1. Advantages and value targets over the rollout (time-major [T, N], see gae.ts):
 *        δ_t = r_t + γ V(s_{t+1})(1 − d_t) − V(s_t),   A_t = δ_t + γλ(1 − d_t) A_{t+1},   R_t = A_t + V(s_t)
 *    (or passed in precomputed). Optionally normalised over the batch (SB3 default: off).
 *
 * 2. One gradient step on the whole batch:
 *        L_pg  = −mean_t[ log π(a_t|s_t) · A_t ]                 (A_t is a constant: no gradient)
 *        L_v   = 0.5 · mean_t[ (R_t − V(s_t))² ]
 *        H     = mean_t[ −Σ_a π(a|s_t) log π(a|s_t) ]
 *        L     = L_pg + vfCoef · L_v − entCoef · H
 *    then global-norm clipping of ∇L (maxGradNorm) and an RMSprop (or Adam) step.
 *    Raising log π of an action with A > 0 lowers L_pg.
 *    (SB3 writes L_v = mean((R − V)²) without the 0.5; with the same vfCoef our value term is half of SB3's.)
 */
import * as tf from '@tensorflow/tfjs';
import { PolicyAlgorithm } from '../core/algorithm';
import { clipByGlobalNorm, readScalars } from '../core/tensorUtils';
import { normalize } from './reinforce';
import {
  categorical,
  checkObsActions,
  explainedVariance,
  makeOptimizer,
  resolveAdvantages,
  type ActorCriticModel,
  type OnPolicyBatch,
  type OptimizerKind,
} from './common';
import { rescaledLearningRate, setLiveNumber } from './liveChange';

export interface A2cConfig {
  /** Learning rate. */
  lr: number;
  /** Discount γ. */
  gamma: number;
  /** GAE λ (1 = n-step returns, as the A2C paper). */
  gaeLambda: number;
  /** Entropy bonus weight. */
  entCoef: number;
  /** Value-loss weight. */
  vfCoef: number;
  /** Clip ∇L's global L2 norm to this; null = no clipping. */
  maxGradNorm: number | null;
  /** 'rmsprop' (SB3 default) or 'adam'. */
  optimizer: OptimizerKind;
  /** Optimizer ε (RMSprop: added to E[g²] inside the sqrt in tfjs). */
  eps: number;
  /** RMSprop decay α. */
  rmspropDecay: number;
  /** Normalise advantages to zero mean / unit std over the batch. */
  normalizeAdvantage: boolean;
}

/**
 * Defaults: Stable-Baselines3 `A2C` (learning_rate 7e-4, gamma 0.99, gae_lambda 1.0, ent_coef 0.0,
 * vf_coef 0.5, max_grad_norm 0.5, RMSprop alpha 0.99 eps 1e-5, normalize_advantage False; rollouts of
 * n_steps 5 per env, which the training loop chooses). rl-zoo's CartPole-v1 A2C keeps these (ent_coef 0.0, 8 envs).
 * The settings the playground exposes (A2cParams) take their one default from the descriptor,
 * src/config/algorithms/a2c.ts, and arrive through `create`; the rest are fixed here.
 */
export const A2C_FIXED: Readonly<Omit<A2cConfig, keyof A2cParams>> = Object.freeze({
  optimizer: 'rmsprop',
  eps: 1e-5,
  rmspropDecay: 0.99,
  normalizeAdvantage: false,
});

/** See `OnPolicyBatch` (common.ts): obs [B·obsDim], actions [B], and advantages+returns or the GAE rollout. */
export type A2cBatch = OnPolicyBatch;

export class A2c extends PolicyAlgorithm<A2cBatch, ActorCriticModel> {
  readonly config: A2cConfig;
  protected override optimizer: tf.Optimizer;

  constructor(model: ActorCriticModel, config: A2cParams & Partial<A2cConfig>) {
    super(model);
    this.config = { ...A2C_FIXED, ...config };
    this.optimizer = makeOptimizer(this.config.optimizer, this.config.lr, this.config.eps, this.config.rmspropDecay);
  }

  /** The loss and its terms for a batch (no update); call inside tf.tidy. */
  lossTerms(
    obs: tf.Tensor2D,
    actions: tf.Tensor1D,
    advantages: tf.Tensor1D,
    returns: tf.Tensor1D,
  ): { loss: tf.Scalar; pgLoss: tf.Scalar; valueLoss: tf.Scalar; entropy: tf.Scalar } {
    const { logits, value } = this.model.forward(obs);
    const { logpA, entropy: h } = categorical(logits, actions);
    const pgLoss = tf.neg(tf.mean(tf.mul(logpA, advantages))) as tf.Scalar; // −mean[log π(a|s)·A]
    const valueLoss = tf.mul(0.5, tf.mean(tf.square(tf.sub(returns, value)))) as tf.Scalar; // 0.5·mean[(R − V)²]
    const entropy = tf.mean(h) as tf.Scalar; // mean H(π)
    const loss = tf.sub(tf.add(pgLoss, tf.mul(this.config.vfCoef, valueLoss)), tf.mul(this.config.entCoef, entropy)) as tf.Scalar;
    return { loss, pgLoss, valueLoss, entropy };
  }

  learn(batch: A2cBatch): Record<string, number> {
    const B = batch.batchSize;
    const obsDim = checkObsActions(batch.obs, batch.actions, B, 'A2c.learn');
    const { advantages, returns } = resolveAdvantages(batch, this.config.gamma, this.config.gaeLambda, 'A2c.learn');
    const adv = this.config.normalizeAdvantage ? normalize(advantages).out : advantages;
    const vars = this.model.variables();

    const metrics = tf.tidy(() => {
      const obs = tf.tensor2d(batch.obs.slice(), [B, obsDim]);
      const actions = tf.tensor1d(batch.actions.slice(), 'int32');
      const advT = tf.tensor1d(adv.slice());
      const retT = tf.tensor1d(returns.slice());
      // variableGrads runs the closure in its own tidy: keep() the side metrics so they survive.
      const side: { pgLoss?: tf.Scalar; valueLoss?: tf.Scalar; entropy?: tf.Scalar } = {};
      const { value: loss, grads } = tf.variableGrads(() => {
        const t = this.lossTerms(obs, actions, advT, retT);
        side.pgLoss = tf.keep(t.pgLoss);
        side.valueLoss = tf.keep(t.valueLoss);
        side.entropy = tf.keep(t.entropy);
        return t.loss;
      }, vars);
      const clipped = clipByGlobalNorm(grads, this.config.maxGradNorm);
      this.optimizer.applyGradients(clipped.grads as tf.NamedTensorMap);
      return {
        loss,
        pgLoss: side.pgLoss as tf.Scalar,
        valueLoss: side.valueLoss as tf.Scalar,
        entropy: side.entropy as tf.Scalar,
        gradNorm: clipped.norm,
      };
    });
    const out = readScalars(metrics);
    if (batch.values) out.explainedVariance = explainedVariance(batch.values, returns);
    return out;
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

/** The settings the playground exposes (src/config/algorithms/a2c.ts), by field name. */
export type A2cParams = Pick<A2cConfig, 'lr' | 'gamma' | 'gaeLambda' | 'entCoef' | 'vfCoef' | 'maxGradNorm'>;

/** What kind of update rule `load` brings: one that trains the network the engine builds from the model settings. */
export const kind = 'network';

/** How the engine builds A2C from its settings (see src/config/algorithms/a2c.ts). */
export const create: (model: ActorCriticModel, params: A2cParams) => A2c = (model, params) => new A2c(model, params);
