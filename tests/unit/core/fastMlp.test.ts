import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { FastMlp, expm1F32, softmaxRowsF32, tanhF32 } from '../../../src/core/fastMlp';
import { buildModel, type MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { RolloutActor, type RolloutActorOptions } from '../../../src/engine/rolloutActor';

const f = Math.fround;
/** Bit patterns, to compare exactly. */
const bits = (a: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(a).buffer));

beforeAll(async () => {
  const choice = await chooseBackend({ preferred: 'wasm' });
  expect(choice.name).toBe('wasm');
});

/** Float32 values spread over several scales (tiny, around 1, large). */
function randomF32(rng: Rng, n: number, scale: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => f(rng.normal() * scale * [0.05, 1, 6][i % 3]));
}

describe('float32 elementary functions', () => {
  it('tanh and expm1 agree with the float64 functions to within two float32 ulps', () => {
    const rng = new Rng(1);
    for (const x of randomF32(rng, 5000, 2)) {
      const ulp = Math.max(2 ** -149, 2 ** (Math.floor(Math.log2(Math.abs(Math.tanh(x)) || 2 ** -126)) - 23));
      expect(Math.abs(tanhF32(x) - Math.tanh(x))).toBeLessThanOrEqual(2 * ulp);
      if (x < 80) {
        const e = Math.expm1(x);
        expect(Math.abs(expm1F32(x) - e)).toBeLessThanOrEqual(2 * 2 ** (Math.floor(Math.log2(Math.abs(e) || 2 ** -126)) - 23));
      }
    }
  });

  it('handles the edge cases: 0, ±large, NaN, tiny', () => {
    expect(tanhF32(0)).toBe(0);
    expect(Object.is(tanhF32(-0), -0)).toBe(true);
    expect(tanhF32(20)).toBe(1);
    expect(tanhF32(-20)).toBe(-1);
    expect(Number.isNaN(tanhF32(NaN))).toBe(true);
    expect(tanhF32(f(1e-30))).toBe(f(1e-30)); // tanh x = x − x³/3…: x³ is far below x's ulp
    expect(expm1F32(-100)).toBe(-1);
    expect(expm1F32(f(1e-9))).toBe(f(1e-9));
  });

  it('softmax rows are probabilities: positive, summing to 1, ordered as the logits', () => {
    const rng = new Rng(2);
    for (const n of [1, 2, 3, 4, 7, 17]) {
      const logits = randomF32(rng, 10 * n, 3);
      const p = softmaxRowsF32(logits, 10, n, new Float32Array(10 * n));
      for (let r = 0; r < 10; r++) {
        let s = 0;
        for (let a = 0; a < n; a++) {
          s += p[r * n + a];
          expect(p[r * n + a]).toBeGreaterThan(0);
          // p_a / p_b = e^{z_a − z_b}
          if (a > 0) expect(p[r * n + a] / p[r * n] / Math.exp(logits[r * n + a] - logits[r * n])).toBeCloseTo(1, 5);
        }
        expect(s).toBeCloseTo(1, 5);
      }
    }
  });
});

describe('FastMlp gives exactly what tfjs wasm gives', () => {
  const cases: MlpSpec[] = [
    { obsDim: 4, numActions: 2, hidden: [64, 64], activation: 'tanh', kind: 'actorCritic' },
    { obsDim: 6, numActions: 3, hidden: [32], activation: 'tanh', kind: 'policy' },
    { obsDim: 5, numActions: 7, hidden: [24, 16], activation: 'relu', kind: 'policy' },
    { obsDim: 4, numActions: 2, hidden: [64, 64], activation: 'relu', kind: 'q' },
    { obsDim: 9, numActions: 21, hidden: [48], activation: 'tanh', kind: 'policy' },
  ];
  it.each(cases)('$kind $obsDim→$hidden→$numActions $activation: same logits and probabilities, bit for bit, in the SIMD kernels and in JS', (spec) => {
    const model = buildModel(spec, 5);
    const rng = new Rng(11);
    // Random weights of a useful scale (the init's 0.01 policy head would make every logit tiny).
    model.setWeights(model.getWeights().map((w) => randomF32(rng, w.length, 0.6)));
    const simd = new FastMlp(spec);
    const js = new FastMlp(spec, { simd: false });
    expect(simd.usesSimd).toBe(true); // the wasm backend loaded the kernels
    expect(js.usesSimd).toBe(false);
    simd.setWeights(model.getWeights());
    js.setWeights(model.getWeights());
    for (const [batch, fast] of [1, 3, 64].flatMap((b) => [[b, simd], [b, js]] as const)) {
      const obs = randomF32(rng, batch * spec.obsDim, 2);
      const head = tf.tidy(() => {
        const out: Record<string, tf.Tensor> = model.forward(tf.tensor2d(obs, [batch, spec.obsDim]));
        const h = (out.logits ?? out.q) as tf.Tensor2D;
        return { raw: h.dataSync().slice(), soft: tf.softmax(h).dataSync().slice() };
      });
      expect(bits(fast.forward(obs, batch))).toEqual(bits(head.raw));
      expect(bits(fast.probabilities(obs, batch))).toEqual(bits(head.soft));
    }
    model.dispose();
  });

  it('setFlatWeights reads the acting stack from the front of the flat parameter vector', () => {
    const spec = cases[0];
    const model = buildModel(spec, 3);
    const ws = model.getWeights();
    const a = new FastMlp(spec);
    a.setWeights(ws);
    const flat = new Float32Array(ws.reduce((s, w) => s + w.length, 0));
    let o = 0;
    for (const w of ws) {
      flat.set(w, o);
      o += w.length;
    }
    const obs = randomF32(new Rng(4), 8 * spec.obsDim, 1);
    const want = bits(a.forward(obs, 8));
    for (const b of [new FastMlp(spec), new FastMlp(spec, { simd: false })]) {
      b.setFlatWeights(flat);
      expect(bits(b.forward(obs, 8))).toEqual(want);
    }
    model.dispose();
  });

  it('rejects weights of the wrong shape', () => {
    const fast = new FastMlp({ obsDim: 4, numActions: 2, hidden: [8], activation: 'tanh' });
    expect(() => fast.setWeights([new Float32Array(32)])).toThrow(/at least 4 arrays/);
    expect(() => fast.setWeights([new Float32Array(31), new Float32Array(8), new Float32Array(16), new Float32Array(2)])).toThrow(/layer 0/);
  });
});

describe('a RolloutActor acts the same on the fast path and the tfjs path', () => {
  // Infinity: every forward pass through the typed arrays; 0: every one through tfjs.
  const options = (model: MlpSpec, fastPathMaxBatch: number): RolloutActorOptions => ({ envId: 'CartPole-v1', numEnvs: 8, seed: 3, actorIndex: 1, model, backend: 'wasm', fastPathMaxBatch });

  it.each([
    ['actor-critic policy', { obsDim: 4, numActions: 2, hidden: [64, 64], activation: 'tanh', kind: 'actorCritic' } as MlpSpec, 0],
    ['ε-greedy Q-network', { obsDim: 4, numActions: 2, hidden: [64, 64], activation: 'relu', kind: 'q' } as MlpSpec, 0.3],
  ])('%s: same actions and log-probabilities over 600 steps of 8 envs, weights changing between segments', async (_, spec, epsilon) => {
    const fast = new RolloutActor(options(spec, Infinity));
    const slow = new RolloutActor(options(spec, 0));
    await fast.init();
    await slow.init();
    const model = buildModel(spec, 9);
    const rng = new Rng(21);
    let differentActions = 0;
    for (let k = 0; k < 3; k++) {
      // Weights that make the policy far from uniform, so a wrong probability would show.
      const ws = model.getWeights().map((w) => randomF32(rng, w.length, 0.5));
      const a = fast.sampleSegment(ws.map((w) => w.slice()), k, 200, epsilon);
      const b = slow.sampleSegment(ws.map((w) => w.slice()), k, 200, epsilon);
      expect(Array.from(a.actions)).toEqual(Array.from(b.actions));
      expect(bits(a.logProbs)).toEqual(bits(b.logProbs));
      expect(bits(a.obs)).toEqual(bits(b.obs));
      for (let i = 1; i < a.actions.length; i++) if (a.actions[i] !== a.actions[0]) differentActions++;
    }
    expect(differentActions).toBeGreaterThan(100); // the comparison covered both actions
    // Greedy episodes (the live view, ES) agree too.
    expect(fast.recordGreedyEpisode(null).length).toBe(slow.recordGreedyEpisode(null).length);
    model.dispose();
    fast.dispose();
    slow.dispose();
  });
});
