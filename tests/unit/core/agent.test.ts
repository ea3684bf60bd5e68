import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { Agent, categoricalRows } from '../../../src/core/agent';
import { buildModel } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { Reinforce } from '../../../src/algorithms/reinforce';
import { REINFORCE_PARAMS } from '../algorithms/descriptorParams';

beforeAll(async () => {
  await chooseBackend();
});

const spec = { obsDim: 3, numActions: 4, hidden: [8], activation: 'tanh' as const };
const obs = new Float32Array(Array.from({ length: 3 * 6 }, (_, i) => Math.cos(i)));

describe('Agent', () => {
  it('predict is the argmax of the logits', () => {
    const agent = new Agent(new Reinforce(buildModel(spec, 1), REINFORCE_PARAMS));
    const a = agent.predict(obs, 6);
    const logits = tf.tidy(() => agent.model.forward(tf.tensor2d(obs, [6, 3])).logits.arraySync());
    expect(Array.from(a)).toEqual(logits.map((row) => row.indexOf(Math.max(...row))));
    expect(a).toBeInstanceOf(Int32Array);
    agent.dispose();
  });

  it('sample is deterministic for a seed and follows the probabilities', async () => {
    const agent = new Agent(new Reinforce(buildModel(spec, 1), REINFORCE_PARAMS));
    const a1 = agent.sample(obs, 6, new Rng(5));
    const a2 = agent.sample(obs, 6, new Rng(5));
    const a3 = await agent.sampleAsync(obs, 6, new Rng(5));
    expect(Array.from(a1)).toEqual(Array.from(a2));
    expect(Array.from(a1)).toEqual(Array.from(a3));
    const p = agent.probabilities(obs, 6);
    for (let b = 0; b < 6; b++) expect(p.subarray(b * 4, b * 4 + 4).reduce((x, y) => x + y)).toBeCloseTo(1, 5);
    // frequencies over many draws
    const rng = new Rng(9);
    const counts = [0, 0, 0, 0];
    const one = obs.subarray(0, 3);
    for (let i = 0; i < 4000; i++) counts[agent.sample(one, 1, rng)[0]]++;
    counts.forEach((c, k) => expect(Math.abs(c / 4000 - p[k])).toBeLessThan(0.03));
    agent.dispose();
  });

  it('categoricalRows picks the only non-zero entry', () => {
    const out = categoricalRows(new Float32Array([0, 1, 0, 0, 0, 0, 0, 1]), 2, new Rng(1));
    expect(Array.from(out)).toEqual([1, 3]);
  });

  it('preprocess checks the batch', () => {
    const agent = new Agent(new Reinforce(buildModel(spec, 1), REINFORCE_PARAMS));
    expect(() => agent.predict(new Float32Array(7), 2)).toThrow(/length 7 is not a positive multiple of batch 2/);
    agent.dispose();
  });

  it('weights via the agent are the model weights, and setWeights works', () => {
    const a = new Agent(new Reinforce(buildModel(spec, 1), REINFORCE_PARAMS));
    const b = new Agent(new Reinforce(buildModel(spec, 2), REINFORCE_PARAMS));
    b.setWeights(a.getWeights());
    expect(Array.from(b.predict(obs, 6))).toEqual(Array.from(a.predict(obs, 6)));
    expect(Array.from(b.probabilities(obs, 6))).toEqual(Array.from(a.probabilities(obs, 6)));
    a.dispose();
    b.dispose();
  });
});
