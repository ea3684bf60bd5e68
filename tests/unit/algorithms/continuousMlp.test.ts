import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import {
  DeterministicActor,
  LOG_STD_MAX,
  LOG_STD_MIN,
  QCritic,
  SquashedGaussianActor,
  normalNoise,
  squashedGaussian,
  type ActorSpec,
} from '../../../src/core/continuousMlp';
import { Rng } from '../../../src/core/rng';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const actorSpec: ActorSpec = { obsDim: 3, actionDim: 2, hidden: [8, 8], activation: 'relu', actionLow: [-2, 0], actionHigh: [2, 1] };

/** Every weight zero except the listed ones (by weight-spec name). */
function zeroExcept(model: { weightSpecs(): { name: string; shape: number[] }[]; setWeights(w: Float32Array[]): void }, set: Record<string, number[]>): void {
  model.setWeights(
    model.weightSpecs().map((s) => (set[s.name] ? Float32Array.from(set[s.name]) : new Float32Array(s.shape.reduce((a, b) => a * b, 1)))),
  );
}

function read(t: tf.Tensor): number[] {
  const out = Array.from(t.dataSync());
  t.dispose();
  return out;
}

const log2pi = Math.log(2 * Math.PI);

describe('DeterministicActor', () => {
  it('maps tanh of the head onto the bounds: a = (high + low)/2 + (high − low)/2 · tanh(z)', () => {
    const actor = new DeterministicActor(actorSpec, 1);
    expect(actor.weightSpecs().map((s) => s.name)).toEqual(['actor/0/kernel', 'actor/0/bias', 'actor/1/kernel', 'actor/1/bias', 'actor/2/kernel', 'actor/2/bias']);
    zeroExcept(actor, { 'actor/2/bias': [0.5, -1] });
    const a = read(tf.tidy(() => actor.forward(tf.ones([2, 3])).action));
    // dim 0: 0 + 2·tanh(0.5);  dim 1: 0.5 + 0.5·tanh(−1)
    for (const row of [0, 1]) {
      expect(a[row * 2]).toBeCloseTo(2 * Math.tanh(0.5), 6);
      expect(a[row * 2 + 1]).toBeCloseTo(0.5 + 0.5 * Math.tanh(-1), 6);
    }
    zeroExcept(actor, { 'actor/2/bias': [40, -40] });
    const sat = read(tf.tidy(() => actor.forward(tf.ones([1, 3])).action));
    expect(sat[0]).toBeCloseTo(2, 6);
    expect(sat[1]).toBeCloseTo(0, 6);
    actor.dispose();
  });

  it('starts near the middle of the bounds, seeded: same seed same weights', () => {
    const a = new DeterministicActor(actorSpec, 5);
    const b = new DeterministicActor(actorSpec, 5);
    const c = new DeterministicActor(actorSpec, 6);
    expect(a.getWeights()).toEqual(b.getWeights());
    expect(a.getWeights()[0]).not.toEqual(c.getWeights()[0]);
    const x = tf.tensor2d(normalNoise(new Rng(1), 30), [10, 3]);
    const act = read(tf.tidy(() => a.forward(x).action));
    for (let i = 0; i < 10; i++) {
      expect(Math.abs(act[2 * i])).toBeLessThan(0.2);
      expect(Math.abs(act[2 * i + 1] - 0.5)).toBeLessThan(0.05);
    }
    x.dispose();
    for (const m of [a, b, c]) m.dispose();
  });

  it('refuses bad bounds', () => {
    expect(() => new DeterministicActor({ ...actorSpec, actionLow: [1, 0], actionHigh: [1, 1] }, 0)).toThrow(/low < high/);
    expect(() => new DeterministicActor({ ...actorSpec, actionLow: [0] }, 0)).toThrow(/actionDim = 2/);
  });
});

describe('squashedGaussian', () => {
  it('log π of y = tanh(u) equals the change of variables log N(u) − log|dy/du|, computed directly', () => {
    const mean = [0.3, -1.2, 2.5, 0];
    const logStd = [-0.5, 0.2, -2, 1.5];
    const eps = [1.1, -0.4, 0.8, -0.6]; // |u| < 3: the numerical Jacobian stays accurate in float64
    const out = tf.tidy(() => {
      const s = squashedGaussian(tf.tensor2d(mean, [2, 2]), tf.tensor2d(logStd, [2, 2]), tf.tensor2d(eps, [2, 2]));
      return { y: Array.from(s.y.dataSync()), logProb: Array.from(s.logProb.dataSync()) };
    });
    for (let row = 0; row < 2; row++) {
      let direct = 0;
      let numeric = 0;
      for (let j = 0; j < 2; j++) {
        const i = row * 2 + j;
        const sigma = Math.exp(logStd[i]);
        const u = mean[i] + sigma * eps[i];
        expect(out.y[i]).toBeCloseTo(Math.tanh(u), 6);
        const logNu = -0.5 * ((u - mean[i]) / sigma) ** 2 - Math.log(sigma) - 0.5 * log2pi;
        direct += logNu - Math.log(1 - Math.tanh(u) ** 2);
        // the same density by a numerical Jacobian of u = atanh(y): p_y(y) = N(atanh y)·|d atanh(y)/dy|
        const y = Math.tanh(u);
        const h = 1e-7 * (1 - Math.abs(y));
        const dudy = (Math.atanh(y + h) - Math.atanh(y - h)) / (2 * h);
        numeric += logNu + Math.log(dudy);
      }
      expect(out.logProb[row]).toBeCloseTo(direct, 4);
      expect(out.logProb[row]).toBeCloseTo(numeric, 3);
    }
  });

  it('stays finite and exact where tanh saturates (log(1 − tanh²u) = −2·log cosh u)', () => {
    const lp = tf.tidy(() => Array.from(squashedGaussian(tf.tensor2d([[12]]), tf.tensor2d([[0]]), tf.tensor2d([[0]])).logProb.dataSync()));
    // u = 12, ε = 0: log N = −½log 2π; −log(1 − tanh² 12) = 2·log cosh 12
    expect(lp[0]).toBeCloseTo(-0.5 * log2pi + 2 * Math.log(Math.cosh(12)), 3);
  });
});

describe('SquashedGaussianActor', () => {
  it('has mean and clamped log-std heads', () => {
    const actor = new SquashedGaussianActor(actorSpec, 3);
    expect(actor.weightSpecs().map((s) => s.name)).toEqual([
      'actor/0/kernel',
      'actor/0/bias',
      'actor/1/kernel',
      'actor/1/bias',
      'actor/mean/kernel',
      'actor/mean/bias',
      'actor/logStd/kernel',
      'actor/logStd/bias',
    ]);
    expect(actor.variables().length).toBe(8);
    zeroExcept(actor, { 'actor/mean/bias': [0.7, -0.1], 'actor/logStd/bias': [50, -50] });
    const out = tf.tidy(() => {
      const o = actor.forward(tf.ones([1, 3]));
      return { mean: Array.from(o.mean.dataSync()), logStd: Array.from(o.logStd.dataSync()) };
    });
    expect(out.mean[0]).toBeCloseTo(0.7, 6);
    expect(out.mean[1]).toBeCloseTo(-0.1, 6);
    expect(out.logStd).toEqual([LOG_STD_MAX, LOG_STD_MIN]);
    expect(new SquashedGaussianActor(actorSpec, 3).getWeights()).toEqual(new SquashedGaussianActor(actorSpec, 3).getWeights());
    actor.dispose();
  });
});

describe('QCritic', () => {
  it('reads [s, a] concatenated and returns q [B]', () => {
    const critic = new QCritic({ obsDim: 3, actionDim: 2, hidden: [4], activation: 'relu' }, 1);
    expect(critic.weightSpecs()[0]).toEqual({ name: 'q/0/kernel', shape: [5, 4] });
    // one hidden unit that copies the action's second value (relu), head weight 3, head bias 0.25:
    // q = 3·relu(a₁) + 0.25
    const k0 = new Array(20).fill(0);
    k0[4 * 4 + 0] = 1; // input 4 (= a₁) → unit 0
    zeroExcept(critic, { 'q/0/kernel': k0, 'q/1/kernel': [3, 0, 0, 0], 'q/1/bias': [0.25] });
    const q = read(
      tf.tidy(() => critic.qValue(tf.tensor2d([[1, 2, 3], [4, 5, 6]]), tf.tensor2d([[9, 0.5], [9, -1]]))),
    );
    expect(q.length).toBe(2);
    expect(q[0]).toBeCloseTo(3 * 0.5 + 0.25, 6);
    expect(q[1]).toBeCloseTo(0.25, 6);
    critic.dispose();
  });
});

describe('normalNoise', () => {
  it('is seeded and standard normal', () => {
    expect(normalNoise(new Rng(4), 5)).toEqual(normalNoise(new Rng(4), 5));
    const z = normalNoise(new Rng(9), 20_000);
    const mean = z.reduce((a, b) => a + b, 0) / z.length;
    const variance = z.reduce((a, b) => a + (b - mean) ** 2, 0) / z.length;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(variance - 1)).toBeLessThan(0.04);
  });
});
