import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { denseLayer } from '../../../src/core/denseKernel';
import { applyStack } from '../../../src/core/continuousMlp';
import { DenseStack } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { runOnWasm } from './offPolicySetup';

runOnWasm();

const close = (got: ArrayLike<number>, want: number[], digits = 5) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => expect(got[i]).toBeCloseTo(w, digits));
};

/** d/d(x, W, b) of L = Σ c ⊙ act(x·W + b) for one row x = [1, 2], W = [[1, −1], [0.5, 2]], b = [0.1, −5], c = [1, 3]. */
function gradsByKernel(activation: 'linear' | 'relu') {
  const x = tf.tensor2d([[1, 2]]);
  const w = tf.tensor2d([[1, -1], [0.5, 2]]);
  const b = tf.tensor1d([0.1, -5]);
  const c = tf.tensor2d([[1, 3]]);
  const f = (xx: tf.Tensor, ww: tf.Tensor, bb: tf.Tensor) => tf.sum(tf.mul(c, denseLayer(xx as tf.Tensor2D, ww as tf.Tensor2D, bb as tf.Tensor1D, activation)));
  const [dx, dw, db] = tf.grads(f)([x, w, b]);
  const y = denseLayer(x, w, b, activation);
  const out = { y: y.dataSync(), dx: dx.dataSync(), dw: dw.dataSync(), db: db.dataSync() };
  tf.dispose([x, w, b, c, dx, dw, db, y]);
  return out;
}

describe('denseLayer (one kernel with explicit-transpose gradients)', () => {
  it('relu: z = x·W + b = [2.1, −2], y = [2.1, 0]; dz = c ⊙ [z > 0] = [1, 0]; ∂x = dz·Wᵀ, ∂W = xᵀ·dz, ∂b = dz', () => {
    const g = gradsByKernel('relu');
    close(g.y, [2.1, 0]);
    close(g.dx, [1, 0.5]); // [1·1 + 0·(−1), 1·0.5 + 0·2]
    close(g.dw, [1, 0, 2, 0]); // [[1·1, 1·0], [2·1, 2·0]]
    close(g.db, [1, 0]);
  });

  it('linear: y = z = [2.1, −2]; dz = c = [1, 3]', () => {
    const g = gradsByKernel('linear');
    close(g.y, [2.1, -2]);
    close(g.dx, [-2, 6.5]); // [1·1 + 3·(−1), 1·0.5 + 3·2]
    close(g.dw, [1, 3, 2, 6]);
    close(g.db, [1, 3]);
  });

  it('a stack through the kernel matches DenseStack.apply and its tfjs gradients on a batch', () => {
    const rng = new Rng(3);
    for (const activation of ['relu', 'tanh'] as const) {
      const stack = new DenseStack('t', 4, [8, 8], 2, activation, 1, rng.fork(activation === 'relu' ? 1 : 2));
      const x = tf.tensor2d(Float32Array.from({ length: 5 * 4 }, () => rng.normal()), [5, 4]);
      const loss = (apply: () => tf.Tensor) => () => tf.sum(tf.square(apply())) as tf.Scalar;
      const ours = tf.variableGrads(loss(() => applyStack(stack, x)), stack.variables());
      const theirs = tf.variableGrads(loss(() => stack.apply(x)), stack.variables());
      expect(ours.value.dataSync()[0]).toBeCloseTo(theirs.value.dataSync()[0], 4);
      for (const v of stack.variables()) close(ours.grads[v.name].dataSync(), Array.from(theirs.grads[v.name].dataSync()), 4);
      tf.dispose([x, ours.value, theirs.value, ...Object.values(ours.grads), ...Object.values(theirs.grads)]);
      tf.dispose(stack.variables());
    }
  });

  it('computes only the gradients asked for, each as one untransposed product after an explicit transpose', async () => {
    const x = tf.randomNormal([16, 8]) as tf.Tensor2D;
    const w = tf.variable(tf.randomNormal([8, 4]));
    const b = tf.variable(tf.zeros([4]));
    const layer = (xx: tf.Tensor) => tf.sum(denseLayer(xx as tf.Tensor2D, w as tf.Tensor2D, b as tf.Tensor1D, 'relu')) as tf.Scalar;
    const products = async (f: () => tf.Tensor | tf.Tensor[]) => {
      const p = await tf.profile(() => tf.dispose(f()));
      const count = (name: string) => p.kernels.filter((k) => k.name === name).length;
      return [count('BatchMatMul'), count('Transpose')];
    };
    expect(await products(() => tf.grad(layer)(x))).toEqual([1, 1]); // ∂x = dz·Wᵀ, no ∂W
    expect(await products(() => Object.values(tf.variableGrads(() => layer(x), [w as tf.Variable]).grads))).toEqual([1, 1]); // ∂W = xᵀ·dz, no ∂x
    tf.dispose([x, w, b]);
  });
});
