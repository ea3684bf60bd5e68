/**
 * PPO with the clipped surrogate objective (Schulman et al. 2017, "Proximal Policy Optimization
 * Algorithms"), following CleanRL's ppo.py line by line (discrete actions).
 *
 * Model: `{ logits: [B, A], value: [B] }` (ActorCriticMlp). π_θ(a|s) = softmax(logits)_a.
 * The batch carries what the actor recorded when acting: log π_old(a_t|s_t) and V_old(s_t).
 *
 * 1. Advantages and returns over the rollout (GAE, time-major [T, N], see gae.ts), or passed in:
 *        δ_t = r_t + γ V(s_{t+1})(1 − d_t) − V(s_t),   A_t = δ_t + γλ(1 − d_t) A_{t+1},   R_t = A_t + V(s_t)
 *
 * 2. For `updateEpochs` epochs: shuffle the B indices with the seeded Rng and split them into
 *    `numMinibatches` minibatches (sizes differ by at most one). On each minibatch:
 *        Â        = (A − mean(A)) / (std(A) + 1e-8)          per minibatch (normAdv; population std,
 *                                                            torch's .std() is unbiased: a √(n/(n−1)) difference)
 *        log r    = log π_θ(a|s) − log π_old(a|s),   r = exp(log r)
 *        L_pg     = mean[ max( −Â·r, −Â·clip(r, 1 − ε, 1 + ε) ) ]          (ε = clipCoef)
 *        L_v      = 0.5 · mean[ max( (V_θ − R)², (V_clip − R)² ) ],  V_clip = V_old + clip(V_θ − V_old, −ε, ε)
 *                   (clipVloss; else 0.5 · mean[(V_θ − R)²])
 *        H        = mean[ −Σ_a π log π ]
 *        L        = L_pg − entCoef · H + vfCoef · L_v
 *    then global-norm clipping of ∇L to maxGradNorm and an Adam step.
 *    Diagnostics (no gradient): approxKl = mean[(r − 1) − log r] (Schulman's low-variance k3
 *    estimator of KL(π_old‖π_θ)), clipFrac = mean[ |r − 1| > ε ].
 *    targetKl (optional): stop after the epoch whose last minibatch had approxKl > targetKl.
 *
 * learn() returns the MEAN of each metric over all minibatches it ran, with one readback
 * (plus one per epoch when targetKl is set).
 */
import * as tf from '@tensorflow/tfjs';
import { defaultParams } from '../config/algorithm';
import { PPO } from '../config/algorithms/ppo';
import { PolicyAlgorithm } from '../core/algorithm';
import { Rng } from '../core/rng';
import { clipByGlobalNorm } from '../core/tensorUtils';
import {
  categorical,
  checkObsActions,
  explainedVariance,
  makeOptimizer,
  resolveAdvantages,
  type ActorCriticModel,
  type OnPolicyBatch,
} from './common';
import { rescaledLearningRate, setLiveNumber } from './liveChange';

export interface PpoConfig {
  /** Adam learning rate. */
  lr: number;
  /** Adam ε. */
  eps: number;
  /** Discount γ. */
  gamma: number;
  /** GAE λ. */
  gaeLambda: number;
  /** Minibatches per epoch. */
  numMinibatches: number;
  /** Passes over the batch per learn(). */
  updateEpochs: number;
  /** Normalise advantages per minibatch. */
  normAdv: boolean;
  /** Surrogate clipping ε. */
  clipCoef: number;
  /** Clip the value update around V_old with the same ε. */
  clipVloss: boolean;
  /** Entropy bonus weight. */
  entCoef: number;
  /** Value-loss weight. */
  vfCoef: number;
  /** Clip ∇L's global L2 norm to this; null = no clipping. */
  maxGradNorm: number | null;
  /** Early stop when an epoch's approx KL exceeds this; null = never. */
  targetKl: number | null;
  /** Decay the learning rate linearly to zero over the run (CleanRL's anneal_lr); see setProgress. */
  annealLr: boolean;
  /** Seed of the minibatch shuffling. */
  seed: number;
}

/**
 * Defaults: CleanRL ppo.py (learning_rate 2.5e-4, Adam eps 1e-5, gamma 0.99, gae_lambda 0.95,
 * num_minibatches 4, update_epochs 4, norm_adv True, clip_coef 0.2, clip_vloss True, ent_coef 0.01,
 * vf_coef 0.5, max_grad_norm 0.5, target_kl None; rollouts of 4 envs × 128 steps, chosen by the
 * training loop). CleanRL also anneals the learning rate linearly; that is the loop's business.
 */
export const PPO_DEFAULTS: Readonly<PpoConfig> = Object.freeze({
  // The hyperparameters the playground exposes take their one default from the descriptor.
  ...defaultParams(PPO.settings),
  eps: 1e-5,
  normAdv: true,
  clipVloss: true,
  targetKl: null,
  seed: 1,
});

/**
 * An on-policy batch (see `OnPolicyBatch` in common.ts: obs [B·obsDim], actions [B], and
 * advantages + returns or the GAE rollout, time-major) plus what the actor recorded:
 */
export interface PpoBatch extends OnPolicyBatch {
  /** [B] log π_old(a_t|s_t) when acting. */
  logProbs: Float32Array;
  /** [B] V_old(s_t) when acting (needed for GAE and for clipVloss). */
  values?: Float32Array;
}

/** Tensors of one minibatch (rows already gathered). */
export interface PpoMinibatch {
  obs: tf.Tensor2D;
  actions: tf.Tensor1D;
  oldLogProbs: tf.Tensor1D;
  advantages: tf.Tensor1D;
  returns: tf.Tensor1D;
  /** Needed when clipVloss is on. */
  oldValues?: tf.Tensor1D;
}

export interface PpoLossTerms {
  loss: tf.Scalar;
  pgLoss: tf.Scalar;
  valueLoss: tf.Scalar;
  entropy: tf.Scalar;
  approxKl: tf.Scalar;
  clipFrac: tf.Scalar;
}

const METRICS = ['loss', 'pgLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFrac', 'gradNorm'] as const;

export class Ppo extends PolicyAlgorithm<PpoBatch, ActorCriticModel> {
  readonly config: PpoConfig;
  protected override optimizer: tf.Optimizer;
  private readonly rng: Rng;

  constructor(model: ActorCriticModel, config: Partial<PpoConfig> = {}) {
    super(model);
    this.config = { ...PPO_DEFAULTS, ...config };
    if (!(Number.isInteger(this.config.numMinibatches) && this.config.numMinibatches >= 1)) {
      throw new Error(`PpoConfig.numMinibatches must be a positive integer, got ${this.config.numMinibatches}`);
    }
    if (!(Number.isInteger(this.config.updateEpochs) && this.config.updateEpochs >= 1)) {
      throw new Error(`PpoConfig.updateEpochs must be a positive integer, got ${this.config.updateEpochs}`);
    }
    this.optimizer = makeOptimizer('adam', this.config.lr, this.config.eps);
    this.rng = new Rng(this.config.seed).fork(0x990);
  }

  /** Learning-rate annealing (CleanRL's anneal_lr): lr_k = lr · (1 − fraction of the budget used). */
  override setProgress(fraction: number): void {
    if (this.config.annealLr) this.setLearningRate(this.config.lr * (1 - fraction));
  }

  /** The clipped-surrogate loss and diagnostics for one minibatch (no update); call inside tf.tidy. */
  lossTerms(mb: PpoMinibatch): PpoLossTerms {
    const { clipCoef, entCoef, vfCoef } = this.config;
    const { logits, value } = this.model.forward(mb.obs);
    const { logpA, entropy: h } = categorical(logits, mb.actions);

    let adv: tf.Tensor1D = mb.advantages;
    if (this.config.normAdv) {
      const { mean, variance } = tf.moments(adv);
      adv = tf.div(tf.sub(adv, mean), tf.add(tf.sqrt(variance), 1e-8)) as tf.Tensor1D; // Â
    }
    const logRatio = tf.sub(logpA, mb.oldLogProbs); // log r
    const ratio = tf.exp(logRatio); // r = π_θ / π_old
    const pg1 = tf.mul(tf.neg(adv), ratio); // −Â·r
    const pg2 = tf.mul(tf.neg(adv), tf.clipByValue(ratio, 1 - clipCoef, 1 + clipCoef)); // −Â·clip(r)
    const pgLoss = tf.mean(tf.maximum(pg1, pg2)) as tf.Scalar;

    let valueLoss: tf.Scalar;
    const vUnclipped = tf.square(tf.sub(value, mb.returns)); // (V_θ − R)²
    if (this.config.clipVloss) {
      if (!mb.oldValues) throw new Error('Ppo: clipVloss needs the old values V_old (batch.values)');
      const vClipped = tf.add(mb.oldValues, tf.clipByValue(tf.sub(value, mb.oldValues), -clipCoef, clipCoef)); // V_clip
      const vLossClipped = tf.square(tf.sub(vClipped, mb.returns));
      valueLoss = tf.mul(0.5, tf.mean(tf.maximum(vUnclipped, vLossClipped))) as tf.Scalar;
    } else {
      valueLoss = tf.mul(0.5, tf.mean(vUnclipped)) as tf.Scalar;
    }
    const entropy = tf.mean(h) as tf.Scalar;
    const loss = tf.add(tf.sub(pgLoss, tf.mul(entCoef, entropy)), tf.mul(vfCoef, valueLoss)) as tf.Scalar;

    // Diagnostics, outside the gradient (they do not enter `loss`).
    const approxKl = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio)) as tf.Scalar; // mean[(r − 1) − log r]
    const clipFrac = tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), clipCoef), 'float32')) as tf.Scalar;
    return { loss, pgLoss, valueLoss, entropy, approxKl, clipFrac };
  }

  learn(batch: PpoBatch): Record<string, number> {
    const B = batch.batchSize;
    const obsDim = checkObsActions(batch.obs, batch.actions, B, 'Ppo.learn');
    if (!batch.logProbs || batch.logProbs.length !== B) throw new Error(`Ppo.learn: the batch needs logProbs [${B}] (log π_old(a|s) when acting)`);
    if (this.config.clipVloss && (!batch.values || batch.values.length !== B)) {
      throw new Error(`Ppo.learn: clipVloss needs values [${B}] (V_old(s) when acting)`);
    }
    const { advantages, returns } = resolveAdvantages(batch, this.config.gamma, this.config.gaeLambda, 'Ppo.learn');
    const vars = this.model.variables();
    const M = Math.min(this.config.numMinibatches, B);

    // The whole batch as tensors, once; each minibatch gathers its rows.
    const full = tf.tidy(() => ({
      obs: tf.tensor2d(batch.obs.slice(), [B, obsDim]),
      actions: tf.tensor1d(batch.actions.slice(), 'int32'),
      oldLogProbs: tf.tensor1d(batch.logProbs.slice()),
      advantages: tf.tensor1d(advantages.slice()),
      returns: tf.tensor1d(returns.slice()),
      oldValues: batch.values ? tf.tensor1d(batch.values.slice()) : undefined,
    }));
    const perMinibatch: tf.Tensor1D[] = []; // one [METRICS.length] vector per minibatch
    let epochs = 0;
    try {
      const order = Array.from({ length: B }, (_, i) => i);
      for (let epoch = 0; epoch < this.config.updateEpochs; epoch++) {
        this.rng.shuffle(order);
        for (let k = 0; k < M; k++) {
          const idx = Int32Array.from(order.slice(Math.floor((k * B) / M), Math.floor(((k + 1) * B) / M)));
          perMinibatch.push(this.step(full, idx, vars));
        }
        epochs++;
        if (this.config.targetKl !== null) {
          const kl = perMinibatch[perMinibatch.length - 1].dataSync()[METRICS.indexOf('approxKl')];
          if (kl > this.config.targetKl) break;
        }
      }
      const mean = tf.tidy(() => tf.mean(tf.stack(perMinibatch), 0));
      const values = mean.dataSync();
      mean.dispose();
      const out: Record<string, number> = {};
      METRICS.forEach((k, i) => (out[k] = values[i]));
      out.epochs = epochs;
      if (batch.values) out.explainedVariance = explainedVariance(batch.values, returns);
      return out;
    } finally {
      for (const t of perMinibatch) t.dispose();
      for (const t of Object.values(full)) t?.dispose();
    }
  }

  /** One Adam step on the rows `idx`; returns the minibatch's metrics as one [METRICS.length] tensor. */
  private step(full: Required<Omit<PpoMinibatch, 'oldValues'>> & Pick<PpoMinibatch, 'oldValues'>, idx: Int32Array, vars: tf.Variable[]): tf.Tensor1D {
    return tf.tidy(() => {
      const i = tf.tensor1d(idx, 'int32');
      const mb: PpoMinibatch = {
        obs: tf.gather(full.obs, i),
        actions: tf.gather(full.actions, i),
        oldLogProbs: tf.gather(full.oldLogProbs, i),
        advantages: tf.gather(full.advantages, i),
        returns: tf.gather(full.returns, i),
        oldValues: full.oldValues ? tf.gather(full.oldValues, i) : undefined,
      };
      const side: Partial<PpoLossTerms> = {};
      const { value: loss, grads } = tf.variableGrads(() => {
        const t = this.lossTerms(mb);
        side.pgLoss = tf.keep(t.pgLoss);
        side.valueLoss = tf.keep(t.valueLoss);
        side.entropy = tf.keep(t.entropy);
        side.approxKl = tf.keep(t.approxKl);
        side.clipFrac = tf.keep(t.clipFrac);
        return t.loss;
      }, vars);
      const clipped = clipByGlobalNorm(grads, this.config.maxGradNorm);
      this.optimizer.applyGradients(clipped.grads as tf.NamedTensorMap);
      const m: Record<(typeof METRICS)[number], tf.Scalar> = {
        loss,
        pgLoss: side.pgLoss as tf.Scalar,
        valueLoss: side.valueLoss as tf.Scalar,
        entropy: side.entropy as tf.Scalar,
        approxKl: side.approxKl as tf.Scalar,
        clipFrac: side.clipFrac as tf.Scalar,
        gradNorm: clipped.norm,
      };
      const stacked = tf.stack(METRICS.map((k) => m[k])) as tf.Tensor1D;
      // keep()-ed tensors outlive every tidy: free them by hand.
      tf.dispose([side.pgLoss, side.valueLoss, side.entropy, side.approxKl, side.clipFrac] as tf.Scalar[]);
      return stacked;
    });
  }

  /**
   * A live change between updates (src/engine/liveChanges.ts): lr (the base of its annealing), clipCoef, entCoef. A new learning rate keeps
   * the schedule the optimizer is on (lr_k = lr · s_k). False for a name this rule does not change live.
   */
  applyChange(name: string, value: number | string | boolean): boolean {
    const oldLr = this.config.lr;
    if (!setLiveNumber(this.config, ['lr', 'clipCoef', 'entCoef'], name, value)) return false;
    if (name === 'lr') this.setLearningRate(rescaledLearningRate(this.optimizer, oldLr, this.config.lr));
    return true;
  }
}

/** The settings the playground exposes (src/config/algorithms/ppo.ts), by field name. */
export type PpoParams = Pick<PpoConfig, 'lr' | 'gamma' | 'gaeLambda' | 'clipCoef' | 'updateEpochs' | 'numMinibatches' | 'entCoef' | 'vfCoef' | 'maxGradNorm' | 'annealLr'>;

/** How the engine builds PPO from its settings (see src/config/algorithms/ppo.ts). */
export const create: (model: ActorCriticModel, params: PpoParams, seed: number) => Ppo = (model, params, seed) => new Ppo(model, { ...params, seed });
