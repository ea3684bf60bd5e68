/**
 * OpenAI-style evolution strategies (Salimans et al. 2017, "Evolution Strategies as a Scalable
 * Alternative to Reinforcement Learning"). No gradients, no tensors: the learner works on a flat
 * Float32Array θ of all the policy's parameters (flattenWeights / setFlatWeights convert).
 *
 * One generation:
 * 1. ask(): draw `numPairs` noise offsets j from the shared table (noiseTable.ts), ε_j = table[j …].
 *    Antithetic (mirrored) sampling: each ε_j is evaluated twice, at θ + σε_j and θ − σε_j,
 *    giving returns F⁺_j and F⁻_j. n = 2·numPairs evaluations in all.
 * 2. Fitness shaping (centered ranks): all n returns are ranked 0 … n−1 (ties by order given)
 *    and mapped to  F̃ = rank / (n − 1) − 0.5  ∈ [−0.5, 0.5]; invariant to the returns' scale.
 * 3. Search-gradient estimate (the sum over antithetic members of F_i ε_i, with ε = −ε_j for the
 *    minus member):
 *        g = 1/(n σ) · Σ_i F_i ε_i = 1/(n σ) · Σ_j (F̃⁺_j − F̃⁻_j) ε_j
 * 4. Update, with L2 weight decay (OpenAI's l2coeff):
 *        SGD:  θ ← θ + lr · (g − l2Coeff · θ)              (= θ + lr/(nσ) Σ F_i ε_i without decay)
 *        Adam: θ ← θ + Adam_lr(g − l2Coeff · θ)            (ascent; Kingma & Ba 2015)
 *    (OpenAI's code leaves the 1/σ out of g, which Adam's normalisation absorbs.)
 *
 * Distributed use: actors rebuild the NoiseTable from its seed, evaluate θ ± σε_j for the offsets
 * they are given (or draw their own with `noise.sampleIndex`), and send back only
 * { noiseIndex, returnPos, returnNeg }; the learner calls tell() and broadcasts θ.
 */
import type { Model, ModelOutput } from '../core/model';
import { Rng } from '../core/rng';
import type { NoiseTable } from './noiseTable';

export interface EsConfig {
  /** Antithetic pairs per generation (population = 2·numPairs). */
  numPairs: number;
  /** Perturbation scale σ. */
  sigma: number;
  /** Step size. */
  lr: number;
  /** 'adam' (OpenAI) or plain 'sgd'. */
  optimizer: 'adam' | 'sgd';
  /** Adam β1, β2, ε. */
  beta1: number;
  beta2: number;
  adamEps: number;
  /** L2 weight decay coefficient. */
  l2Coeff: number;
  /** 'centeredRank' (OpenAI) or 'none' (raw returns, mean-subtracted). */
  fitnessShaping: 'centeredRank' | 'none';
  /** Seed of the learner's offset draws. */
  seed: number;
}

/**
 * Defaults: OpenAI evolution-strategies-starter (noise_stdev 0.02, stepsize 0.01 with Adam β1 0.9
 * β2 0.999 ε 1e-8, l2coeff 0.005, centered ranks, antithetic pairs). Their episodes_per_batch of
 * 10 000 is for a cluster; 25 pairs (50 episodes) suits a browser tab. The settings the playground
 * exposes (EsParams) take their one default from the descriptor, src/config/algorithms/es.ts, and
 * arrive from the ES loop; the rest are fixed here.
 */
export const ES_FIXED: Readonly<Omit<EsConfig, keyof EsParams>> = Object.freeze({
  optimizer: 'adam',
  beta1: 0.9,
  beta2: 0.999,
  adamEps: 1e-8,
  fitnessShaping: 'centeredRank',
  seed: 1,
});

/** The settings the playground exposes (src/config/algorithms/es.ts), by field name. */
export type EsParams = Pick<EsConfig, 'numPairs' | 'sigma' | 'lr' | 'l2Coeff'>;

/** What an actor sends back for one antithetic pair. */
export interface EsResult {
  /** Offset of ε in the noise table. */
  noiseIndex: number;
  /** F(θ + σε). */
  returnPos: number;
  /** F(θ − σε). */
  returnNeg: number;
}

/**
 * Centered ranks (OpenAI's compute_centered_ranks): rank 0 … n−1 (ascending, ties broken by
 * position) mapped to rank/(n − 1) − 0.5. E.g. [10, −1, 3] → ranks [2, 0, 1] → [0.5, −0.5, 0].
 */
export function centeredRanks(x: ArrayLike<number>): Float32Array {
  const n = x.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b);
  const out = new Float32Array(n);
  if (n === 1) return out; // one value: rank 0 → 0 (centred)
  order.forEach((i, rank) => (out[i] = rank / (n - 1) - 0.5));
  return out;
}

export class EsLearner {
  readonly config: EsConfig;
  /** The current parameters θ (updated in place by tell()). */
  readonly theta: Float32Array;
  private readonly rng: Rng;
  private readonly m: Float64Array; // Adam first moment
  private readonly v: Float64Array; // Adam second moment
  private t = 0; // Adam step count (= generations)

  constructor(
    theta0: Float32Array,
    readonly noise: NoiseTable,
    config: EsParams & Partial<EsConfig>,
  ) {
    this.config = { ...ES_FIXED, ...config };
    if (!Number.isInteger(this.config.numPairs) || this.config.numPairs < 1) throw new Error(`EsConfig.numPairs must be a positive integer, got ${this.config.numPairs}`);
    if (theta0.length > noise.size) throw new Error(`EsLearner: ${theta0.length} parameters exceed the noise table (${noise.size})`);
    this.theta = Float32Array.from(theta0);
    this.rng = new Rng(this.config.seed).fork(0xe5);
    this.m = new Float64Array(theta0.length);
    this.v = new Float64Array(theta0.length);
  }

  get dim(): number {
    return this.theta.length;
  }

  /** Step 1: `numPairs` noise offsets for this generation. */
  ask(numPairs: number = this.config.numPairs): Int32Array {
    const out = new Int32Array(numPairs);
    for (let k = 0; k < numPairs; k++) out[k] = this.noise.sampleIndex(this.rng, this.dim);
    return out;
  }

  /** θ + sign·σ·ε_j, a fresh array (or written into `out`). */
  perturbed(noiseIndex: number, sign: 1 | -1, out: Float32Array = new Float32Array(this.dim)): Float32Array {
    const eps = this.noise.get(noiseIndex, this.dim);
    const s = sign * this.config.sigma;
    for (let i = 0; i < this.dim; i++) out[i] = this.theta[i] + s * eps[i];
    return out;
  }

  /** Steps 2–4: shape the returns, estimate g, update θ. Returns metrics as numbers. */
  tell(results: readonly EsResult[]): Record<string, number> {
    const pairs = results.length;
    if (pairs < 1) throw new Error('EsLearner.tell: no results');
    const n = 2 * pairs;
    const { sigma, lr, l2Coeff } = this.config;

    // 2. Fitness shaping over all n returns: [F⁺_0, F⁻_0, F⁺_1, F⁻_1, …].
    const raw = new Float64Array(n);
    results.forEach((r, j) => {
      raw[2 * j] = r.returnPos;
      raw[2 * j + 1] = r.returnNeg;
    });
    let shaped: ArrayLike<number>;
    if (this.config.fitnessShaping === 'centeredRank') {
      shaped = centeredRanks(raw);
    } else {
      const mean = raw.reduce((a, b) => a + b, 0) / n;
      shaped = raw.map((x) => x - mean);
    }

    // 3. g = 1/(nσ) Σ_j (F̃⁺_j − F̃⁻_j) ε_j
    const g = new Float64Array(this.dim);
    for (let j = 0; j < pairs; j++) {
      const w = shaped[2 * j] - shaped[2 * j + 1];
      if (w === 0) continue;
      const eps = this.noise.get(results[j].noiseIndex, this.dim);
      for (let i = 0; i < this.dim; i++) g[i] += w * eps[i];
    }
    let gradNorm = 0;
    for (let i = 0; i < this.dim; i++) {
      g[i] = g[i] / (n * sigma) - l2Coeff * this.theta[i]; // ascent direction, with weight decay
      gradNorm += g[i] * g[i];
    }

    // 4. The update.
    this.t++;
    let updateNorm = 0;
    if (this.config.optimizer === 'adam') {
      const { beta1, beta2, adamEps } = this.config;
      const a = (lr * Math.sqrt(1 - beta2 ** this.t)) / (1 - beta1 ** this.t); // bias-corrected step
      for (let i = 0; i < this.dim; i++) {
        this.m[i] = beta1 * this.m[i] + (1 - beta1) * g[i];
        this.v[i] = beta2 * this.v[i] + (1 - beta2) * g[i] * g[i];
        const step = (a * this.m[i]) / (Math.sqrt(this.v[i]) + adamEps);
        this.theta[i] += step;
        updateNorm += step * step;
      }
    } else {
      for (let i = 0; i < this.dim; i++) {
        const step = lr * g[i];
        this.theta[i] += step;
        updateNorm += step * step;
      }
    }

    let sum = 0;
    let max = -Infinity;
    let min = Infinity;
    for (let i = 0; i < n; i++) {
      sum += raw[i];
      max = Math.max(max, raw[i]);
      min = Math.min(min, raw[i]);
    }
    return { returnMean: sum / n, returnMax: max, returnMin: min, gradNorm: Math.sqrt(gradNorm), updateNorm: Math.sqrt(updateNorm), generation: this.t };
  }

  /**
   * One whole generation in this thread: ask, evaluate F(θ ± σε_j) with `evaluate`, tell.
   * (The parallel engine does the evaluations on actors instead.)
   */
  step(evaluate: (params: Float32Array) => number): Record<string, number> {
    const scratch = new Float32Array(this.dim);
    const results: EsResult[] = Array.from(this.ask(), (noiseIndex) => ({
      noiseIndex,
      returnPos: evaluate(this.perturbed(noiseIndex, 1, scratch)),
      returnNeg: evaluate(this.perturbed(noiseIndex, -1, scratch)),
    }));
    return this.tell(results);
  }
}

/** Concatenate weight arrays (in `Model.variables()` order) into one flat θ. */
export function flattenWeights(ws: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(ws.reduce((n, w) => n + w.length, 0));
  let o = 0;
  for (const w of ws) {
    out.set(w, o);
    o += w.length;
  }
  return out;
}

/** Split a flat θ back into arrays of the given sizes (fresh copies). */
export function unflattenWeights(flat: Float32Array, sizes: readonly number[]): Float32Array[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  if (flat.length !== total) throw new Error(`unflattenWeights: ${flat.length} values for sizes summing to ${total}`);
  const out: Float32Array[] = [];
  let o = 0;
  for (const s of sizes) {
    out.push(flat.slice(o, o + s));
    o += s;
  }
  return out;
}

/** Sizes of a model's variables, in `variables()` order. */
export function weightSizes(model: Model<ModelOutput>): number[] {
  return model.weightSpecs().map((s) => s.shape.reduce((a, b) => a * b, 1));
}

/** A model's weights as one flat θ. */
export function getFlatWeights(model: Model<ModelOutput>): Float32Array {
  return flattenWeights(model.getWeights());
}

/** Load a flat θ into a model. */
export function setFlatWeights(model: Model<ModelOutput>, flat: Float32Array): void {
  model.setWeights(unflattenWeights(flat, weightSizes(model)));
}
