import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import type { Checkpoint } from '../../../src/core/checkpoint';
import { Rng } from '../../../src/core/rng';
import { ITEM_OBS_DIM } from '../../../src/envs/swarm/itemSearch';
import { CentralInference } from '../../../src/swarm/inference';
import { FastMaskedActorCritic, MaskedActorCritic, NUM_ORCH_ACTIONS, ORCH_FEATURES, ORCH_OBS_DIM } from '../../../src/swarm/orchestrator';
import { FrozenSubagent, TYPED_ARRAY_PASS_MAX_MACS, expectedSubagentShapes, setTypedArrayPassLimit, typedArrayPassFits } from '../../../src/swarm/subagents';
import { simdKernelsLoaded } from '../../../src/core/simd/kernels';

// The central inference's typed-array passes (wasm only) must give tfjs's wasm results bit for
// bit: the run's numbers may not depend on which path a tick took.

const f = Math.fround;
const bits = (a: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(a).buffer));

/** Float32 values over several scales (tiny, around 1, large), so tanh and softmax leave their easy ranges. */
function randomF32(rng: Rng, n: number, scale: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => f(rng.normal() * scale * [0.05, 1, 6][i % 3]));
}

/** Orchestrator rows: features, then a 0/1 mask with finish always valid and at least one other action masked sometimes. */
function orchRows(rng: Rng, n: number): Float32Array {
  const obs = new Float32Array(n * ORCH_OBS_DIM);
  for (let r = 0; r < n; r++) {
    obs.set(randomF32(rng, ORCH_FEATURES, 1), r * ORCH_OBS_DIM);
    for (let a = 0; a < NUM_ORCH_ACTIONS; a++) obs[r * ORCH_OBS_DIM + ORCH_FEATURES + a] = a === NUM_ORCH_ACTIONS - 1 || rng.uniform() < 0.6 ? 1 : 0;
  }
  return obs;
}

function subagentCheckpoint(rng: Rng, hidden: number[]): Checkpoint {
  const weights = expectedSubagentShapes(hidden).map((s) => randomF32(rng, s.reduce((a, b) => a * b, 1), 0.6));
  return { meta: { kind: 'swarm-subagent', hidden }, weights };
}

beforeAll(async () => {
  const choice = await chooseBackend({ preferred: 'wasm' });
  expect(choice.name).toBe('wasm');
});

describe('FastMaskedActorCritic', () => {
  const model = new MaskedActorCritic([64], 3);
  afterAll(() => model.dispose());

  it('gives softmax(masked logits) and V(s) exactly as the tfjs model on wasm, and follows weight changes', () => {
    const rng = new Rng(21);
    const fast = new FastMaskedActorCritic(model);
    for (let round = 0; round < 3; round++) {
      // New weights of a useful scale each round: the fast pass must notice the reassignment.
      model.setWeights(model.getWeights().map((w) => randomF32(rng, w.length, 0.6)));
      for (const n of [1, 2, 5, 33]) {
        const obs = orchRows(rng, n);
        const want = tf.tidy(() => {
          const o = model.forward(tf.tensor2d(obs, [n, ORCH_OBS_DIM]));
          return { probs: tf.softmax(o.logits).dataSync().slice(), values: o.value.dataSync().slice() };
        });
        const got = fast.outputs(obs, n);
        expect(bits(got.probs)).toEqual(bits(want.probs));
        expect(bits(got.values)).toEqual(bits(want.values));
        // Masked actions get exactly zero probability.
        for (let r = 0; r < n; r++) for (let a = 0; a < NUM_ORCH_ACTIONS; a++) if (obs[r * ORCH_OBS_DIM + ORCH_FEATURES + a] === 0) expect(got.probs[r * NUM_ORCH_ACTIONS + a]).toBe(0);
      }
    }
  });
});

describe('central inference: which passes skip tfjs', () => {
  it('with the SIMD kernels every pass goes through typed arrays; in JS only a few rows do (on wasm only)', () => {
    expect(simdKernelsLoaded()).toBe(true);
    expect(typedArrayPassFits(1e9)).toBe(true);
    setTypedArrayPassLimit(TYPED_ARRAY_PASS_MAX_MACS);
    expect(typedArrayPassFits(TYPED_ARRAY_PASS_MAX_MACS)).toBe(true);
    expect(typedArrayPassFits(TYPED_ARRAY_PASS_MAX_MACS + 1)).toBe(false);
    setTypedArrayPassLimit(null);
  });
});

describe('central inference: typed-array and tfjs paths agree', () => {
  // The tests below force tfjs for large passes, so each compares the typed-array pass (SIMD) with tfjs.
  beforeEach(() => setTypedArrayPassLimit(TYPED_ARRAY_PASS_MAX_MACS));
  afterEach(() => setTypedArrayPassLimit(null));

  it.each([
    { hidden: [64, 64], temperature: 1 },
    { hidden: [16], temperature: 0.7 },
    { hidden: [64, 64], temperature: 1.3 },
  ])('subagent $hidden at τ = $temperature: each row alone (typed arrays) equals the row in a batch of 40 (tfjs)', async ({ hidden, temperature }) => {
    const rng = new Rng(5);
    const sub = new FrozenSubagent(subagentCheckpoint(rng, hidden), 'test');
    const n = 40;
    expect(typedArrayPassFits(n * sub.macsPerRow)).toBe(false);
    expect(typedArrayPassFits(sub.macsPerRow)).toBe(true);
    const obs = randomF32(rng, n * ITEM_OBS_DIM, 1);
    const batched = await sub.probabilities(obs, n, temperature);
    for (let r = 0; r < n; r++) {
      const alone = await sub.probabilities(obs.slice(r * ITEM_OBS_DIM, (r + 1) * ITEM_OBS_DIM), 1, temperature);
      expect(bits(alone)).toEqual(bits(batched.subarray(r * 5, (r + 1) * 5)));
    }
    sub.dispose();
  });

  it('orchestrator decisions: one row at a time (typed arrays) equal 40 rows at once (tfjs), log π and V bit for bit', async () => {
    const rng = new Rng(8);
    const model = new MaskedActorCritic([64], 4);
    model.setWeights(model.getWeights().map((w) => randomF32(rng, w.length, 0.6)));
    const sub = new FrozenSubagent(subagentCheckpoint(rng, [16]), 'test');
    const options = { subagentTemperature: 1, directTemperature: 1, greedyOrchestrator: true };
    const inference = new CentralInference(model, sub, sub, new Rng(1), options);
    const n = 40;
    const fast = new FastMaskedActorCritic(model);
    expect(typedArrayPassFits(n * fast.macsPerRow)).toBe(false);
    expect(typedArrayPassFits(fast.macsPerRow)).toBe(true);
    const obs = orchRows(rng, n);
    const all = await inference.decide(obs, n);
    for (let r = 0; r < n; r++) {
      const one = await inference.decide(obs.slice(r * ORCH_OBS_DIM, (r + 1) * ORCH_OBS_DIM), 1);
      expect(one.actions[0]).toBe(all.actions[r]);
      expect(bits([one.logProbs[0], one.values[0]])).toEqual(bits([all.logProbs[r], all.values[r]]));
    }
    model.dispose();
    sub.dispose();
  });
});
