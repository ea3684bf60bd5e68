import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { installSimdColumnSum, simdColumnSumStats } from '../../../src/core/simd/columnSumKernel';
import { Rng } from '../../../src/core/rng';
import { mixedFloats, tensorBits } from './floatCases';

const bits = tensorBits;
const values = (rng: Rng, size: number) => mixedFloats(rng, size, { lowest: -4, decades: 9, infinities: true });

const SHAPES: Array<[number, number]> = [[256, 64], [256, 4], [1, 16], [33, 20], [1000, 68], [7, 8], [256, 2], [256, 1], [5, 6]];

describe('first-axis sums through the SIMD kernel on tfjs-wasm', () => {
  it('give tfjs-wasm own bits for every shape, axis and keepDims, and take the route exactly where it applies', async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    const rng = new Rng(5);
    const cases = SHAPES.flatMap(([r, c]) =>
      [0, -2, 1, [0, 1]].flatMap((axis) =>
        [false, true].map((keepDims) => {
          const x = tf.tensor2d(values(rng, r * c), [r, c]);
          return { r, c, axis, keepDims, x, plain: tf.sum(x, axis, keepDims) };
        }),
      ),
    );
    expect(await installSimdColumnSum()).toBe(true);
    const before = simdColumnSumStats.calls;
    let expected = 0;
    for (const k of cases) {
      const got = tf.sum(k.x, k.axis, k.keepDims);
      const what = `[${k.r}, ${k.c}] axis ${JSON.stringify(k.axis)} keepDims ${k.keepDims}`;
      expect(got.shape, what).toEqual(k.plain.shape);
      expect(bits(got), what).toEqual(bits(k.plain));
      if ((k.axis === 0 || k.axis === -2) && k.c % 4 === 0) expected++;
    }
    expect(expected).toBeGreaterThan(20);
    expect(simdColumnSumStats.calls - before).toBe(expected);
  });

  it('gives a dense layer bias gradient in row order (checked by hand)', async () => {
    await tf.setBackend('wasm');
    await installSimdColumnSum();
    const rng = new Rng(6);
    const dy = tf.tensor2d(values(rng, 300 * 12), [300, 12]);
    const b = tf.variable(tf.zeros([12]));
    const before = simdColumnSumStats.calls;
    const g = tf.variableGrads(() => tf.sum(tf.mul(tf.add(tf.zeros([300, 12]), b), dy)) as tf.Scalar).grads[b.name];
    expect(simdColumnSumStats.calls).toBeGreaterThan(before);
    const d = dy.dataSync();
    const byHand = new Float32Array(12);
    for (let j = 0; j < 12; j++) {
      let s = 0;
      for (let r = 0; r < 300; r++) s = Math.fround(s + d[r * 12 + j]);
      byHand[j] = s;
    }
    expect(bits(g)).toEqual(Array.from(new Uint32Array(byHand.buffer)));
  });
});
