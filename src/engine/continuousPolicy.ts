/**
 * A plain typed-array forward pass of the continuous actors of core/continuousMlp.ts, for remote
 * actors (no gradients there, and tfjs's per-call overhead costs more than the arithmetic of these
 * small networks). Weights come in the model's variable order (kernel [in, out], bias [out] per
 * layer):
 *   - 'deterministic' (DeterministicActor): μ(s) = bias + scale·tanh(f(s)), f = DenseStack(obs → hidden… → A);
 *   - 'squashedGaussian' (SquashedGaussianActor): z = act(trunk(s)), mean = z·Wm + bm,
 *     logStd = clip(z·Ws + bs, LOG_STD_MIN, LOG_STD_MAX), u = mean + exp(logStd)·ε, a = bias + scale·tanh(u);
 *     with gSDE (spec.sde, GsdeActor): mean = clip(z·Wm + bm, −2, 2), u = mean + z·M_n with the
 *     exploration matrix M_n = exp(L) ∘ E of env copy n (core/gsde.ts; weights: trunk, mean head, L);
 *   - 'gaussian' (GaussianActorCritic, Gaussian PPO): a = μ(s) + exp(logStd)·ε, unbounded (the caller
 *     clips what it sends to the env), with log π(a|s) = Σ_i [−ε_i²/2 − logStd_i − ½ log 2π]
 *     (weights: actor layers, the logStd vector, then the critic's layers, which acting ignores).
 * Exploration noise ε comes from the caller's seeded Rng. exp, tanh and log are the portable ones of
 * core/portableMath.ts: the page's and Node's engines differ in the last bit of Math's.
 */
import { actionScaleBias, LOG_STD_MAX, LOG_STD_MIN, type ActorSpec } from '../core/continuousMlp';
import { GSDE_CLIP_MEAN, GsdeExploration } from '../core/gsde';
import { exp, log, tanh } from '../core/portableMath';
import type { NoiseProcess } from '../core/ouNoise';
import type { Rng } from '../core/rng';

export type ContinuousPolicyKind = 'deterministic' | 'squashedGaussian' | 'gaussian';

/** How an actor picks actions: uniformly at random (warm-up), greedily, or exploring. */
export interface ExploreMode {
  /** Uniform in the bounds (before learning starts). */
  random: boolean;
  /** Scale σ of the noise added on the tanh scale, in units of the half-range (0: none). */
  noise: number;
  /**
   * How that noise evolves (core/ouNoise.ts): independent Gaussian draws (the default) or an
   * Ornstein-Uhlenbeck process per env copy, which the rollout actor keeps and passes to `act`.
   */
  process?: NoiseProcess;
  /** Stochastic policies: sample (true) or act with the mean (false). */
  sample: boolean;
}

const HALF_LOG_2PI = 0.5 * log(2 * Math.PI);

export const GREEDY: ExploreMode = { random: false, noise: 0, sample: false };

interface Layer {
  w: Float32Array;
  b: Float32Array;
  inDim: number;
  outDim: number;
}

export class ContinuousPolicy {
  private layers: Layer[] = [];
  /** Gaussian PPO's state-independent log-std, or gSDE's log-std matrix L [H · A]. */
  private logStd: Float32Array | null = null;
  /** Whether the actor is SAC's gSDE actor (spec.sde). */
  readonly sde: boolean;
  /** log π(a|s) of the rows of the last `act` (gaussian only; zeros otherwise). */
  lastLogProbs = new Float32Array(0);
  private readonly scale: Float32Array;
  private readonly bias: Float32Array;
  /** Number of weight arrays the model has. */
  readonly weightArrays: number;

  constructor(
    readonly kind: ContinuousPolicyKind,
    readonly spec: ActorSpec,
  ) {
    const { scale, bias } = actionScaleBias(spec);
    this.scale = scale;
    this.bias = bias;
    // deterministic: hidden.length + 1 layers; squashed: hidden.length trunk layers + 2 heads
    // gSDE: hidden.length trunk layers, the mean head and L
    const h = spec.hidden.length;
    this.sde = kind === 'squashedGaussian' && spec.sde !== undefined;
    this.weightArrays = kind === 'gaussian' ? 4 * (h + 1) + 1 : this.sde ? 2 * (h + 1) + 1 : 2 * (h + (kind === 'deterministic' ? 1 : 2));
  }

  /** H, the size of the latent z the gSDE noise is linear in. */
  get latentDim(): number {
    return this.spec.hidden[this.spec.hidden.length - 1];
  }

  /** Empty exploration matrices for a gSDE actor (draw them with `resampleExploration`). */
  newExploration(): GsdeExploration {
    if (!this.sde) throw new Error('ContinuousPolicy: only a gSDE actor has exploration matrices');
    return new GsdeExploration(this.latentDim, this.spec.actionDim);
  }

  /** Draw new matrices M_n = exp(L) ∘ E_n for `numEnvs` env copies with the current weights' L. */
  resampleExploration(exploration: GsdeExploration, rng: Rng, numEnvs: number): void {
    if (!this.logStd) throw new Error('ContinuousPolicy: no weights yet');
    exploration.resample(rng, this.logStd, numEnvs);
  }

  setWeights(weights: Float32Array[]): void {
    if (weights.length !== this.weightArrays) throw new Error(`ContinuousPolicy: expected ${this.weightArrays} weight arrays, got ${weights.length}`);
    const layers: Layer[] = [];
    const actorArrays = this.kind === 'gaussian' || this.sde ? 2 * (this.spec.hidden.length + 1) : weights.length;
    if (this.kind === 'gaussian' || this.sde) {
      const want = this.sde ? this.latentDim * this.spec.actionDim : this.spec.actionDim;
      this.logStd = weights[actorArrays].slice();
      if (this.logStd.length !== want) throw new Error(`ContinuousPolicy: logStd has ${this.logStd.length} values, expected ${want}`);
    }
    for (let i = 0; i < actorArrays; i += 2) {
      const b = weights[i + 1];
      const outDim = b.length;
      const inDim = weights[i].length / outDim;
      if (!Number.isInteger(inDim)) throw new Error(`ContinuousPolicy: layer ${i / 2} has a kernel of ${weights[i].length} values for ${outDim} outputs`);
      layers.push({ w: weights[i].slice(), b: b.slice(), inDim, outDim });
    }
    if (layers[0].inDim !== this.spec.obsDim) throw new Error(`ContinuousPolicy: first layer takes ${layers[0].inDim} inputs, the env has ${this.spec.obsDim}`);
    this.layers = layers;
  }

  /**
   * Actions [batch · A] in env units for observations [batch · obsDim]. `noise` [batch · A], when
   * given, is the exploration noise already drawn on the tanh scale (an OU process's values) and
   * replaces the Gaussian σ·ε draws. A gSDE actor samples with `exploration`'s matrix of row r's
   * env copy (required when mode.sample).
   */
  act(obs: Float32Array, batch: number, rng: Rng, mode: ExploreMode, noise?: Float32Array, exploration?: GsdeExploration): Float32Array {
    const A = this.spec.actionDim;
    const out = new Float32Array(batch * A);
    if (noise && noise.length !== batch * A) throw new Error(`ContinuousPolicy: noise has ${noise.length} values, expected ${batch * A}`);
    if (mode.random) {
      for (let i = 0; i < out.length; i++) {
        const j = i % A;
        out[i] = this.bias[j] + this.scale[j] * (2 * rng.uniform() - 1);
      }
      return out;
    }
    if (this.layers.length === 0) throw new Error('ContinuousPolicy: no weights yet');
    const d = this.spec.obsDim;
    const act = this.spec.activation;
    if (this.lastLogProbs.length !== batch) this.lastLogProbs = new Float32Array(batch);
    for (let r = 0; r < batch; r++) {
      const x = obs.subarray(r * d, (r + 1) * d);
      if (this.kind === 'gaussian') {
        const mean = this.stack(x, 0, this.layers.length, act);
        const logStd = this.logStd!;
        let lp = 0;
        for (let j = 0; j < A; j++) {
          const eps = mode.sample ? rng.normal() : 0;
          out[r * A + j] = mean[j] + exp(logStd[j]) * eps;
          lp += -0.5 * eps * eps - logStd[j] - HALF_LOG_2PI;
        }
        this.lastLogProbs[r] = lp;
      } else if (this.kind === 'deterministic') {
        const f = this.stack(x, 0, this.layers.length, act);
        for (let j = 0; j < A; j++) {
          const noisy = tanh(f[j]) + (noise ? noise[r * A + j] : mode.noise > 0 ? mode.noise * rng.normal() : 0);
          // clip(μ + σ·scale·ε) in env units = bias + scale·clip(tanh f + σε, −1, 1)
          out[r * A + j] = this.bias[j] + this.scale[j] * Math.min(1, Math.max(-1, noisy));
        }
      } else if (this.sde) {
        const n = this.layers.length;
        const z = this.stack(x, 0, n - 1, act);
        activate(z, act);
        const mean = dense(this.layers[n - 1], z);
        let sdeNoise: Float32Array | null = null;
        if (mode.sample) {
          if (!exploration || exploration.numEnvs !== batch) throw new Error(`ContinuousPolicy: a gSDE actor samples with exploration matrices for ${batch} env copies (resampleExploration first)`);
          sdeNoise = exploration.noise(z, r);
        }
        for (let j = 0; j < A; j++) {
          const m = Math.min(GSDE_CLIP_MEAN, Math.max(-GSDE_CLIP_MEAN, mean[j]));
          const u = sdeNoise ? m + sdeNoise[j] : m;
          const extra = noise ? noise[r * A + j] : mode.noise > 0 ? mode.noise * rng.normal() : 0;
          const y = noise || mode.noise > 0 ? Math.min(1, Math.max(-1, tanh(u) + extra)) : tanh(u);
          out[r * A + j] = this.bias[j] + this.scale[j] * y;
        }
      } else {
        const n = this.layers.length;
        const z = this.stack(x, 0, n - 2, act);
        activate(z, act);
        const mean = dense(this.layers[n - 2], z);
        const logStd = dense(this.layers[n - 1], z);
        for (let j = 0; j < A; j++) {
          const ls = Math.min(LOG_STD_MAX, Math.max(LOG_STD_MIN, logStd[j]));
          const u = mode.sample ? mean[j] + exp(ls) * rng.normal() : mean[j];
          // Extra Gaussian noise on the tanh scale, as for the deterministic actor (noisy dataset episodes).
          const extra = noise ? noise[r * A + j] : mode.noise > 0 ? mode.noise * rng.normal() : 0;
          const y = noise || mode.noise > 0 ? Math.min(1, Math.max(-1, tanh(u) + extra)) : tanh(u);
          out[r * A + j] = this.bias[j] + this.scale[j] * y;
        }
      }
    }
    return out;
  }

  /** Layers [from, to) with the activation between them (none after the last). */
  private stack(x: Float32Array, from: number, to: number, act: 'tanh' | 'relu'): Float32Array {
    let h = x;
    for (let i = from; i < to; i++) {
      h = dense(this.layers[i], h);
      if (i + 1 < to) activate(h, act);
    }
    return h;
  }
}

function dense(l: Layer, x: Float32Array): Float32Array {
  const y = Float32Array.from(l.b);
  for (let k = 0; k < l.inDim; k++) {
    const xk = x[k];
    if (xk === 0) continue;
    const row = k * l.outDim;
    for (let j = 0; j < l.outDim; j++) y[j] += xk * l.w[row + j];
  }
  return y;
}

function activate(h: Float32Array, act: 'tanh' | 'relu'): void {
  for (let j = 0; j < h.length; j++) h[j] = act === 'tanh' ? tanh(h[j]) : Math.max(0, h[j]);
}
