import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { QmixMixer } from '../../../src/core/qmixMixer';
import { Rng } from '../../../src/core/rng';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

function randomMatrix(rng: Rng, rows: number, cols: number, scale = 1): tf.Tensor2D {
  return tf.tensor2d(Float32Array.from({ length: rows * cols }, () => scale * rng.normal()), [rows, cols]);
}

/** y = x·W + b for a row vector x, W [in, out] row-major. */
function dense(x: number[], w: Float32Array, b: Float32Array): number[] {
  const out = Array.from(b);
  for (let i = 0; i < x.length; i++) for (let j = 0; j < out.length; j++) out[j] += x[i] * w[i * out.length + j];
  return out;
}
const relu = (v: number[]) => v.map((x) => Math.max(0, x));
const elu = (x: number) => (x > 0 ? x : Math.exp(x) - 1);

describe('QmixMixer', () => {
  const n = 3;
  const S = 18 * 3;

  it('computes Q_tot = elu(Q·|W1(s)| + b1(s)) · |Wf(s)| + V(s)', () => {
    const mixer = new QmixMixer({ numAgents: 2, stateDim: 3, embedDim: 4, hypernetLayers: 1 }, 1);
    const [w1, b1w, hb1, hb1b, wf, wfb, v1, v1b, v2, v2b] = mixer.getWeights();
    const s = [0.3, -1.2, 0.7];
    const q = [1.5, -0.4];
    const W1 = dense(s, w1, b1w).map(Math.abs); // [n·E], row a·E + e
    const b1 = dense(s, hb1, hb1b);
    const Wf = dense(s, wf, wfb).map(Math.abs);
    const V = dense(relu(dense(s, v1, v1b)), v2, v2b)[0];
    let expected = V;
    for (let e = 0; e < 4; e++) expected += Wf[e] * elu(q[0] * W1[e] + q[1] * W1[4 + e] + b1[e]);
    const got = tf.tidy(() => mixer.forward(tf.tensor2d([[...q, ...s]])).qTot.dataSync()[0]);
    expect(got).toBeCloseTo(expected, 4);
    mixer.dispose();
  });

  it('is monotonic in every agent Q on random states and values (seeded)', () => {
    const mixer = new QmixMixer({ numAgents: n, stateDim: S }, 7);
    const rng = new Rng(3);
    const B = 64;
    const states = randomMatrix(rng, B, S);
    const qs = randomMatrix(rng, B, n, 3);
    const base = tf.tidy(() => mixer.mix(qs, states).dataSync().slice());
    for (let a = 0; a < n; a++) {
      for (const delta of [0.01, 0.5, 4]) {
        const bumped = tf.tidy(() => {
          const bump = tf.oneHot(tf.fill([B], a, 'int32'), n).mul(delta) as tf.Tensor2D;
          return mixer.mix(tf.add(qs, bump) as tf.Tensor2D, states).dataSync().slice();
        });
        for (let i = 0; i < B; i++) expect(bumped[i]).toBeGreaterThanOrEqual(base[i] - 1e-5);
      }
    }
    // ∂Q_tot/∂Q_a ≥ 0, and not all zero
    const grad = tf.tidy(() => tf.grad((q: tf.Tensor) => mixer.mix(q as tf.Tensor2D, states).sum())(qs).dataSync().slice());
    expect(Math.min(...grad)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...grad)).toBeGreaterThan(0);
    const w = mixer.weightsFor(states);
    expect(Math.min(...w.w1.dataSync())).toBeGreaterThanOrEqual(0);
    expect(Math.min(...w.wFinal.dataSync())).toBeGreaterThanOrEqual(0);
    expect(w.w1.shape).toEqual([B, n, 32]);
    expect(Math.min(...w.b1.dataSync())).toBeLessThan(0); // the bias is free
    tf.dispose([w.w1, w.b1, w.wFinal, w.v, states, qs]);
    mixer.dispose();
  });

  it('sends gradients to every variable of the hypernetworks and V(s)', () => {
    const mixer = new QmixMixer({ numAgents: n, stateDim: S }, 2);
    const rng = new Rng(5);
    const states = randomMatrix(rng, 32, S);
    const qs = randomMatrix(rng, 32, n);
    const target = randomMatrix(rng, 32, 1);
    const { grads } = tf.variableGrads(() => tf.losses.meanSquaredError(tf.reshape(target, [32]), mixer.mix(qs, states)) as tf.Scalar);
    const vars = mixer.variables();
    const specs = mixer.weightSpecs();
    expect(vars.length).toBe(2 * 2 + 2 + 2 * 2 + 2 * 2);
    expect(specs.map((s) => s.name)).toContain('V/1/bias');
    for (let i = 0; i < vars.length; i++) {
      const g = grads[vars[i].name];
      expect(g, specs[i].name).toBeDefined();
      const norm = tf.tidy(() => tf.abs(g).sum().dataSync()[0]);
      expect(norm, specs[i].name).toBeGreaterThan(0);
    }
    tf.dispose(Object.values(grads));
    tf.dispose([states, qs, target]);
    mixer.dispose();
  });

  it('is seeded and checks its inputs', () => {
    const a = new QmixMixer({ numAgents: 2, stateDim: 5 }, 11);
    const b = new QmixMixer({ numAgents: 2, stateDim: 5 }, 11);
    const c = new QmixMixer({ numAgents: 2, stateDim: 5 }, 12);
    expect(a.getWeights()).toEqual(b.getWeights());
    expect(a.getWeights()).not.toEqual(c.getWeights());
    expect(() => tf.tidy(() => a.forward(tf.zeros([1, 6]) as tf.Tensor2D))).toThrow(/expected \[batch, 2 \+ 5\]/);
    expect(() => tf.tidy(() => a.mix(tf.zeros([2, 3]) as tf.Tensor2D, tf.zeros([2, 5]) as tf.Tensor2D))).toThrow(/agent Q-values/);
    expect(() => new QmixMixer({ numAgents: 0, stateDim: 5 }, 1)).toThrow(/numAgents/);
    for (const m of [a, b, c]) m.dispose();
  });
});
