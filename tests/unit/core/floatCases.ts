/** Shared fixtures for the tests that compare float32 results bit for bit. */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../../../src/core/rng';

/** A tensor's float32 bit patterns, so −0, NaN and every last bit count. */
export const tensorBits = (t: tf.Tensor): number[] => Array.from(new Uint32Array(new Float32Array(t.dataSync()).buffer));

/**
 * Values of very different sizes: 3 % exactly 0, 2 % −0, then (with `infinities`) 0.1 % +∞, the rest
 * normal · 10^e with e uniform over `decades` consecutive integers from `lowest`.
 */
export function mixedFloats(rng: Rng, size: number, { lowest = -3, decades = 7, infinities = false } = {}): Float32Array {
  return Float32Array.from({ length: size }, () => {
    const u = rng.uniform();
    if (u < 0.03) return 0;
    if (u < 0.05) return -0;
    if (infinities && u < 0.051) return Infinity;
    return rng.normal() * 10 ** (rng.int(decades) + lowest);
  });
}
