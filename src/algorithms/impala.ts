/**
 * IMPALA learner (Espeholt et al. 2018, "IMPALA: Scalable Distributed Deep-RL with Importance
 * Weighted Actor-Learner Architectures"), after DeepMind's scalable_agent `experiment.py`.
 *
 * Actors act with whatever weights they last received (the behaviour policy μ) and send a
 * segment of T steps from N environments with log μ(a_t|x_t) recorded. The learner's current
 * policy π may be several updates ahead; V-trace (vtrace.ts) corrects for that lag.
 *
 * Model: `{ logits: [B, A], value: [B] }` (ActorCriticMlp).
 *
 * 1. Evaluate the segment with the CURRENT model (no gradient): log π(a_t|x_t), V(x_t) and the
 *    bootstrap V(x_T), read back in one go.
 * 2. V-trace targets in JS, with discounts γ_t = γ·(1 − done_t):
 *        ρ_t = min(ρ̄, π/μ),  c_t = min(c̄, π/μ),  δ_t V = ρ_t (r_t + γ_t V(x_{t+1}) − V(x_t))
 *        v_s = V(x_s) + δ_s V + γ_s c_s (v_{s+1} − V(x_{s+1}))
 *        A^pg_s = ρ^pg_s (r_s + γ_s v_{s+1} − V(x_s))
 *    v_s and A^pg_s are constants for the gradient (stop-gradient, as in the paper).
 * 3. One gradient step:
 *        L_pg = −mean_s[ A^pg_s · log π(a_s|x_s) ]
 *        L_v  = 0.5 · mean_s[ (v_s − V(x_s))² ]
 *        H    = mean_s[ −Σ_a π log π ]
 *        L    = L_pg + vfCoef · L_v − entCoef · H
 *    with global-norm clipping and RMSprop (or Adam).
 *    (scalable_agent sums the losses over the T·N batch where we average them; averaged, the
 *    learning rate does not depend on the segment size.)
 */
import * as tf from '@tensorflow/tfjs';
import { PolicyAlgorithm } from '../core/algorithm';
import { clipByGlobalNorm, readScalars } from '../core/tensorUtils';
import { vtrace } from './vtrace';
import { categorical, checkObsActions, makeOptimizer, type ActorCriticModel, type OptimizerKind } from './common';
import { rescaledLearningRate, setLiveNumber } from './liveChange';

export interface ImpalaConfig {
  /** Learning rate. */
  lr: number;
  /** Discount γ. */
  gamma: number;
  /** Entropy bonus weight. */
  entCoef: number;
  /** Value-loss ("baseline") weight. */
  vfCoef: number;
  /** Clip ∇L's global L2 norm to this; null = no clipping. */
  maxGradNorm: number | null;
  /** ρ̄ of V-trace (null = no clipping). */
  clipRhoThreshold: number | null;
  /** c̄ of V-trace (null = no clipping). */
  clipCThreshold: number | null;
  /** ρ̄ of the policy-gradient advantage (null = no clipping). */
  clipPgRhoThreshold: number | null;
  /** Clip rewards to [−rewardClip, rewardClip] (the paper uses 1 on Atari); null = off. */
  rewardClip: number | null;
  /** 'rmsprop' (the paper) or 'adam'. */
  optimizer: OptimizerKind;
  /** Optimizer ε. */
  eps: number;
  /** RMSprop decay. */
  rmspropDecay: number;
}

/**
 * Defaults: the IMPALA paper's Atari hyperparameters (Espeholt et al. 2018, appendix, table G.1):
 * learning rate 0.0006, discount 0.99, entropy cost 0.01, baseline loss scaling 0.5, gradient clipping 40,
 * RMSProp decay 0.99 momentum 0 ε 0.01, ρ̄ = c̄ = 1 (section 4.1). Reward clipping [−1, 1] is an
 * Atari choice and is off here (classic control rewards are already small).
 * The settings the playground exposes (ImpalaParams) take their one default from the descriptor,
 * src/config/algorithms/impala.ts, and arrive through `create`; the rest are fixed here.
 */
export const IMPALA_FIXED: Readonly<Omit<ImpalaConfig, keyof ImpalaParams>> = Object.freeze({
  rewardClip: null,
  optimizer: 'rmsprop',
  eps: 0.01,
  rmspropDecay: 0.99,
});

/** A segment of T steps from N environments; every [T, N] field is TIME-MAJOR (row t·N + n). */
export interface ImpalaBatch {
  /** [T·N · obsDim] observations x_t. */
  obs: Float32Array;
  /** [T·N] actions a_t. */
  actions: Int32Array;
  /** [T·N] log μ(a_t|x_t), recorded by the actor. */
  behaviourLogProbs: Float32Array;
  /** [T·N] r_t. */
  rewards: Float32Array;
  /** [T·N] 1 where the episode ended at step t (then γ_t = 0). */
  dones: Uint8Array;
  /** [N · obsDim] x_T, the observation after the last step (bootstraps V(x_T)). */
  bootstrapObs: Float32Array;
  /** N. */
  numEnvs: number;
}

export class Impala extends PolicyAlgorithm<ImpalaBatch, ActorCriticModel> {
  readonly config: ImpalaConfig;
  protected override optimizer: tf.Optimizer;

  constructor(model: ActorCriticModel, config: ImpalaParams & Partial<ImpalaConfig>) {
    super(model);
    this.config = { ...IMPALA_FIXED, ...config };
    this.optimizer = makeOptimizer(this.config.optimizer, this.config.lr, this.config.eps, this.config.rmspropDecay);
  }

  /** Loss for given V-trace targets (no update); call inside tf.tidy. */
  lossTerms(
    obs: tf.Tensor2D,
    actions: tf.Tensor1D,
    pgAdvantages: tf.Tensor1D,
    vs: tf.Tensor1D,
  ): { loss: tf.Scalar; pgLoss: tf.Scalar; valueLoss: tf.Scalar; entropy: tf.Scalar } {
    const { logits, value } = this.model.forward(obs);
    const { logpA, entropy: h } = categorical(logits, actions);
    const pgLoss = tf.neg(tf.mean(tf.mul(pgAdvantages, logpA))) as tf.Scalar; // −mean[A^pg·log π(a|x)]
    const valueLoss = tf.mul(0.5, tf.mean(tf.square(tf.sub(vs, value)))) as tf.Scalar; // 0.5·mean[(v_s − V)²]
    const entropy = tf.mean(h) as tf.Scalar;
    const loss = tf.sub(tf.add(pgLoss, tf.mul(this.config.vfCoef, valueLoss)), tf.mul(this.config.entCoef, entropy)) as tf.Scalar;
    return { loss, pgLoss, valueLoss, entropy };
  }

  /** V-trace targets for a segment under the current model (steps 1 and 2). */
  targets(batch: ImpalaBatch): { vs: Float32Array; pgAdvantages: Float32Array; rhos: Float32Array; values: Float32Array } {
    const TN = batch.actions.length;
    const N = batch.numEnvs;
    const obsDim = batch.obs.length / TN;
    // 1. One forward pass over [x_0 … x_{T−1}; x_T], one readback: [log π(a) (TN) | V (TN) | V(x_T) (N)].
    const xs = new Float32Array((TN + N) * obsDim);
    xs.set(batch.obs);
    xs.set(batch.bootstrapObs, TN * obsDim);
    const packed = tf.tidy(() => {
      const x = tf.tensor2d(xs, [TN + N, obsDim]);
      const { logits, value } = this.model.forward(x);
      const { logpA } = categorical(tf.slice(logits, [0, 0], [TN, -1]) as tf.Tensor2D, tf.tensor1d(batch.actions.slice(), 'int32'));
      return tf.concat([logpA, value]);
    });
    const data = packed.dataSync();
    const targetLogProbs = data.slice(0, TN);
    const values = data.slice(TN, 2 * TN);
    const bootstrapValue = data.slice(2 * TN, 2 * TN + N);
    packed.dispose();
    // 2. V-trace in JS.
    const { gamma, rewardClip } = this.config;
    const rewards = rewardClip === null ? batch.rewards : batch.rewards.map((r) => Math.max(-rewardClip, Math.min(rewardClip, r)));
    const discounts = new Float32Array(TN);
    for (let i = 0; i < TN; i++) discounts[i] = batch.dones[i] ? 0 : gamma; // γ_t = γ·(1 − done_t)
    const out = vtrace({
      behaviourLogProbs: batch.behaviourLogProbs,
      targetLogProbs,
      rewards,
      values,
      bootstrapValue,
      discounts,
      clipRhoThreshold: this.config.clipRhoThreshold,
      clipCThreshold: this.config.clipCThreshold,
      clipPgRhoThreshold: this.config.clipPgRhoThreshold,
    });
    return { ...out, values: Float32Array.from(values) };
  }

  learn(batch: ImpalaBatch): Record<string, number> {
    const TN = batch.actions.length;
    const N = batch.numEnvs;
    const obsDim = checkObsActions(batch.obs, batch.actions, TN, 'Impala.learn');
    if (!Number.isInteger(N) || N < 1 || TN % N !== 0) throw new Error(`Impala.learn: ${TN} steps do not split into numEnvs ${N}`);
    if (batch.bootstrapObs.length !== N * obsDim) throw new Error(`Impala.learn: bootstrapObs has ${batch.bootstrapObs.length} values, expected N·obsDim = ${N * obsDim}`);
    for (const [name, arr] of [
      ['behaviourLogProbs', batch.behaviourLogProbs],
      ['rewards', batch.rewards],
      ['dones', batch.dones],
    ] as const) {
      if (arr.length !== TN) throw new Error(`Impala.learn: ${name} has ${arr.length} entries for ${TN} steps`);
    }
    const { vs, pgAdvantages, rhos } = this.targets(batch);
    const vars = this.model.variables();

    // 3. The gradient step.
    const metrics = tf.tidy(() => {
      const obs = tf.tensor2d(batch.obs.slice(), [TN, obsDim]);
      const actions = tf.tensor1d(batch.actions.slice(), 'int32');
      const advT = tf.tensor1d(pgAdvantages);
      const vsT = tf.tensor1d(vs);
      const side: { pgLoss?: tf.Scalar; valueLoss?: tf.Scalar; entropy?: tf.Scalar } = {};
      const { value: loss, grads } = tf.variableGrads(() => {
        const t = this.lossTerms(obs, actions, advT, vsT);
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
    let rhoSum = 0;
    for (let i = 0; i < TN; i++) rhoSum += rhos[i];
    return { ...readScalars(metrics), meanRho: rhoSum / TN };
  }

  /**
   * A live change between updates (src/engine/liveChanges.ts): lr, entCoef and the V-trace clips. A new learning rate keeps
   * the schedule the optimizer is on (lr_k = lr · s_k). False for a name this rule does not change live.
   */
  applyChange(name: string, value: number | string | boolean): boolean {
    const oldLr = this.config.lr;
    if (!setLiveNumber(this.config, ['lr', 'entCoef', 'clipRhoThreshold', 'clipPgRhoThreshold', 'clipCThreshold'], name, value)) return false;
    if (name === 'lr') this.setLearningRate(rescaledLearningRate(this.optimizer, oldLr, this.config.lr));
    return true;
  }
}

/** The settings the playground exposes (src/config/algorithms/impala.ts), by field name. */
export type ImpalaParams = Pick<ImpalaConfig, 'lr' | 'gamma' | 'entCoef' | 'vfCoef' | 'clipRhoThreshold' | 'clipPgRhoThreshold' | 'clipCThreshold' | 'maxGradNorm'>;

/** What kind of update rule `load` brings: one that trains the network the engine builds from the model settings. */
export const kind = 'network';

/** How the engine builds IMPALA from its settings (see src/config/algorithms/impala.ts). */
export const create: (model: ActorCriticModel, params: ImpalaParams) => Impala = (model, params) => new Impala(model, params);
