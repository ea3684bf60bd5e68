/** Shared fixtures for the algorithm tests. */
import { expect } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import type { Model } from '../../../src/core/model';
import { Rng } from '../../../src/core/rng';

export const obsDim = 4;
export const numActions = 2;

/** A random time-major rollout of T steps × N envs (dones at a few steps). */
export function rollout(T: number, N: number, seed: number) {
  const rng = new Rng(seed);
  const B = T * N;
  const obs = new Float32Array(B * obsDim).map(() => rng.normal());
  const actions = new Int32Array(B).map(() => rng.int(numActions));
  const rewards = new Float32Array(B).map(() => rng.uniform());
  const dones = new Uint8Array(B).map(() => (rng.uniform() < 0.1 ? 1 : 0));
  const values = new Float32Array(B).map(() => rng.normal() * 0.1);
  const lastValues = new Float32Array(N).map(() => rng.normal() * 0.1);
  const bootstrapObs = new Float32Array(N * obsDim).map(() => rng.normal());
  return { obs, actions, rewards, dones, values, lastValues, bootstrapObs, batchSize: B, numEnvs: N };
}

/** log π(a|s) under a model with a `logits` head, read back as a Float32Array. */
export function logProbsOf(model: Model<{ logits: tf.Tensor2D }>, obs: Float32Array, actions: Int32Array): Float32Array {
  const t = tf.tidy(() => {
    const x = tf.tensor2d(obs, [actions.length, obs.length / actions.length]);
    const logp = tf.logSoftmax(model.forward(x).logits);
    return tf.sum(tf.mul(logp, tf.oneHot(tf.tensor1d(actions, 'int32'), logp.shape[1])), 1);
  });
  const out = new Float32Array(t.dataSync());
  t.dispose();
  return out;
}

/** Run `fn` once (optimizer state is created then), then `n` times: the tensor count must not move. */
export function expectNoLeak(fn: () => void, n = 30): void {
  fn();
  const before = tf.memory().numTensors;
  for (let i = 0; i < n; i++) fn();
  expect(tf.memory().numTensors).toBe(before);
}

/** Read a scalar computed inside tf.tidy. */
export function scalar(f: () => tf.Scalar): number {
  return tf.tidy(() => f().dataSync()[0]);
}

/** One predict and one sample call, disposing everything (for the leak tests). */
export function actOnce(alg: { predict(x: tf.Tensor2D): tf.Tensor; sample(x: tf.Tensor2D): tf.Tensor }): void {
  const x = tf.ones([2, obsDim]) as tf.Tensor2D;
  tf.dispose([alg.predict(x), alg.sample(x), x]);
}
