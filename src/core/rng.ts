/**
 * The one source of randomness in the project. Every random draw (environment resets, action
 * sampling, weight init, task generation, noise tables) goes through an `Rng` built from a seed,
 * so the same seed and config give the same numbers.
 *
 * Built on pure-rand's xoroshiro128+. Seeds are mixed with a splitmix-style hash first, because
 * xoroshiro seeded with small consecutive integers gives correlated first outputs.
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { cos, log, sin } from './portableMath';

/** 32-bit avalanche hash (the murmur3 finaliser). */
function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** Derive a well-mixed 32-bit seed from a seed and any number of stream ids. */
export function deriveSeed(seed: number, ...streams: number[]): number {
  let h = mix32((seed | 0) ^ 0x9e3779b9);
  for (const s of streams) h = mix32(h ^ mix32((s | 0) + 0x7f4a7c15));
  return h >>> 0;
}

type Xoroshiro = ReturnType<typeof xoroshiro128plus>;

export class Rng {
  private gen: Xoroshiro;
  private spareNormal: number | null = null;

  constructor(readonly seed: number) {
    if (!Number.isFinite(seed)) throw new Error(`Rng seed must be a finite number, got ${seed}`);
    this.gen = xoroshiro128plus(deriveSeed(Math.trunc(seed)));
  }

  /** An independent generator for a sub-stream (actor i, env j, ...), stable for a given seed. */
  fork(...streams: number[]): Rng {
    return new Rng(deriveSeed(this.seed, ...streams));
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    return this.gen.next() >>> 0;
  }

  /** Uniform double in [0, 1) with 53 bits of precision. */
  uniform(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform double in [low, high). */
  uniformRange(low: number, high: number): number {
    return low + (high - low) * this.uniform();
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!(n >= 1)) throw new Error(`Rng.int needs n >= 1, got ${n}`);
    return Math.floor(this.uniform() * n);
  }

  /**
   * Standard normal draw (Box-Muller, caching the second value): r = √(−2 ln u), r·cos 2πv and r·sin 2πv.
   * The portable log/sin/cos, not Math's: the page's and Node's engines differ in their last bits.
   */
  normal(): number {
    if (this.spareNormal !== null) {
      const v = this.spareNormal;
      this.spareNormal = null;
      return v;
    }
    let u = 0;
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * log(u));
    this.spareNormal = r * sin(2 * Math.PI * v);
    return r * cos(2 * Math.PI * v);
  }

  /** Index drawn from unnormalised non-negative weights `p[offset .. offset+n)`. */
  categorical(p: ArrayLike<number>, offset = 0, n = p.length - offset): number {
    let total = 0;
    for (let i = 0; i < n; i++) total += p[offset + i];
    let u = this.uniform() * total;
    for (let i = 0; i < n; i++) {
      u -= p[offset + i];
      if (u < 0) return i;
    }
    // Rounding can leave u at a hair above 0: return the last index with weight.
    for (let i = n - 1; i >= 0; i--) if (p[offset + i] > 0) return i;
    return n - 1;
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = xs[i];
      xs[i] = xs[j];
      xs[j] = t;
    }
    return xs;
  }

  /** Serializable state, to checkpoint and resume a stream exactly. */
  getState(): number[] {
    return [...this.gen.getState(), this.spareNormal === null ? NaN : this.spareNormal];
  }

  setState(state: readonly number[]): void {
    this.gen = xoroshiro128plusFromState(state.slice(0, 4));
    this.spareNormal = Number.isNaN(state[4]) ? null : state[4];
  }
}
