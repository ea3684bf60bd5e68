import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { create as createCql, type Cql, type CqlBatch } from '../../../src/algorithms/cql';
import type { ActorSpec } from '../../../src/core/continuousMlp';
import { Rng } from '../../../src/core/rng';
import { chooseBackend } from '../../../src/core/backend';

const NET: ActorSpec = { obsDim: 2, actionDim: 1, actionLow: [-1], actionHigh: [1], hidden: [32, 32], activation: 'relu' };
const PARAMS = { actorLr: 1e-3, criticLr: 3e-3, alphaLr: 1e-3, gamma: 0.9, tau: 0.05, initAlpha: 0.1, autotune: false, bufferSize: 1_000, batchSize: 64, learningStarts: 0, numSampledActions: 8 };
const B = 64;

/** A fixed dataset: every action is near +0.5, never near −1. */
function fixedBatch(rng: Rng) {
  const obs = Float32Array.from({ length: B * 2 }, () => rng.uniform() * 2 - 1);
  const actions = Float32Array.from({ length: B }, () => 0.5 + 0.05 * rng.normal());
  const rewards = Float32Array.from({ length: B }, () => rng.uniform());
  const nextObs = Float32Array.from({ length: B * 2 }, () => rng.uniform() * 2 - 1);
  return { obs, actions, rewards, nextObs };
}

function batchTensors(data: ReturnType<typeof fixedBatch>, rng: Rng, N: number): CqlBatch {
  const normal = (n: number) => Float32Array.from({ length: n }, () => rng.normal());
  return {
    obs: tf.tensor2d(data.obs, [B, 2]),
    actions: tf.tensor2d(data.actions, [B, 1]),
    rewards: tf.tensor1d(data.rewards),
    nextObs: tf.tensor2d(data.nextObs, [B, 2]),
    dones: tf.zeros([B]),
    noise: tf.tensor2d(normal(B), [B, 1]),
    nextNoise: tf.tensor2d(normal(B), [B, 1]),
    cqlUniform: tf.tensor2d(Float32Array.from({ length: B * N }, () => 2 * rng.uniform() - 1), [B * N, 1]),
    cqlNoise: tf.tensor2d(normal(B * N), [B * N, 1]),
  };
}

/** Mean Q1(s, a) over the batch's states for a fixed action a. */
function meanQ(alg: Cql, obs: Float32Array, a: number): number {
  return tf.tidy(() => tf.mean(alg.critic1.qValue(tf.tensor2d(obs, [B, 2]), tf.fill([B, 1], a))).dataSync()[0]);
}

function train(cqlAlpha: number, steps: number): { ood: number; data: number } {
  const alg = createCql(NET, { ...PARAMS, cqlAlpha }, 3);
  const rng = new Rng(11);
  const data = fixedBatch(new Rng(5));
  for (let i = 0; i < steps; i++) {
    const batch = batchTensors(data, rng, PARAMS.numSampledActions);
    alg.learn(batch);
    tf.dispose(Object.values(batch));
  }
  const out = { ood: meanQ(alg, data.obs, -1), data: meanQ(alg, data.obs, 0.5) };
  alg.dispose();
  return out;
}

describe('CQL (conservative term on top of SAC)', () => {
  beforeAll(async () => {
    await chooseBackend({ preferred: 'wasm' });
  });

  it('lowers Q on out-of-dataset actions on a fixed batch, compared with the same SAC update without it', () => {
    const sac = train(0, 150);
    const cql = train(5, 150);
    // The data only has a ≈ 0.5; a = −1 is never seen. Without the term SAC's Q at a = −1 is
    // whatever the network extrapolates; with it, Q(s, −1) is pushed well below Q(s, a_D).
    expect(cql.ood).toBeLessThan(sac.ood - 0.5);
    expect(cql.ood).toBeLessThan(cql.data);
  }, 120_000);

  it('reports the conservative gap and keeps the tensor count flat', () => {
    const alg = createCql(NET, { ...PARAMS, cqlAlpha: 1 }, 1);
    const rng = new Rng(2);
    const data = fixedBatch(new Rng(3));
    const step = () => {
      const batch = batchTensors(data, rng, PARAMS.numSampledActions);
      const m = alg.learn(batch);
      tf.dispose(Object.values(batch));
      return m;
    };
    const first = step();
    expect(Number.isFinite(first.cqlGap)).toBe(true);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 20; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    alg.dispose();
  });

  it('refuses a batch without its sampled actions', () => {
    const alg = createCql(NET, { ...PARAMS, cqlAlpha: 1 }, 1);
    const batch = batchTensors(fixedBatch(new Rng(1)), new Rng(1), 4); // N = 4, not 8
    expect(() => alg.learn(batch)).toThrow(/cqlUniform must be a \[512, 1\]/);
    tf.dispose(Object.values(batch));
    alg.dispose();
  });
});
