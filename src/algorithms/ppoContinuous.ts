/**
 * PPO with a diagonal Gaussian policy (Schulman et al. 2017), following CleanRL's
 * ppo_continuous_action.py: mean μ_φ(s) from an MLP, a state-independent log-std vector, a separate
 * critic V_ψ(s) (GaussianActorCritic). Its own file because the policy's maths differs from the
 * discrete PPO's (ppo.ts):
 *
 *     log π(a|s) = Σ_i [ −(a_i − μ_i(s))² / (2σ_i²) − log σ_i − ½ log 2π ],   H = Σ_i [ ½ + ½ log 2π + log σ_i ]
 *
 * Per learn(batch) of B transitions with the acting policy's log π_old(a|s), advantages Â (GAE,
 * computed by the loop) and returns R = Â + V_old(s): for `updateEpochs` epochs, shuffle with the
 * seeded Rng and, for each of `numMinibatches` minibatches (Â normalised within it):
 *     r = exp(log π(a|s) − log π_old(a|s))
 *     L = −mean[min(r·Â, clip(r, 1 − ε, 1 + ε)·Â)] + c_v · ½·mean[(V(s) − R)²] − c_e · mean[H]
 * one Adam step (ε 1e-5) with the gradient clipped to global norm `maxGradNorm` (FusedAdam, with the
 * clipping factor min(1, maxGradNorm / (‖∇L‖₂ + 1e-6)) applied inside the step, as ppo.ts).
 * learnSteps() is the same update one minibatch at a time (the loop lets the event loop turn between them).
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm, runToEnd, type UpdateSteps } from '../core/algorithm';
import { diagGaussianLogProb, GaussianActorCritic, type ActorSpec } from '../core/continuousMlp';
import { Rng } from '../core/rng';
import { FusedAdam } from '../core/fusedAdam';
import { readScalars } from '../core/tensorUtils';
import { setOptimizerLr } from './offPolicy';

export interface GaussianPpoConfig {
  lr: number;
  gamma: number;
  gaeLambda: number;
  clipCoef: number;
  updateEpochs: number;
  numMinibatches: number;
  entCoef: number;
  vfCoef: number;
  maxGradNorm: number;
  /** Anneal the learning rate linearly to 0 over the run (setProgress). */
  annealLr: boolean;
}

export interface GaussianPpoBatch {
  obs: Float32Array;
  /** Unclipped actions as sampled. */
  actions: Float32Array;
  logProbs: Float32Array;
  advantages: Float32Array;
  returns: Float32Array;
  batchSize: number;
}

export class GaussianPpo extends Algorithm<GaussianPpoBatch, GaussianActorCritic> {
  protected override optimizer: FusedAdam;
  private readonly rng: Rng;

  constructor(model: GaussianActorCritic, readonly config: GaussianPpoConfig, seed: number) {
    super(model);
    if (!(config.lr > 0)) throw new Error(`GaussianPpoConfig.lr must be positive, got ${config.lr}`);
    this.optimizer = new FusedAdam(config.lr, 0.9, 0.999, 1e-5); // = makeOptimizer('adam', lr, 1e-5), fused
    this.rng = new Rng(seed).fork(0x9a0);
  }

  /** μ(s) [B, A] (the greedy action before the env's clipping). Caller disposes. */
  predict(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(obs).mean);
  }

  /** [μ(s) | log σ] [B, 2A]: what sampling needs. Caller disposes. */
  sample(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => {
      const { mean, logStd } = this.model.forward(obs);
      return tf.concat([mean, tf.tile(logStd, [mean.shape[0], 1])], 1);
    });
  }

  /** V(s) for a batch of observations, read back (the loop's GAE needs it). */
  values(obs: Float32Array, batch: number): Float32Array {
    return tf.tidy(() => this.model.forward(tf.tensor2d(obs, [batch, this.model.spec.obsDim])).value.dataSync() as Float32Array);
  }

  override setProgress(fraction: number): void {
    if (this.config.annealLr) setOptimizerLr(this.optimizer, Math.max(this.config.lr * (1 - fraction), 1e-8));
  }

  /** L for one minibatch (call inside tf.tidy or a gradient closure). */
  loss(obs: tf.Tensor2D, actions: tf.Tensor2D, oldLogProb: tf.Tensor1D, adv: tf.Tensor1D, ret: tf.Tensor1D) {
    const { mean, logStd, value } = this.model.forward(obs);
    const { logProb, entropy } = diagGaussianLogProb(mean, logStd, actions);
    const logRatio = tf.sub(logProb, oldLogProb);
    const ratio = tf.exp(logRatio);
    const c = this.config.clipCoef;
    const pg = tf.neg(tf.mean(tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - c, 1 + c), adv))));
    const v = tf.mul(0.5, tf.mean(tf.square(tf.sub(value, ret))));
    const ent = tf.mean(entropy);
    const total = tf.add(tf.sub(pg, tf.mul(this.config.entCoef, ent)), tf.mul(this.config.vfCoef, v)) as tf.Scalar;
    // approx KL (Schulman's k3): mean[(r − 1) − log r]
    const kl = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio));
    return { total, pg: pg as tf.Scalar, v: v as tf.Scalar, ent: ent as tf.Scalar, kl: kl as tf.Scalar };
  }

  learn(batch: GaussianPpoBatch): Record<string, number> {
    return runToEnd(this.learnSteps(batch));
  }

  /** The update, one minibatch a step: it yields before each Adam step (see UpdateSteps). */
  override *learnSteps(batch: GaussianPpoBatch): UpdateSteps {
    const { obsDim, actionDim } = this.model.spec;
    const B = batch.batchSize;
    if (batch.obs.length !== B * obsDim || batch.actions.length !== B * actionDim || batch.logProbs.length !== B || batch.advantages.length !== B || batch.returns.length !== B) {
      throw new Error(`GaussianPpo.learn: batch arrays must hold ${B} rows (obs ${obsDim}, actions ${actionDim} wide)`);
    }
    const mb = Math.max(1, Math.floor(B / this.config.numMinibatches));
    const order = Array.from({ length: B }, (_, i) => i);
    const sums = { pgLoss: 0, valueLoss: 0, entropy: 0, approxKl: 0, gradNorm: 0 };
    let n = 0;
    const kept: tf.Tensor[] = [];
    try {
      for (let e = 0; e < this.config.updateEpochs; e++) {
        this.rng.shuffle(order);
        for (let start = 0; start + mb <= B; start += mb) {
          yield;
          const idx = order.slice(start, start + mb);
          const pick = (src: Float32Array, w: number) => {
            const out = new Float32Array(mb * w);
            idx.forEach((i, r) => out.set(src.subarray(i * w, (i + 1) * w), r * w));
            return out;
          };
          const adv = pick(batch.advantages, 1);
          let m = 0;
          for (const a of adv) m += a;
          m /= mb;
          let s2 = 0;
          for (const a of adv) s2 += (a - m) * (a - m);
          const sd = Math.sqrt(s2 / Math.max(mb - 1, 1)) + 1e-8;
          for (let i = 0; i < mb; i++) adv[i] = (adv[i] - m) / sd;
          const stats = tf.tidy(() => {
            const obs = tf.tensor2d(pick(batch.obs, obsDim), [mb, obsDim]);
            const actions = tf.tensor2d(pick(batch.actions, actionDim), [mb, actionDim]);
            const old = tf.tensor1d(pick(batch.logProbs, 1));
            const advT = tf.tensor1d(adv);
            const ret = tf.tensor1d(pick(batch.returns, 1));
            const side: { pg?: tf.Scalar; v?: tf.Scalar; ent?: tf.Scalar; kl?: tf.Scalar } = {};
            const { grads } = tf.variableGrads(() => {
              const l = this.loss(obs, actions, old, advT, ret);
              side.pg = tf.keep(l.pg);
              side.v = tf.keep(l.v);
              side.ent = tf.keep(l.ent);
              side.kl = tf.keep(l.kl);
              return l.total;
            }, this.model.variables());
            const norm = this.optimizer.clipAndApply(grads, this.config.maxGradNorm);
            const out = tf.stack([side.pg!, side.v!, side.ent!, side.kl!, norm]);
            tf.dispose([side.pg!, side.v!, side.ent!, side.kl!]);
            return out;
          });
          kept.push(stats);
          n += 1;
        }
      }
      // One readback for the whole update.
      const all = tf.tidy(() => tf.sum(tf.stack(kept), 0));
      const s = all.dataSync();
      all.dispose();
      sums.pgLoss = s[0] / n;
      sums.valueLoss = s[1] / n;
      sums.entropy = s[2] / n;
      sums.approxKl = s[3] / n;
      sums.gradNorm = s[4] / n;
      const logStd = readScalars({ logStd: tf.tidy(() => tf.mean(this.model.logStd) as tf.Scalar) }).logStd;
      return { ...sums, logStd };
    } finally {
      tf.dispose(kept);
    }
  }
}

/** The settings the playground exposes (src/config/algorithms/ppoContinuous.ts), by field name. */
export type GaussianPpoParams = GaussianPpoConfig;

/** What kind of update rule `load` brings: a Box-action one that builds its own networks from the env's sizes and bounds. */
export const kind = 'continuous';

/** The actors sample a ~ N(μ(s), σ²). */
export const policy = 'gaussian' as const;

export function create(net: ActorSpec, params: GaussianPpoParams, seed: number): GaussianPpo {
  return new GaussianPpo(new GaussianActorCritic(net, seed), params, seed);
}
