/** Setup the DDPG, TD3 and SAC tests share: small nets on the wasm backend, random batches, tensor read-outs. */
import { beforeAll, expect } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { normalNoise, type ActorSpec, type CriticSpec } from '../../../src/core/continuousMlp';
import { Rng } from '../../../src/core/rng';
import { noiseTensor, toContinuousBatch, type ContinuousBatch } from '../../../src/algorithms/offPolicy';
import { ContinuousReplayBuffer } from '../../../src/algorithms/replayBuffer';

/** Run the file's tests on tfjs's wasm backend (what the actors and the learner use). */
export function runOnWasm(): void {
  beforeAll(async () => {
    await chooseBackend({ preferred: 'wasm' });
  });
}

export const obsDim = 3;
export const actionDim = 2;
export const actorSpec: ActorSpec = { obsDim, actionDim, hidden: [16], activation: 'relu', actionLow: [-2, -1], actionHigh: [2, 1] };
export const criticSpec: CriticSpec = { obsDim, actionDim, hidden: [16], activation: 'relu' };

/**
 * B random transitions through the replay buffer and the tensor conversion, and the Rng that drew
 * them (it goes on to draw the batch's noise, see `noiseOf`).
 */
export function randomBatch(B: number, seed: number): { batch: ContinuousBatch; rng: Rng } {
  const rng = new Rng(seed);
  const buf = new ContinuousReplayBuffer(B, obsDim, actionDim, seed);
  for (let i = 0; i < B; i++) {
    buf.add(normalNoise(rng, obsDim), [rng.uniformRange(-2, 2), rng.uniformRange(-1, 1)], rng.normal(), normalNoise(rng, obsDim), rng.uniform() < 0.2);
  }
  return { batch: toContinuousBatch(buf.sample(B), obsDim, actionDim), rng };
}

/** [B, actionDim] standard-normal draws from `rng`, as a tensor. */
export const noiseOf = (rng: Rng, B: number): tf.Tensor2D => noiseTensor(normalNoise(rng, B * actionDim), B, actionDim);

export const disposeBatch = (b: object) => tf.dispose(Object.values(b) as tf.Tensor[]);

/** The values of `t`, which is disposed. */
export const read = (t: tf.Tensor) => {
  const out = Array.from(t.dataSync());
  t.dispose();
  return out;
};

/** Whether two weight lists are equal value for value. */
export const same = (a: Float32Array[], b: Float32Array[]) => a.every((w, i) => w.every((v, k) => v === b[i][k]));

/** What the memory-contract check drives: an update rule that acts on tensors. */
interface ActingLearner<B> {
  learn(batch: B): Record<string, number>;
  predict(obs: tf.Tensor2D): tf.Tensor;
  sample(obs: tf.Tensor2D): tf.Tensor;
  explore(obs: tf.Tensor2D, eps: tf.Tensor2D): tf.Tensor;
}

/**
 * The memory contract (src/core/algorithm.ts): after `warmUpdates` updates (those that create the
 * optimizers' state), 2,000 more updates and acting once each way leave `tf.memory().numTensors`
 * unchanged. `batch` has 8 rows.
 */
export function expectFlatTensorCount<B extends ContinuousBatch>(alg: ActingLearner<B>, batch: B, warmUpdates = 1): void {
  for (let i = 0; i < warmUpdates; i++) alg.learn(batch);
  const before = tf.memory().numTensors;
  for (let i = 0; i < 2000; i++) alg.learn(batch);
  const eps = tf.zeros([8, actionDim]) as tf.Tensor2D;
  tf.dispose([alg.predict(batch.obs), alg.sample(batch.obs), alg.explore(batch.obs, eps), eps]);
  expect(tf.memory().numTensors).toBe(before);
}
