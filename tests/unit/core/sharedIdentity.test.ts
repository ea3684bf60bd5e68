import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { installSharedIdentity, sharedIdentityStats } from '../../../src/core/sharedIdentity';
import { Rng } from '../../../src/core/rng';

const bits = (t: tf.Tensor) => Array.from(new Uint32Array(new Float32Array(t.dataSync()).buffer));

/** A small two-layer tanh network's loss gradients: the tape saves (clones) x, W1, h and W2. */
function gradients(x: tf.Tensor2D, w1: tf.Variable, w2: tf.Variable): number[][] {
  const { grads, value } = tf.variableGrads(() => tf.mean(tf.square(tf.matMul(tf.tanh(tf.matMul(x, w1)), w2))) as tf.Scalar, [w1, w2]);
  const out = [bits(value), bits(grads[w1.name]), bits(grads[w2.name])];
  tf.dispose([value, ...Object.values(grads)]);
  return out;
}

describe('tfjs-wasm Identity sharing its input buffer', () => {
  it('leaves every gradient bit the same, takes the shared route, and frees every buffer', async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    const rng = new Rng(3);
    const x = tf.tensor2d(Float32Array.from({ length: 32 * 5 }, () => rng.normal()), [32, 5]);
    const w1 = tf.variable(tf.tensor2d(Float32Array.from({ length: 5 * 8 }, () => rng.normal()), [5, 8]));
    const w2 = tf.variable(tf.tensor2d(Float32Array.from({ length: 8 * 3 }, () => rng.normal()), [8, 3]));
    const copied = gradients(x, w1, w2);

    expect(installSharedIdentity()).toBe(true);
    const before = sharedIdentityStats.shared;
    const buffersBefore = tf.engine().backend.numDataIds();
    const shared = gradients(x, w1, w2);
    expect(shared).toEqual(copied);
    expect(sharedIdentityStats.shared).toBeGreaterThan(before);
    expect(tf.engine().backend.numDataIds()).toBe(buffersBefore);
    tf.dispose([x, w1, w2]);
  });

  it('keeps a clone readable after its source is disposed, and unchanged when a variable is reassigned', async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    installSharedIdentity();
    const a = tf.tensor1d([1.5, -2, 0.25]);
    const c = tf.clone(a);
    a.dispose();
    expect(Array.from(c.dataSync())).toEqual([1.5, -2, 0.25]);

    const v = tf.variable(tf.tensor1d([4, 5]));
    const saved = tf.clone(v);
    v.assign(tf.tensor1d([7, 8]));
    expect(Array.from(saved.dataSync())).toEqual([4, 5]);
    expect(Array.from(v.dataSync())).toEqual([7, 8]);
    tf.dispose([c, v, saved]);
  });
});
