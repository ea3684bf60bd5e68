import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { FastMlp } from '../../../src/core/fastMlp';
import type { MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { SimdDenseStack } from '../../../src/core/simd/denseStack';

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

beforeAll(async () => {
  expect((await chooseBackend({ preferred: 'wasm' })).name).toBe('wasm');
});

/** Values over several scales, with some exact zeros. */
function values(rng: Rng, n: number): Float32Array {
  return Float32Array.from({ length: n }, () => (rng.uniform() < 0.05 ? 0 : rng.normal() * 10 ** (rng.int(3) - 1)));
}

/** tfjs-wasm's layers on the same weights: h ← act(h·W_i + b_i), no activation after the last. */
function tfjsStack(x: Float32Array, rows: number, dims: number[], ws: Float32Array[], act: 'tanh' | 'relu'): Float32Array {
  return tf.tidy(() => {
    let h: tf.Tensor2D = tf.tensor2d(x, [rows, dims[0]]);
    for (let i = 0; i + 1 < dims.length; i++) {
      h = tf.add(tf.matMul(h, tf.tensor2d(ws[2 * i], [dims[i], dims[i + 1]])), tf.tensor1d(ws[2 * i + 1]));
      if (i + 2 < dims.length) h = act === 'tanh' ? tf.tanh(h) : tf.relu(h);
    }
    return h.dataSync<'float32'>().slice();
  });
}

describe('the SIMD dense layers', () => {
  it('give tfjs-wasm\'s bits and the JS path\'s on random shapes (rows, inputs and outputs 1..70, not multiples of 4)', () => {
    const rng = new Rng(77);
    let cases = 0;
    for (let c = 0; c < 36; c++) {
      const depth = 1 + (c % 3);
      const dims = Array.from({ length: depth + 1 }, () => 1 + rng.int(70));
      if (c < 6) dims[depth] = [1, 2, 3, 5, 6, 7][c]; // narrow heads: fewer outputs than a vector
      const act = c % 2 === 0 ? 'tanh' : 'relu';
      const ws = dims.slice(1).flatMap((out, i) => [values(rng, dims[i] * out), values(rng, out)]);
      const spec: MlpSpec = { obsDim: dims[0], hidden: dims.slice(1, -1), numActions: dims[depth], activation: act, kind: 'policy' };
      const simd = new FastMlp(spec);
      const js = new FastMlp(spec, { simd: false });
      expect(simd.usesSimd).toBe(true);
      simd.setWeights(ws);
      js.setWeights(ws);
      for (const rows of [1 + rng.int(70), 1 + rng.int(70)]) {
        const x = values(rng, rows * dims[0]);
        const want = bits(tfjsStack(x, rows, dims, ws, act));
        expect(bits(simd.forward(x, rows)), `${rows} rows, ${dims.join('→')} ${act}`).toEqual(want);
        expect(bits(js.forward(x, rows))).toEqual(want);
        cases++;
      }
    }
    expect(cases).toBe(72);
  });

  it('keep the weights when the batch grows, and take new ones when they are set again', () => {
    const rng = new Rng(5);
    const dims = [5, 9, 3];
    const stack = SimdDenseStack.create(dims, 'tanh');
    expect(stack).not.toBeNull();
    let ws = [values(rng, 45), values(rng, 9), values(rng, 27), values(rng, 3)];
    const load = () => ws.forEach((_, i) => i % 2 === 0 && stack!.setLayer(i / 2, ws[i], ws[i + 1]));
    load();
    for (const rows of [1, 2, 40, 3000, 7]) {
      const x = values(rng, rows * 5);
      const out = new Float32Array(rows * 3);
      stack!.forward(x, rows, out);
      expect(bits(out)).toEqual(bits(tfjsStack(x, rows, dims, ws, 'tanh')));
    }
    ws = ws.map((w) => values(rng, w.length));
    load();
    const x = values(rng, 10 * 5);
    const out = new Float32Array(10 * 3);
    stack!.forward(x, 10, out);
    expect(bits(out)).toEqual(bits(tfjsStack(x, 10, dims, ws, 'tanh')));
  });
});
