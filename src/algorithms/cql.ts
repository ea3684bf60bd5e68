/**
 * CQL, Conservative Q-Learning (Kumar et al. 2020, "Conservative Q-Learning for Offline
 * Reinforcement Learning"), the CQL(H) variant on top of SAC, for learning from a fixed dataset D
 * without an environment. Everything is SAC (sac.ts) except the critics' loss, which adds, for
 * each critic Q_θi, a term that pushes Q down on actions the policy or chance would pick and up on
 * the dataset's own actions:
 *
 *     L_Q = Σ_i { mean[(Q_θi(s, a) − y)²] + α_cql · mean_s[ logsumexp_a Q_θi(s, a) − Q_θi(s, a_D) ] }
 *
 * logsumexp over all actions is estimated by importance sampling (the paper's appendix F, as its
 * official code): N actions drawn uniformly on the tanh scale (density 0.5^|A| on (−1, 1)^|A|)
 * and N from the current policy π(·|s) (density π(y|s), SAC's log π on the tanh scale):
 *
 *     logsumexp_a Q(s, a) ≈ log( 1/(2N) · [ Σ_j e^{Q(s, a_j^U)} / 0.5^|A|  +  Σ_j e^{Q(s, a_j^π)} / π(a_j^π|s) ] )
 *                        = logsumexp_j [ Q(s, a_j^U) + |A| log 2 ;  Q(s, a_j^π) − log π(a_j^π|s) ] − log 2N
 *
 * (the constant −log 2N does not change the gradient and is left out, as in the official code).
 * Random draws come in the batch from the caller's seeded Rng: `cqlUniform` [B·N, A] in (−1, 1)
 * and `cqlNoise` [B·N, A] standard-normal (row j·B + b is draw j of transition b).
 */
import * as tf from '@tensorflow/tfjs';
import type { ActorSpec } from '../core/continuousMlp';
import { checkNoise, type ContinuousBatch } from './offPolicy';
import { Sac, sacModels, type SacBatch, type SacConfig, type SacModels } from './sac';

export interface CqlConfig extends SacConfig {
  /** α_cql, the weight of the conservative term (0: plain SAC on the dataset). */
  cqlAlpha: number;
  /** N, sampled actions of each kind per state. */
  numSampledActions: number;
}

export interface CqlBatch extends SacBatch {
  /** [B·N, A] uniform in (−1, 1): the random actions on the tanh scale. */
  cqlUniform: tf.Tensor2D;
  /** [B·N, A] standard-normal ε for the policy's actions at s. */
  cqlNoise: tf.Tensor2D;
}

export class Cql extends Sac {
  readonly cqlAlpha: number;
  readonly numSampledActions: number;
  private current: CqlBatch | null = null;
  /** The conservative gap mean[logsumexp − Q(s, a_D)] of the last critic loss, kept for the metrics. */
  private lastGap: tf.Scalar | null = null;

  constructor(models: SacModels, config: CqlParams & Partial<CqlConfig>) {
    super(models, config);
    if (!(config.cqlAlpha >= 0 && Number.isFinite(config.cqlAlpha))) throw new Error(`CqlConfig.cqlAlpha must be ≥ 0, got ${config.cqlAlpha}`);
    if (!(Number.isInteger(config.numSampledActions) && config.numSampledActions >= 1)) {
      throw new Error(`CqlConfig.numSampledActions must be a positive integer, got ${config.numSampledActions}`);
    }
    this.cqlAlpha = config.cqlAlpha;
    this.numSampledActions = config.numSampledActions;
  }

  /** mean_s[ logsumexp_a Q(s, a) − Q(s, a_D) ] for one critic (estimated as above); call inside tf.tidy. */
  conservativeGap(critic: SacModels['critic1'], batch: CqlBatch): tf.Scalar {
    const N = this.numSampledActions;
    const B = batch.obs.shape[0];
    const A = this.model.spec.actionDim;
    const obsN = tf.tile(batch.obs, [N, 1]) as tf.Tensor2D; // row j·B + b = s_b
    const uniformActions = this.model.toEnvAction(batch.cqlUniform);
    const { action: piActions, logProb } = this.policySample(obsN, batch.cqlNoise);
    const qU = tf.add(critic.qValue(obsN, uniformActions), A * Math.log(2));
    // Gradients reach only the critic: the loss is differentiated with respect to its variables alone.
    const qPi = tf.sub(critic.qValue(obsN, piActions), logProb);
    const cat = tf.concat([tf.reshape(qU, [N, B]), tf.reshape(qPi, [N, B])], 0); // [2N, B]
    const lse = tf.logSumExp(cat, 0); // [B]
    return tf.mean(tf.sub(lse, critic.qValue(batch.obs, batch.actions))) as tf.Scalar;
  }

  override criticLoss(batch: ContinuousBatch, y: tf.Tensor1D): tf.Scalar {
    const base = super.criticLoss(batch, y);
    const current = this.current;
    if (!current || this.cqlAlpha === 0) return base;
    const gap = tf.add(this.conservativeGap(this.critic1, current), this.conservativeGap(this.critic2, current)) as tf.Scalar;
    this.lastGap?.dispose();
    this.lastGap = tf.keep(tf.div(gap, 2) as tf.Scalar);
    return tf.add(base, tf.mul(this.cqlAlpha, gap));
  }

  override learn(batch: CqlBatch): Record<string, number> {
    const B = batch.obs.shape[0];
    const A = this.model.spec.actionDim;
    checkNoise(batch.cqlUniform, B * this.numSampledActions, A, 'cqlUniform', 'Cql.learn');
    checkNoise(batch.cqlNoise, B * this.numSampledActions, A, 'cqlNoise', 'Cql.learn');
    this.current = batch;
    try {
      const metrics = super.learn(batch);
      if (this.lastGap) {
        metrics.cqlGap = this.lastGap.dataSync()[0];
        this.lastGap.dispose();
        this.lastGap = null;
      }
      return metrics;
    } finally {
      this.current = null;
    }
  }

  override dispose(): void {
    this.lastGap?.dispose();
    super.dispose();
  }
}

/** The settings the playground exposes (src/config/algorithms/cql.ts), by field name. */
export type CqlParams = Omit<CqlConfig, 'targetEntropy'>;

/** What kind of update rule `load` brings: a Box-action one that builds its own networks from the env's sizes and bounds. */
export const kind = 'continuous';

/** Evaluation acts with the squashed Gaussian's mean. */
export const policy = 'squashedGaussian' as const;

/** The draws a batch carries per transition: N uniform actions and N policy draws (see the header). */
export function batchDraws(params: Pick<CqlParams, 'numSampledActions'>) {
  return [
    { name: 'cqlUniform', rows: params.numSampledActions, kind: 'uniform' as const },
    { name: 'cqlNoise', rows: params.numSampledActions, kind: 'normal' as const },
  ];
}

/** Builds CQL for an env's sizes and bounds (engine entry point). */
export function create(net: ActorSpec, params: CqlParams, seed: number): Cql {
  return new Cql(sacModels(net, seed), params);
}
