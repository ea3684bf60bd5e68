import { beforeAll, describe, expect, it } from 'vitest';
import { chooseBackend } from '../../../src/core/backend';
import { ActorCriticMlp, type MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { EsLearner, centeredRanks, flattenWeights, getFlatWeights, setFlatWeights, unflattenWeights, type EsResult } from '../../../src/algorithms/es';
import { NoiseTable } from '../../../src/algorithms/noiseTable';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const noise = new NoiseTable(123, 1 << 16);

/** f(θ) = −Σ (θ_i − 1)², maximum 0 at θ = 1. */
const quadratic = (theta: Float32Array) => -theta.reduce((s, x) => s + (x - 1) ** 2, 0);

describe('NoiseTable', () => {
  it('is rebuilt identically from its seed; offsets are views in range', () => {
    const again = new NoiseTable(123, 1 << 16);
    expect(again.noise.every((v, i) => v === noise.noise[i])).toBe(true); // (toEqual is slow on 64k values)
    expect(new NoiseTable(124, 16).noise).not.toEqual(new NoiseTable(123, 16).noise);
    const mean = noise.noise.reduce((a, b) => a + b, 0) / noise.size;
    const variance = noise.noise.reduce((a, b) => a + b * b, 0) / noise.size;
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(variance).toBeGreaterThan(0.95);
    expect(variance).toBeLessThan(1.05);
    expect(noise.get(10, 3)).toEqual(noise.noise.subarray(10, 13));
    const rng = new Rng(1);
    for (let i = 0; i < 100; i++) {
      const j = noise.sampleIndex(rng, 1000);
      expect(j).toBeGreaterThanOrEqual(0);
      expect(j + 1000).toBeLessThanOrEqual(noise.size);
    }
    expect(() => noise.get(noise.size - 2, 3)).toThrow(/outside/);
  });
});

describe('centeredRanks', () => {
  it('maps ranks to [−0.5, 0.5]', () => {
    // [10, −1, 3] → ranks [2, 0, 1] → rank/2 − 0.5 = [0.5, −0.5, 0]
    expect(Array.from(centeredRanks([10, -1, 3]))).toEqual([0.5, -0.5, 0]);
    expect(Array.from(centeredRanks([1e9, -1e9, 0, 5, 4]))).toEqual([0.5, -0.5, -0.25, 0.25, 0]);
  });
});

describe('flatten / unflatten weights', () => {
  it('round-trips a model', () => {
    const spec: MlpSpec = { obsDim: 3, numActions: 2, hidden: [5], activation: 'tanh', kind: 'actorCritic' };
    const a = new ActorCriticMlp(spec, 1);
    const b = new ActorCriticMlp(spec, 2);
    const flat = getFlatWeights(a);
    expect(flat.length).toBe(a.numParams());
    setFlatWeights(b, flat);
    expect(b.getWeights()).toEqual(a.getWeights());
    expect(flattenWeights(unflattenWeights(flat, [flat.length - 4, 4]))).toEqual(flat);
    expect(() => unflattenWeights(flat, [1])).toThrow(/sizes summing to 1/);
    a.dispose();
    b.dispose();
  });
});

describe('EsLearner', () => {
  it('the search gradient points uphill on a linear objective', () => {
    // f(θ) = w·θ: ∇f = w. g = 1/(nσ) Σ F̃_i ε_i should align with w.
    const dim = 10;
    const w = Float32Array.from({ length: dim }, (_, i) => (i % 2 ? 1 : -2));
    const es = new EsLearner(new Float32Array(dim), noise, { numPairs: 200, optimizer: 'sgd', lr: 1, l2Coeff: 0, sigma: 0.1 });
    const results: EsResult[] = Array.from(es.ask(), (j) => ({
      noiseIndex: j,
      returnPos: es.perturbed(j, 1).reduce((s, x, i) => s + x * w[i], 0),
      returnNeg: es.perturbed(j, -1).reduce((s, x, i) => s + x * w[i], 0),
    }));
    es.tell(results); // θ = 0 + 1·g
    const dot = es.theta.reduce((s, x, i) => s + x * w[i], 0);
    const cos = dot / (Math.hypot(...es.theta) * Math.hypot(...w));
    expect(cos).toBeGreaterThan(0.8);
  });

  it('improves a quadratic objective, with Adam and with SGD, deterministically for a seed', () => {
    for (const optimizer of ['adam', 'sgd'] as const) {
      const run = () => {
        const es = new EsLearner(new Float32Array(20), noise, { optimizer, lr: optimizer === 'adam' ? 0.05 : 0.02, sigma: 0.1, l2Coeff: 0, numPairs: 20, seed: 3 });
        const before = quadratic(es.theta);
        let m: Record<string, number> = {};
        for (let gen = 0; gen < 40; gen++) m = es.step(quadratic);
        return { before, after: quadratic(es.theta), m, theta: Float32Array.from(es.theta) };
      };
      const r = run();
      expect(r.before).toBe(-20);
      expect(r.after).toBeGreaterThan(-0.5 * 20); // at least halves the distance²
      expect(r.m.generation).toBe(40);
      expect(run().theta).toEqual(r.theta);
    }
  });
});
