/**
 * Generalised State-Dependent Exploration (gSDE; Raffin, Kober & Stulp 2022, "Smooth Exploration
 * for Robotic Reinforcement Learning"), as Stable-Baselines3's StateDependentNoiseDistribution
 * with SAC's settings (full_std, exp for the std, learn_features, tanh squashing).
 *
 * With z(s) ∈ R^H the policy's latent features (its last hidden layer, after the activation), a
 * learned log-std matrix L ∈ R^{H×A} and σ_kj = exp(L_kj):
 *     exploration matrix  M = σ ∘ E,  E ~ N(0, I) of shape [H, A]   (M_kj ~ N(0, σ_kj²), reparameterised)
 *     noise               ε(s) = z(s) · M                          (linear in z for a fixed M)
 *     u = μ(s) + ε(s),    y = tanh(u),    a = bias + scale · y
 * For a fixed s, u_j is Gaussian over M with variance Var_j(s) = Σ_k z_k² σ_kj² = (z² · σ²)_j, so
 *     log π(y|s) = Σ_j [ log N(u_j; μ_j, Var_j + δ) − log(1 − tanh(u_j)²) ],   δ = 1e-6 (SB3's epsilon)
 *     log N(u_j; μ_j, v) = −ε_j² / (2v) − ½ log v − ½ log 2π.
 * M stays the same between resamplings (every `sampleFreq` steps or at each rollout start), so
 * the actions of a rollout change smoothly with the state. The gradient flows through z into the
 * noise and the variance (SB3's SAC sets learn_features = True: z is not detached).
 */
import * as tf from '@tensorflow/tfjs';
import { exp } from './portableMath';
import type { Rng } from './rng';

/** δ added to the variance before the square root (SB3's StateDependentNoiseDistribution epsilon). */
export const GSDE_EPSILON = 1e-6;

/** SB3's SAC clip_mean: the mean μ(s) goes through hardtanh(−2, 2) when gSDE is on. */
export const GSDE_CLIP_MEAN = 2;

/** How a gSDE actor explores (carried in the ActorSpec, so the remote actors know it too). */
export interface GsdeSpec {
  /** Initial value of every entry of the log-std matrix L. */
  logStdInit: number;
  /** Resample M every this many env steps; ≤ 0: only at the start of each rollout (segment). */
  sampleFreq: number;
}

/** log(1 − tanh(u)²) = 2·(log 2 − u − softplus(−2u)), exact and stable for large |u|. Call inside tf.tidy. */
export function logOneMinusTanhSq(u: tf.Tensor2D): tf.Tensor2D {
  return tf.mul(2, tf.sub(tf.sub(Math.log(2), u), tf.softplus(tf.mul(-2, u))));
}

/**
 * The reparameterised gSDE sample and its log-probability (equations above) for latent z [B, H],
 * mean μ [B, A], log-std matrix L [H, A] and standard-normal E [H, A] shared by every row.
 * Call inside tf.tidy or a gradient closure.
 */
export function gsdeSquashed(
  mean: tf.Tensor2D,
  latent: tf.Tensor2D,
  logStd: tf.Tensor2D,
  eps: tf.Tensor2D,
): { u: tf.Tensor2D; y: tf.Tensor2D; logProb: tf.Tensor1D; variance: tf.Tensor2D } {
  const std = tf.exp(logStd);
  const noise = tf.matMul(latent, tf.mul(std, eps));
  const u = tf.add(mean, noise) as tf.Tensor2D;
  const variance = tf.add(tf.matMul(tf.square(latent), tf.square(std)), GSDE_EPSILON) as tf.Tensor2D;
  const logN = tf.sub(tf.sub(tf.div(tf.mul(-0.5, tf.square(noise)), variance), tf.mul(0.5, tf.log(variance))), 0.5 * Math.log(2 * Math.PI));
  const logProb = tf.sum(tf.sub(logN, logOneMinusTanhSq(u)), 1) as tf.Tensor1D;
  return { u, y: tf.tanh(u) as tf.Tensor2D, logProb, variance };
}

/**
 * The actor-side exploration matrices, one [H, A] matrix per env copy (SB3's
 * `exploration_matrices` for parallel envs), drawn from a seeded Rng with the log-std matrix of
 * the weights the actor has at the time of the draw.
 */
export class GsdeExploration {
  /** M_n, row-major [H · A], for each env copy n. */
  private matrices: Float32Array[] = [];

  constructor(
    readonly latentDim: number,
    readonly actionDim: number,
  ) {}

  /** Number of env copies drawn for (0 before the first draw). */
  get numEnvs(): number {
    return this.matrices.length;
  }

  /** Draw M_n = exp(L) ∘ E_n, E_n ~ N(0, I), for n = 0 … numEnvs − 1 (in that order, row-major). */
  resample(rng: Rng, logStd: Float32Array, numEnvs: number): void {
    const size = this.latentDim * this.actionDim;
    if (logStd.length !== size) throw new Error(`GsdeExploration: log-std matrix has ${logStd.length} values, expected ${size}`);
    this.matrices = Array.from({ length: numEnvs }, () => {
      const m = new Float32Array(size);
      for (let i = 0; i < size; i++) m[i] = exp(logStd[i]) * rng.normal();
      return m;
    });
  }

  /** ε = z · M_n [A] for latent z [H] of env copy n. */
  noise(latent: Float32Array, n: number): Float32Array {
    const m = this.matrices[n];
    if (!m) throw new Error(`GsdeExploration: no exploration matrix for env copy ${n} (resample first)`);
    const A = this.actionDim;
    const out = new Float32Array(A);
    for (let k = 0; k < this.latentDim; k++) {
      const zk = latent[k];
      if (zk === 0) continue;
      for (let j = 0; j < A; j++) out[j] += zk * m[k * A + j];
    }
    return out;
  }
}
