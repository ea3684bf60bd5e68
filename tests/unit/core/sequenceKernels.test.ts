import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseBackend } from '../../../src/core/backend';
import { Rng } from '../../../src/core/rng';
import { unstackSteps } from '../../../src/core/sequenceKernels';

describe.each(['wasm', 'cpu'] as const)('unstackSteps on %s', (backend) => {
  beforeAll(async () => {
    await chooseBackend({ preferred: backend });
  });
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  it('gives the axis-0 slices; the gradient is the slices\' gradients stacked, zeros for an unused slice', () => {
    expect(tf.getBackend()).toBe(backend);
    const rng = new Rng(1);
    const values = Float32Array.from({ length: 4 * 3 * 2 }, () => rng.normal());
    const x = tf.tensor3d(values, [4, 3, 2]);
    const parts = unstackSteps<tf.Tensor2D>(x);
    expect(parts.map((p) => p.shape)).toEqual([[3, 2], [3, 2], [3, 2], [3, 2]]);
    parts.forEach((p, t) => expect(Array.from(p.dataSync())).toEqual(Array.from(values.subarray(t * 6, (t + 1) * 6))));
    // L = Σ (t + 1) · Σ slice_t² over slices 0, 1, 3 (slice 2 unused): ∂L/∂x = 2 (t + 1) x, 0 on slice 2
    const grad = tf.grad((v: tf.Tensor) => {
      const s = unstackSteps<tf.Tensor2D>(v);
      return tf.addN([0, 1, 3].map((t) => tf.mul(t + 1, tf.sum(tf.square(s[t]))))) as tf.Scalar;
    })(x);
    const g = grad.dataSync();
    for (let i = 0; i < values.length; i++) {
      const t = Math.floor(i / 6);
      expect(g[i]).toBeCloseTo(t === 2 ? 0 : 2 * (t + 1) * values[i], 5);
    }
    tf.dispose([x, grad, ...parts]);
  });
});
