/**
 * The shared noise table of OpenAI's evolution strategies (Salimans et al. 2017, "Evolution
 * Strategies as a Scalable Alternative to Reinforcement Learning", section 2.1).
 *
 * One long Float32Array of standard normals, generated from a seed. The learner and every actor
 * build the SAME table from the same (seed, size), so a perturbation ε ∈ ℝ^dim is named by one
 * integer, its offset: ε = table[index … index + dim). Only (noise index, returns) travel between
 * threads, never parameter vectors.
 *
 * OpenAI used 250 M floats (1 GB, seed 123) shared between processes; a browser worker builds its
 * own copy, so the default here is 2^21 floats (8 MB, ~0.1 s to build), plenty for an MLP of
 * a few thousand parameters (offsets overlap, which the paper's table does too).
 */
import { Rng } from '../core/rng';

export const NOISE_TABLE_DEFAULTS = Object.freeze({ seed: 123, size: 1 << 21 });

export class NoiseTable {
  /** The normals themselves (read-only by convention). */
  readonly noise: Float32Array;

  constructor(
    readonly seed: number = NOISE_TABLE_DEFAULTS.seed,
    readonly size: number = NOISE_TABLE_DEFAULTS.size,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`NoiseTable: size must be a positive integer, got ${size}`);
    const rng = new Rng(seed).fork(0x7ab1e);
    this.noise = new Float32Array(size);
    for (let i = 0; i < size; i++) this.noise[i] = rng.normal();
  }

  /** ε = table[index … index + dim), a VIEW (no copy; do not write to it). */
  get(index: number, dim: number): Float32Array {
    if (!Number.isInteger(index) || index < 0 || index + dim > this.size) {
      throw new Error(`NoiseTable.get: index ${index} with dim ${dim} is outside the table of ${this.size}`);
    }
    return this.noise.subarray(index, index + dim);
  }

  /** A uniform offset in [0, size − dim] (OpenAI: rs.randint(0, len(noise) − dim + 1)). */
  sampleIndex(rng: Rng, dim: number): number {
    if (dim > this.size) throw new Error(`NoiseTable.sampleIndex: dim ${dim} exceeds the table size ${this.size}`);
    return rng.int(this.size - dim + 1);
  }
}
