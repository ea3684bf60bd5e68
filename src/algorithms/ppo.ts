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
 * (plus one per epoch when targetKl is set). learnSteps() is the same update one minibatch at a
 * time, so that the loop can let the event loop turn between them (Stop ends a long update).
 *
 * Cost per minibatch (the learner's hot loop): the rows are gathered on the CPU and uploaded as
 * the minibatch's own tensors (no gather kernels: on wasm each one read its indices back), the
 * loss's constants and Adam's are uploaded once and kept, and Adam runs once over the flat
 * parameter vector (FusedAdam). Each is exactly the arithmetic it replaces, bit for bit.
 */
import * as tf from '@tensorflow/tfjs';
import { PolicyAlgorithm, runToEnd, type UpdateSteps } from '../core/algorithm';
import { Rng } from '../core/rng';
import { FusedAdam } from '../core/fusedAdam';
import { ScalarCache } from '../core/tensorUtils';
import {
  categorical,
  checkObsActions,
  explainedVariance,
  resolveAdvantages,
  type ActorCriticModel,
  type OnPolicyBatch,
} from './common';
import { rescaledLearningRate, setLiveNumber } from './liveChange';
import { backendSums } from '../core/backendSums';
import { fusedLossSupported, fusedPpoLoss, normalizeAdvantages, ppoDiagnostics, type FusedPpoLoss, type PpoLossRows } from './ppoFusedLoss';

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
  /**
   * On the cpu and wasm backends, compute the loss from the logits on as one taped operation
   * (ppoFusedLoss.ts: the same bits, about 170 fewer kernels a minibatch); false = the tfjs graph.
   */
  fusedLoss: boolean;
}

/**
 * Defaults: CleanRL ppo.py (learning_rate 2.5e-4, Adam eps 1e-5, gamma 0.99, gae_lambda 0.95,
 * num_minibatches 4, update_epochs 4, norm_adv True, clip_coef 0.2, clip_vloss True, ent_coef 0.01,
 * vf_coef 0.5, max_grad_norm 0.5, target_kl None; rollouts of 4 envs × 128 steps, chosen by the
 * training loop). CleanRL also anneals the learning rate linearly; that is the loop's business.
 * The settings the playground exposes (PpoParams) take their one default from the descriptor,
 * src/config/algorithms/ppo.ts, and arrive through `create`; the rest are fixed here.
 */
export const PPO_FIXED: Readonly<Omit<PpoConfig, keyof PpoParams>> = Object.freeze({
  eps: 1e-5,
  normAdv: true,
  clipVloss: true,
  targetKl: null,
  seed: 1,
  fusedLoss: true,
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

/** The whole batch, row by row, on the CPU (the minibatches are gathered from it). */
interface PpoRows {
  obs: Float32Array;
  obsDim: number;
  actions: Int32Array;
  logProbs: Float32Array;
  advantages: Float32Array;
  returns: Float32Array;
  values?: Float32Array;
}

/** The rows `idx` of each field (copies). */
function minibatchRows(rows: PpoRows, idx: readonly number[]): PpoLossRows & { obs: Float32Array } {
  const n = idx.length;
  const d = rows.obsDim;
  const obs = new Float32Array(n * d);
  const actions = new Int32Array(n);
  const oldLogProbs = new Float32Array(n);
  const advantages = new Float32Array(n);
  const returns = new Float32Array(n);
  const oldValues = rows.values ? new Float32Array(n) : undefined;
  for (let r = 0; r < n; r++) {
    const i = idx[r];
    for (let j = 0; j < d; j++) obs[r * d + j] = rows.obs[i * d + j];
    actions[r] = rows.actions[i];
    oldLogProbs[r] = rows.logProbs[i];
    advantages[r] = rows.advantages[i];
    returns[r] = rows.returns[i];
    if (oldValues && rows.values) oldValues[r] = rows.values[i];
  }
  return { obs, actions, oldLogProbs, advantages, returns, oldValues };
}

/** The rows `idx` of each field as fresh tensors (a copy: what tf.gather would give, without its kernels). */
function minibatchTensors(rows: PpoRows, idx: readonly number[]): PpoMinibatch {
  const m = minibatchRows(rows, idx);
  return {
    obs: tf.tensor2d(m.obs, [idx.length, rows.obsDim]),
    actions: tf.tensor1d(m.actions, 'int32'),
    oldLogProbs: tf.tensor1d(m.oldLogProbs),
    advantages: tf.tensor1d(m.advantages),
    returns: tf.tensor1d(m.returns),
    oldValues: m.oldValues ? tf.tensor1d(m.oldValues) : undefined,
  };
}

export class Ppo extends PolicyAlgorithm<PpoBatch, ActorCriticModel> {
  readonly config: PpoConfig;
  protected override optimizer: FusedAdam;
  private readonly rng: Rng;
  /** The loss's float32 constants, kept between minibatches (uploaded once). */
  private readonly constants = new ScalarCache();
  /** The number of actions (the logits' width), known after the first step. */
  private logitsWidth: number | null = null;

  constructor(model: ActorCriticModel, config: PpoParams & Partial<PpoConfig>) {
    super(model);
    this.config = { ...PPO_FIXED, ...config };
    if (!(Number.isInteger(this.config.numMinibatches) && this.config.numMinibatches >= 1)) {
      throw new Error(`PpoConfig.numMinibatches must be a positive integer, got ${this.config.numMinibatches}`);
    }
    if (!(Number.isInteger(this.config.updateEpochs) && this.config.updateEpochs >= 1)) {
      throw new Error(`PpoConfig.updateEpochs must be a positive integer, got ${this.config.updateEpochs}`);
    }
    this.optimizer = new FusedAdam(this.config.lr, 0.9, 0.999, this.config.eps); // = makeOptimizer('adam', …), fused
    this.rng = new Rng(this.config.seed).fork(0x990);
  }

  /** Learning-rate annealing (CleanRL's anneal_lr): lr_k = lr · (1 − fraction of the budget used). */
  override setProgress(fraction: number): void {
    if (this.config.annealLr) this.setLearningRate(this.config.lr * (1 - fraction));
  }

  /** The clipped-surrogate loss and diagnostics for one minibatch (no update); call inside tf.tidy. */
  lossTerms(mb: PpoMinibatch): PpoLossTerms {
    const t = this.surrogateTerms(mb, this.normalizedAdvantages(mb.advantages));
    return { ...t, ...this.diagnostics(t.ratio, t.logRatio) };
  }

  /** Â = (A − mean(A)) / (std(A) + 1e-8) with normAdv, else A; call inside tf.tidy. */
  private normalizedAdvantages(adv: tf.Tensor1D): tf.Tensor1D {
    if (!this.config.normAdv) return adv;
    const { mean, variance } = tf.moments(adv);
    return tf.div(tf.sub(adv, mean), tf.add(tf.sqrt(variance), this.constants.get(1e-8))) as tf.Tensor1D;
  }

  /** L, L_pg, L_v, H for the normalised advantages `adv`, and the ratio r with log r; call inside tf.tidy. */
  private surrogateTerms(mb: PpoMinibatch, adv: tf.Tensor1D): Omit<PpoLossTerms, 'approxKl' | 'clipFrac'> & { ratio: tf.Tensor1D; logRatio: tf.Tensor1D } {
    const { clipCoef, entCoef, vfCoef } = this.config;
    const c = (x: number) => this.constants.get(x); // tf.mul(c(0.5), x) ≡ tf.mul(0.5, x), without the upload
    const { logits, value } = this.model.forward(mb.obs);
    this.logitsWidth = logits.shape[1];
    const { logpA, entropy: h } = categorical(logits, mb.actions);

    const logRatio = tf.sub(logpA, mb.oldLogProbs) as tf.Tensor1D; // log r
    const ratio = tf.exp(logRatio); // r = π_θ / π_old
    const negAdv = tf.neg(adv);
    const pg1 = tf.mul(negAdv, ratio); // −Â·r
    const pg2 = tf.mul(negAdv, tf.clipByValue(ratio, 1 - clipCoef, 1 + clipCoef)); // −Â·clip(r)
    const pgLoss = tf.mean(tf.maximum(pg1, pg2)) as tf.Scalar;

    let valueLoss: tf.Scalar;
    const vUnclipped = tf.square(tf.sub(value, mb.returns)); // (V_θ − R)²
    if (this.config.clipVloss) {
      if (!mb.oldValues) throw new Error('Ppo: clipVloss needs the old values V_old (batch.values)');
      const vClipped = tf.add(mb.oldValues, tf.clipByValue(tf.sub(value, mb.oldValues), -clipCoef, clipCoef)); // V_clip
      const vLossClipped = tf.square(tf.sub(vClipped, mb.returns));
      valueLoss = tf.mul(c(0.5), tf.mean(tf.maximum(vUnclipped, vLossClipped))) as tf.Scalar;
    } else {
      valueLoss = tf.mul(c(0.5), tf.mean(vUnclipped)) as tf.Scalar;
    }
    const entropy = tf.mean(h) as tf.Scalar;
    const loss = tf.add(tf.sub(pgLoss, tf.mul(c(entCoef), entropy)), tf.mul(c(vfCoef), valueLoss)) as tf.Scalar;
    return { loss, pgLoss, valueLoss, entropy, ratio, logRatio };
  }

  /** approxKl = mean[(r − 1) − log r], clipFrac = mean[|r − 1| > ε] (no gradient); call inside tf.tidy. */
  private diagnostics(ratio: tf.Tensor1D, logRatio: tf.Tensor1D): Pick<PpoLossTerms, 'approxKl' | 'clipFrac'> {
    const c = (x: number) => this.constants.get(x);
    const ratioMinus1 = tf.sub(ratio, c(1));
    const approxKl = tf.mean(tf.sub(ratioMinus1, logRatio)) as tf.Scalar;
    const clipFrac = tf.mean(tf.cast(tf.greater(tf.abs(ratioMinus1), c(this.config.clipCoef)), 'float32')) as tf.Scalar;
    return { approxKl, clipFrac };
  }

  learn(batch: PpoBatch): Record<string, number> {
    return runToEnd(this.learnSteps(batch));
  }

  /** The update, one minibatch a step: it yields before each Adam step (see UpdateSteps). */
  override *learnSteps(batch: PpoBatch): UpdateSteps {
    const B = batch.batchSize;
    const obsDim = checkObsActions(batch.obs, batch.actions, B, 'Ppo.learn');
    if (!batch.logProbs || batch.logProbs.length !== B) throw new Error(`Ppo.learn: the batch needs logProbs [${B}] (log π_old(a|s) when acting)`);
    if (this.config.clipVloss && (!batch.values || batch.values.length !== B)) {
      throw new Error(`Ppo.learn: clipVloss needs values [${B}] (V_old(s) when acting)`);
    }
    const { advantages, returns } = resolveAdvantages(batch, this.config.gamma, this.config.gaeLambda, 'Ppo.learn');
    if (this.constants.size > 64) this.constants.dispose(); // live changes add values: start afresh between steps
    const vars = this.model.variables();
    const M = Math.min(this.config.numMinibatches, B);
    const rows: PpoRows = { obs: batch.obs, obsDim, actions: batch.actions, logProbs: batch.logProbs, advantages, returns, values: batch.values };
    const perMinibatch: tf.Tensor1D[] = []; // one [METRICS.length] vector per minibatch
    let epochs = 0;
    try {
      const order = Array.from({ length: B }, (_, i) => i);
      for (let epoch = 0; epoch < this.config.updateEpochs; epoch++) {
        this.rng.shuffle(order);
        for (let k = 0; k < M; k++) {
          yield;
          perMinibatch.push(this.step(rows, vars, order.slice(Math.floor((k * B) / M), Math.floor(((k + 1) * B) / M))));
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
    }
  }

  /**
   * One Adam step on the rows `idx`; returns the minibatch's metrics as one [METRICS.length] tensor.
   * Only what depends on θ runs under the gradient tape (tfjs copies every saved input of a taped
   * kernel): Â before it, the diagnostics after it, from the same tensors, so every value is the same.
   */
  private step(rows: PpoRows, vars: tf.Variable[], idx: readonly number[]): tf.Tensor1D {
    // The first step takes the graph, which tells the logits' width (the fused loss's route depends on it).
    if (this.config.fusedLoss && this.logitsWidth !== null && fusedLossSupported(idx.length, this.logitsWidth)) return this.fusedStep(rows, vars, idx);
    return tf.tidy(() => {
      const mb = minibatchTensors(rows, idx);
      const adv = this.normalizedAdvantages(mb.advantages);
      const side: { pgLoss?: tf.Scalar; valueLoss?: tf.Scalar; entropy?: tf.Scalar; ratio?: tf.Tensor1D; logRatio?: tf.Tensor1D } = {};
      const { value: loss, grads } = tf.variableGrads(() => {
        const t = this.surrogateTerms(mb, adv);
        side.pgLoss = tf.keep(t.pgLoss);
        side.valueLoss = tf.keep(t.valueLoss);
        side.entropy = tf.keep(t.entropy);
        side.ratio = tf.keep(t.ratio);
        side.logRatio = tf.keep(t.logRatio);
        return t.loss;
      }, vars);
      const kept = [side.pgLoss, side.valueLoss, side.entropy, side.ratio, side.logRatio] as tf.Tensor[];
      const { approxKl, clipFrac } = this.diagnostics(side.ratio as tf.Tensor1D, side.logRatio as tf.Tensor1D);
      // Global-norm clipping (clipByGlobalNorm's arithmetic) and the Adam step, on typed arrays where it can.
      const norm = this.optimizer.clipAndApply(grads, this.config.maxGradNorm);
      const m: Record<(typeof METRICS)[number], tf.Scalar> = {
        loss,
        pgLoss: side.pgLoss as tf.Scalar,
        valueLoss: side.valueLoss as tf.Scalar,
        entropy: side.entropy as tf.Scalar,
        approxKl,
        clipFrac,
        gradNorm: norm,
      };
      const stacked = tf.stack(METRICS.map((k) => m[k])) as tf.Tensor1D;
      // keep()-ed tensors outlive every tidy: free them by hand.
      tf.dispose(kept);
      return stacked;
    });
  }

  /**
   * step() with the loss as one taped operation (ppoFusedLoss.ts) and the clipping and Adam step on
   * typed arrays (FusedAdam.clipAndApply): the same values, about 250 fewer kernels a minibatch.
   */
  private fusedStep(rows: PpoRows, vars: tf.Variable[], idx: readonly number[]): tf.Tensor1D {
    return tf.tidy(() => {
      const m = minibatchRows(rows, idx);
      const red = backendSums();
      const lossRows = { ...m, advantages: this.config.normAdv ? normalizeAdvantages(m.advantages, red) : m.advantages };
      const obs = tf.tensor2d(m.obs, [idx.length, rows.obsDim]);
      const taped: { terms?: FusedPpoLoss } = {};
      const { value: loss, grads } = tf.variableGrads(() => {
        const { logits, value } = this.model.forward(obs);
        taped.terms = fusedPpoLoss(logits, value, lossRows, this.config);
        return taped.terms.loss;
      }, vars);
      const t = taped.terms;
      if (!t) throw new Error('Ppo: the fused loss did not run');
      const { approxKl, clipFrac } = ppoDiagnostics(t.ratio, t.logRatio, this.config.clipCoef, red);
      const norm = this.optimizer.clipAndApply(grads, this.config.maxGradNorm);
      const m7: Record<(typeof METRICS)[number], tf.Scalar> = {
        loss,
        pgLoss: tf.scalar(t.pgLoss),
        valueLoss: tf.scalar(t.valueLoss),
        entropy: tf.scalar(t.entropy),
        approxKl: tf.scalar(approxKl),
        clipFrac: tf.scalar(clipFrac),
        gradNorm: norm,
      };
      return tf.stack(METRICS.map((k) => m7[k])) as tf.Tensor1D;
    });
  }

  override dispose(): void {
    this.constants.dispose();
    super.dispose();
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

/** What kind of update rule `load` brings: one that trains the network the engine builds from the model settings. */
export const kind = 'network';

/** How the engine builds PPO from its settings (see src/config/algorithms/ppo.ts). */
export const create: (model: ActorCriticModel, params: PpoParams, seed: number) => Ppo = (model, params, seed) => new Ppo(model, { ...params, seed });
