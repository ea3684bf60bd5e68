import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { ActorCriticMlp, PolicyMlp, QMlp, buildModel, orthogonal, type MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';

const spec: MlpSpec = { obsDim: 4, numActions: 2, hidden: [16, 8], activation: 'tanh' };

/** Bit patterns of a Float32Array, to compare exactly (including -0 and NaN payloads). */
const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

describe('orthogonal init', () => {
  it('gives orthonormal columns (tall) and rows (wide), scaled by the gain', () => {
    for (const [r, c] of [
      [6, 3],
      [3, 6],
      [5, 5],
    ]) {
      const w = orthogonal(r, c, 2, new Rng(1));
      const small = Math.min(r, c);
      for (let i = 0; i < small; i++) {
        for (let j = 0; j < small; j++) {
          let dot = 0;
          for (let k = 0; k < Math.max(r, c); k++) {
            dot += r >= c ? w[k * c + i] * w[k * c + j] : w[i * c + k] * w[j * c + k];
          }
          expect(dot).toBeCloseTo(i === j ? 4 : 0, 5);
        }
      }
    }
  });
});

describe('MLP models', () => {
  it('same seed → identical weights, different seed → different', () => {
    const a = buildModel(spec, 7);
    const b = buildModel(spec, 7);
    const c = buildModel(spec, 8);
    const wa = a.getWeights();
    const wb = b.getWeights();
    const wc = c.getWeights();
    expect(wa.map(bits)).toEqual(wb.map(bits));
    expect(bits(wa[0])).not.toEqual(bits(wc[0]));
    [a, b, c].forEach((m) => m.dispose());
  });

  it('CleanRL init: head gain 0.01 makes near-uniform logits, biases are 0', () => {
    const m = new PolicyMlp(spec, 1);
    const specs = m.weightSpecs();
    expect(specs.map((s) => s.name)).toEqual(['policy/0/kernel', 'policy/0/bias', 'policy/1/kernel', 'policy/1/bias', 'policy/2/kernel', 'policy/2/bias']);
    expect(specs.map((s) => s.shape)).toEqual([[4, 16], [16], [16, 8], [8], [8, 2], [2]]);
    const ws = m.getWeights();
    for (const i of [1, 3, 5]) expect(Array.from(ws[i]).every((x) => x === 0)).toBe(true);
    // head: 8x2 orthogonal with gain 0.01 → each column has norm 0.01
    let norm = 0;
    for (let k = 0; k < 8; k++) norm += ws[4][k * 2] ** 2;
    expect(Math.sqrt(norm)).toBeCloseTo(0.01, 6);
    expect(m.numParams()).toBe(4 * 16 + 16 + 16 * 8 + 8 + 8 * 2 + 2);
    m.dispose();
  });

  it('forward shapes for policy, actor-critic and Q models', () => {
    const x = tf.randomNormal([5, 4]) as tf.Tensor2D;
    const p = new PolicyMlp(spec, 1);
    const ac = buildModel({ ...spec, kind: 'actorCritic' }, 1);
    const q = buildModel({ ...spec, kind: 'q' }, 1);
    expect(ac).toBeInstanceOf(ActorCriticMlp);
    expect(q).toBeInstanceOf(QMlp);
    const before = tf.memory().numTensors;
    const out = tf.tidy(() => {
      const a = p.forward(x);
      const b = ac.forward(x);
      const c = q.forward(x);
      return [a.logits.shape, b.logits.shape, b.value.shape, c.q.shape];
    });
    expect(out).toEqual([[5, 2], [5, 2], [5], [5, 2]]);
    expect(tf.memory().numTensors).toBe(before);
    // same seed: the actor-critic's policy equals the plain policy
    expect(ac.getWeights().slice(0, 6).map(bits)).toEqual(p.getWeights().map(bits));
    [p, ac, q].forEach((m) => m.dispose());
    x.dispose();
  });

  it('rejects a bad spec', () => {
    expect(() => buildModel({ ...spec, hidden: [0] }, 1)).toThrow(/MlpSpec.hidden/);
    expect(() => buildModel({ ...spec, obsDim: 2.5 }, 1)).toThrow(/MlpSpec.obsDim/);
  });
});

describe('getWeights / setWeights', () => {
  it('round-trips exactly, bit for bit', () => {
    const a = buildModel(spec, 3);
    const b = buildModel(spec, 4);
    const wa = a.getWeights();
    b.setWeights(wa);
    expect(b.getWeights().map(bits)).toEqual(wa.map(bits));
    // including awkward values
    const odd = wa.map((w) => w.map((_, i) => [Number.MIN_VALUE, -0, 1e-38, 3.4e38, 1 / 3][i % 5]));
    b.setWeights(odd);
    expect(b.getWeights().map(bits)).toEqual(odd.map(bits));
    a.dispose();
    b.dispose();
  });

  it('returns copies: mutating them (or the array given to setWeights) does not change the model', () => {
    const m = buildModel(spec, 3);
    const w1 = m.getWeights();
    const keep = w1.map((w) => w.slice());
    w1[0].fill(42);
    expect(m.getWeights().map(bits)).toEqual(keep.map(bits));
    const given = keep.map((w) => w.slice());
    m.setWeights(given);
    given[0].fill(7);
    expect(m.getWeights().map(bits)).toEqual(keep.map(bits));
    // and the copies own their buffers (transferable without detaching tfjs's memory)
    expect(w1[0].byteOffset).toBe(0);
    expect(w1[0].buffer.byteLength).toBe(w1[0].byteLength);
    m.dispose();
  });

  it('getWeightsAsync equals getWeights', async () => {
    const m = buildModel({ ...spec, kind: 'actorCritic' }, 9);
    expect((await m.getWeightsAsync()).map(bits)).toEqual(m.getWeights().map(bits));
    m.dispose();
  });

  it('throws a clear error on a wrong count or shape', () => {
    const m = buildModel(spec, 3);
    const ws = m.getWeights();
    expect(() => m.setWeights(ws.slice(1))).toThrow(/expected 6 arrays .*got 5/);
    const bad = ws.slice();
    bad[2] = new Float32Array(5);
    expect(() => m.setWeights(bad)).toThrow('setWeights: weight 2 (policy/1/kernel) has shape [16, 8] = 128 values, got 5');
    const notF32 = ws.slice() as unknown[];
    notF32[0] = new Float64Array(64);
    expect(() => m.setWeights(notF32 as Float32Array[])).toThrow(/must be a Float32Array/);
    // nothing was changed by the failed calls
    expect(m.getWeights().map(bits)).toEqual(ws.map(bits));
    m.dispose();
  });
});

describe('syncWeightsTo', () => {
  it('decay 0 is an exact hard copy', () => {
    const a = buildModel(spec, 1);
    const b = buildModel(spec, 2);
    a.syncWeightsTo(b);
    expect(b.getWeights().map(bits)).toEqual(a.getWeights().map(bits));
    a.dispose();
    b.dispose();
  });

  it('soft update: target ← decay·target + (1 − decay)·source', () => {
    const a = buildModel({ ...spec, kind: 'actorCritic' }, 1);
    const b = buildModel({ ...spec, kind: 'actorCritic' }, 2);
    const src = a.getWeights();
    const dst = b.getWeights();
    const decay = 0.9;
    const before = tf.memory().numTensors;
    a.syncWeightsTo(b, decay);
    expect(tf.memory().numTensors).toBe(before);
    const got = b.getWeights();
    got.forEach((w, i) => {
      for (let k = 0; k < w.length; k++) {
        expect(w[k]).toBeCloseTo(decay * dst[i][k] + (1 - decay) * src[i][k], 6);
      }
    });
    // the source is untouched
    expect(a.getWeights().map(bits)).toEqual(src.map(bits));
    a.dispose();
    b.dispose();
  });

  it('rejects mismatched models and bad decay', () => {
    const a = buildModel(spec, 1);
    const b = buildModel({ ...spec, hidden: [16] }, 1);
    expect(() => a.syncWeightsTo(b)).toThrow(/source has 6 variables, target has 4/);
    expect(() => a.syncWeightsTo(a, 2)).toThrow(/decay must be in \[0, 1\]/);
    a.dispose();
    b.dispose();
  });
});

describe('cpu vs wasm', () => {
  it('same seed: identical weights bit for bit, forward equal to float32 rounding', async () => {
    const x = new Float32Array(Array.from({ length: 32 }, (_, i) => Math.sin(i)));
    const run = async (backend: 'cpu' | 'wasm') => {
      await tf.setBackend(backend);
      const m = buildModel({ ...spec, kind: 'actorCritic' }, 11);
      const w = m.getWeights();
      const out = tf.tidy(() => {
        const o = m.forward(tf.tensor2d(x, [8, 4]));
        return tf.concat([o.logits.flatten(), o.value]);
      });
      const y = out.dataSync().slice();
      out.dispose();
      m.dispose();
      return { w, y };
    };
    const c = await run('cpu');
    const w = await run('wasm');
    expect(c.w.map(bits)).toEqual(w.w.map(bits));
    for (let i = 0; i < c.y.length; i++) expect(Math.abs(c.y[i] - w.y[i])).toBeLessThan(1e-5);
  });
});
