import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { Agent } from '../../../src/core/agent';
import { buildPolicyModel as buildModel, type MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { REINFORCE_FIXED, Reinforce, discountedReturns, normalize, type ReinforceBatch } from '../../../src/algorithms/reinforce';
import { REINFORCE_PARAMS } from './descriptorParams';

beforeAll(async () => {
  await chooseBackend();
});

const spec: MlpSpec = { obsDim: 4, numActions: 2, hidden: [16, 16], activation: 'tanh' };

function fixedBatch(n: number, seed: number): ReinforceBatch {
  const rng = new Rng(seed);
  const obs = new Float32Array(n * 4).map(() => rng.normal());
  const actions = new Int32Array(n).map(() => rng.int(2));
  const rewards = new Float32Array(n).map(() => rng.uniform());
  const dones = new Uint8Array(n);
  for (let t = 9; t < n; t += 10) dones[t] = 1;
  return { obs, actions, rewards, dones, batchSize: n };
}

describe('discountedReturns', () => {
  it('rewards [1, 1, 1], γ = 0.9 → [2.71, 1.9, 1]', () => {
    // G_2 = 1; G_1 = 1 + 0.9·1 = 1.9; G_0 = 1 + 0.9·1.9 = 2.71
    const g = discountedReturns(new Float32Array([1, 1, 1]), new Uint8Array([0, 0, 1]), 0.9);
    expect(Array.from(g)).toEqual([Math.fround(2.71), Math.fround(1.9), 1]);
  });

  it('restarts at an episode boundary', () => {
    // episode A = [1, 2] (done at t=1), episode B = [3, 0, 5] (done at t=4), γ = 0.5
    // A: G_1 = 2, G_0 = 1 + 0.5·2 = 2
    // B: G_4 = 5, G_3 = 0 + 0.5·5 = 2.5, G_2 = 3 + 0.5·2.5 = 4.25
    const g = discountedReturns(new Float32Array([1, 2, 3, 0, 5]), new Uint8Array([0, 1, 0, 0, 1]), 0.5);
    expect(Array.from(g)).toEqual([2, 2, 4.25, 2.5, 5]);
  });

  it('treats the end of the batch as an episode end, and γ = 0 gives the rewards', () => {
    expect(Array.from(discountedReturns(new Float32Array([1, 1]), new Uint8Array([0, 0]), 0.5))).toEqual([1.5, 1]);
    expect(Array.from(discountedReturns(new Float32Array([1, 2, 3]), new Uint8Array([0, 1, 0]), 0))).toEqual([1, 2, 3]);
    expect(() => discountedReturns(new Float32Array(2), new Uint8Array(3), 0.9)).toThrow(/2 rewards but 3 dones/);
  });

  it('normalize: zero mean, unit (population) std', () => {
    // [1, 2, 3]: mean 2, std sqrt(2/3) → [-1.2247, 0, 1.2247]
    const { out, mean, std } = normalize(new Float32Array([1, 2, 3]));
    expect(mean).toBe(2);
    expect(std).toBeCloseTo(Math.sqrt(2 / 3), 12);
    expect(out[0]).toBeCloseTo(-1.2247449, 5);
    expect(out[1]).toBe(0);
    expect(out[2]).toBeCloseTo(1.2247449, 5);
  });
});

describe('Reinforce', () => {
  it('has defaults', () => {
    const alg = new Reinforce(buildModel(spec, 1), { ...REINFORCE_PARAMS, lr: 0.01 });
    expect(alg.config).toEqual({ ...REINFORCE_FIXED, ...REINFORCE_PARAMS, lr: 0.01 });
    alg.dispose();
  });

  it('loss sign: raising log π of an action with positive Ĝ lowers the loss', () => {
    const model = buildModel({ obsDim: 1, numActions: 2, hidden: [], activation: 'tanh' }, 1);
    const alg = new Reinforce(model, REINFORCE_PARAMS);
    // one state, action 0 with Ĝ = +1 and action 1 with Ĝ = −1
    const lossFor = (bias0: number) => {
      model.setWeights([new Float32Array([0, 0]), new Float32Array([bias0, 0])]);
      return tf.tidy(() =>
        alg.lossTerms(tf.tensor2d([[1], [1]]), tf.tensor1d([0, 1], 'int32'), tf.tensor1d([1, -1])).loss.dataSync()[0],
      );
    };
    // logits [0, 0]: log π = log 0.5 for both → loss = −mean(log .5·1 + log .5·(−1)) = 0
    expect(lossFor(0)).toBeCloseTo(0, 6);
    // bias0 = 1: π(0) = σ(1) = 0.7311, π(1) = 0.2689 → loss = −(log 0.7311 − log 0.2689)/2 = −0.5
    expect(lossFor(1)).toBeCloseTo(-0.5, 5);
    expect(lossFor(1)).toBeLessThan(lossFor(0));
    alg.dispose();
  });

  it('entropy bonus: loss = pgLoss − entCoef·H', () => {
    const alg = new Reinforce(buildModel(spec, 2), { ...REINFORCE_PARAMS, entCoef: 0.1 });
    const b = fixedBatch(8, 1);
    const terms = tf.tidy(() => {
      const t = alg.lossTerms(tf.tensor2d(b.obs, [8, 4]), tf.tensor1d(b.actions, 'int32'), tf.tensor1d(new Float32Array(8).fill(1)));
      return [t.loss, t.pgLoss, t.entropy].map((s) => s.dataSync()[0]);
    });
    const [loss, pg, h] = terms;
    expect(h).toBeGreaterThan(0.69); // head gain 0.01 → near-uniform: H ≈ ln 2 = 0.6931
    expect(h).toBeLessThanOrEqual(Math.log(2) + 1e-6);
    expect(loss).toBeCloseTo(pg - 0.1 * h, 6);
    alg.dispose();
  });

  it('a few learn() steps on a fixed batch lower the loss, and metrics are numbers', () => {
    const alg = new Reinforce(buildModel(spec, 3), { ...REINFORCE_PARAMS, lr: 0.01 });
    const batch = fixedBatch(64, 2);
    const first = alg.learn(batch);
    expect(Object.keys(first).sort()).toEqual(['entropy', 'gradNorm', 'loss', 'pgLoss', 'returnMean', 'returnStd']);
    for (const v of Object.values(first)) expect(Number.isFinite(v)).toBe(true);
    let last = first;
    for (let i = 0; i < 20; i++) last = alg.learn(batch);
    expect(last.loss).toBeLessThan(first.loss - 0.05);
    alg.dispose();
  });

  it('accepts precomputed returns (same result as rewards + dones)', () => {
    const batch = fixedBatch(20, 4);
    const a = new Reinforce(buildModel(spec, 5), { ...REINFORCE_PARAMS, gamma: 0.9 });
    const b = new Reinforce(buildModel(spec, 5), { ...REINFORCE_PARAMS, gamma: 0.9 });
    const ma = a.learn(batch);
    const mb = b.learn({ obs: batch.obs, actions: batch.actions, batchSize: 20, returns: discountedReturns(batch.rewards!, batch.dones!, 0.9) });
    expect(mb.loss).toBe(ma.loss);
    expect(() => a.learn({ obs: batch.obs, actions: batch.actions, batchSize: 20 })).toThrow(/needs `returns`/);
    expect(() => a.learn({ ...batch, actions: new Int32Array(3) })).toThrow(/3 actions for batchSize 20/);
    a.dispose();
    b.dispose();
  });

  it('maxGradNorm clips the update but reports the raw norm', () => {
    const batch = fixedBatch(32, 6);
    const a = new Reinforce(buildModel(spec, 7), { ...REINFORCE_PARAMS, maxGradNorm: 1e-3 });
    const m = a.learn(batch);
    expect(m.gradNorm).toBeGreaterThan(1e-3);
    a.dispose();
  });

  it('no tensor leaks over 200 learn / predict / sample calls', () => {
    const agent = new Agent(new Reinforce(buildModel(spec, 8), REINFORCE_PARAMS));
    const batch = fixedBatch(32, 7);
    const rng = new Rng(1);
    agent.learn(batch); // creates Adam's moment variables
    agent.predict(batch.obs, 32);
    agent.sample(batch.obs, 32, rng);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 200; i++) {
      agent.learn(batch);
      agent.predict(batch.obs, 32);
      agent.sample(batch.obs, 32, rng);
    }
    expect(tf.memory().numTensors).toBe(before);
    const n = tf.memory().numTensors;
    agent.dispose();
    expect(tf.memory().numTensors).toBeLessThan(n);
  });

  it('cpu and wasm agree to float32 rounding for the same seed', async () => {
    const batch = fixedBatch(32, 9);
    const run = async (backend: string) => {
      await tf.setBackend(backend);
      const alg = new Reinforce(buildModel(spec, 10), { ...REINFORCE_PARAMS, lr: 0.01 });
      const ms = [alg.learn(batch), alg.learn(batch), alg.learn(batch)];
      const w = alg.model.getWeights();
      alg.dispose();
      return { ms, w };
    };
    const c = await run('cpu');
    const w = await run('wasm');
    c.ms.forEach((m, i) => {
      expect(m.returnMean).toBe(w.ms[i].returnMean); // JS: exact
      expect(Math.abs(m.loss - w.ms[i].loss)).toBeLessThan(1e-5);
    });
    c.w.forEach((arr, i) => arr.forEach((v, k) => expect(Math.abs(v - w.w[i][k])).toBeLessThan(1e-5)));
  });
});
