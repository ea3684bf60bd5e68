import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { blockedIsFaster, blockedMatMulStats, installBlockedTransposedMatMul, WASM_MATMUL_BLOCK } from '../../../src/core/blockedMatMul';
import { Rng } from '../../../src/core/rng';
import { mixedFloats, tensorBits } from './floatCases';
import { loadSimdKernels, simdKernelsLoaded } from '../../../src/core/simd/kernels';

const bits = tensorBits;
const values = (rng: Rng, size: number) => mixedFloats(rng, size);

// [m, k, n] of op(A)·op(B): the shared dimension below, at, between and well above the 48-wide blocks.
const SHAPES: Array<[number, number, number]> = [
  [64, 256, 64], [256, 64, 64], [64, 48, 64], [64, 49, 64], [256, 96, 64], [100, 1000, 30], [64, 47, 3], [4, 256, 64], [256, 2, 64],
];
const FLAGS: Array<[boolean, boolean]> = [[true, false], [false, true], [true, true]];

interface ProductCase {
  m: number;
  k: number;
  n: number;
  tA: boolean;
  tB: boolean;
  a: tf.Tensor2D;
  b: tf.Tensor2D;
  plain: number[];
}
/** Every shape and transpose with tfjs's own result, kept for the SIMD route's test. */
let cases: ProductCase[] = [];

// The tests run in order: first the block route (the SIMD kernels not loaded yet), then the SIMD route.
describe('blocked transposed products on tfjs-wasm', () => {
  it('give the same bits as tfjs-wasm plain loop for every shape and transpose, and really take the block route', async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    expect(simdKernelsLoaded()).toBe(false);
    const rng = new Rng(7);
    cases = SHAPES.flatMap(([m, k, n]) =>
      FLAGS.map(([tA, tB]) => {
        const a = tf.tensor2d(values(rng, m * k), tA ? [k, m] : [m, k]);
        const b = tf.tensor2d(values(rng, k * n), tB ? [n, k] : [k, n]);
        return { m, k, n, tA, tB, a, b, plain: bits(tf.matMul(a, b, tA, tB)) };
      }),
    );
    expect(installBlockedTransposedMatMul()).toBe(true);
    const before = blockedMatMulStats.products;
    let routed = 0;
    for (const c of cases) {
      const got = bits(tf.matMul(c.a, c.b, c.tA, c.tB));
      expect(got, `${c.m}x${c.k}x${c.n} tA=${c.tA} tB=${c.tB}`).toEqual(c.plain);
      if (blockedIsFaster(c.m, c.k, c.n)) routed++;
    }
    expect(routed).toBeGreaterThan(10);
    expect(blockedMatMulStats.products - before).toBe(routed);
  });

  it('gives a dense layer weight gradient in the plain loop summation order (checked by hand), through the block route', async () => {
    await tf.setBackend('wasm');
    installBlockedTransposedMatMul();
    const rng = new Rng(11);
    const x = tf.tensor2d(values(rng, 256 * 4), [256, 4]);
    const w1 = tf.tensor2d(values(rng, 4 * 64), [4, 64]);
    const w2 = tf.variable(tf.tensor2d(values(rng, 64 * 64), [64, 64]));
    const w3 = tf.tensor2d(values(rng, 64 * 2), [64, 2]);
    const h1 = tf.tanh(tf.matMul(x, w1));
    const head = (z: tf.Tensor) => tf.sum(tf.square(tf.matMul(tf.tanh(z), w3)));
    const routed = blockedMatMulStats.products;
    const g2 = tf.variableGrads(() => head(tf.matMul(h1, w2)) as tf.Scalar).grads[w2.name];
    expect(blockedMatMulStats.products).toBeGreaterThan(routed);
    // ∂L/∂W2 = h1ᵀ · ∂L/∂z2, a 64×256·256×64 product: six blocks of the shared (batch) dimension.
    const dz2 = tf.grad(head)(tf.matMul(h1, w2));
    expect(bits(g2)).toEqual(byHand(h1, dz2));
  });

  it('the SIMD route gives the same bits for every shape and transpose, and is taken for each', async () => {
    expect(await loadSimdKernels()).toBe(true);
    expect(cases.length).toBe(SHAPES.length * FLAGS.length);
    const before = { ...blockedMatMulStats };
    for (const c of cases) {
      expect(bits(tf.matMul(c.a, c.b, c.tA, c.tB)), `${c.m}x${c.k}x${c.n} tA=${c.tA} tB=${c.tB}`).toEqual(c.plain);
    }
    expect(blockedMatMulStats.simd - before.simd).toBe(cases.length);
    expect(blockedMatMulStats.products).toBe(before.products);
  });

  it('the SIMD route gives a dense layer weight gradient in the plain loop order (checked by hand)', async () => {
    expect(simdKernelsLoaded()).toBe(true);
    const rng = new Rng(12);
    const h1 = tf.tanh(tf.tensor2d(values(rng, 256 * 64), [256, 64]));
    const dz = tf.tensor2d(values(rng, 256 * 6), [256, 6]); // 6 columns: the last two in a padded lane group
    const before = blockedMatMulStats.simd;
    expect(bits(tf.matMul(h1, dz, true, false))).toEqual(byHand(h1, dz));
    expect(blockedMatMulStats.simd).toBe(before + 1);
  });

  it('estimates the route from the work per block', () => {
    expect(blockedIsFaster(256, 64, 64)).toBe(true);
    expect(blockedIsFaster(64, 256, 64)).toBe(true);
    expect(blockedIsFaster(4, 256, 64)).toBe(false);
    expect(blockedIsFaster(2, 2, 2)).toBe(false);
    expect(WASM_MATMUL_BLOCK).toBe(48);
  });
});

/** h1ᵀ·dz in the plain loop's order, in float32 by hand: per 48-row block a sum from 0, blocks added in order. */
function byHand(h1: tf.Tensor, dz: tf.Tensor): number[] {
  const [rows, m] = h1.shape;
  const n = dz.shape[1] ?? 0;
  const a = h1.dataSync();
  const b = dz.dataSync();
  const out = new Float32Array(m * n);
  const f = Math.fround;
  for (let k0 = 0; k0 < rows; k0 += WASM_MATMUL_BLOCK) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let k = k0; k < Math.min(k0 + WASM_MATMUL_BLOCK, rows); k++) s = f(s + f(a[k * m + i] * b[k * n + j]));
        out[i * n + j] = f(out[i * n + j] + s);
      }
    }
  }
  return Array.from(new Uint32Array(out.buffer));
}
