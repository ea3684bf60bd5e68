import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { typedArrayPath } from '../../../src/core/backendSums';
import { chooseBackend } from '../../../src/core/backend';
import { QMlp, type MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { DQN_FIXED, Dqn, linearEpsilon, type DqnBatch } from '../../../src/algorithms/dqn';
import { clipByGlobalNorm } from '../../../src/core/tensorUtils';
import { actOnce, expectNoLeak, numActions, obsDim } from './helpers';
import { DQN_PARAMS } from './descriptorParams';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const spec: MlpSpec = { obsDim, numActions, hidden: [16], activation: 'relu', kind: 'q' };

function transitions(B: number, seed: number): DqnBatch {
  const rng = new Rng(seed);
  return {
    obs: new Float32Array(B * obsDim).map(() => rng.normal()),
    nextObs: new Float32Array(B * obsDim).map(() => rng.normal()),
    actions: new Int32Array(B).map(() => rng.int(numActions)),
    rewards: new Float32Array(B).map(() => rng.uniform()),
    dones: new Uint8Array(B).map(() => (rng.uniform() < 0.2 ? 1 : 0)),
    batchSize: B,
  };
}

function qOf(model: QMlp, obs: Float32Array): Float32Array {
  const q = tf.tidy(() => model.forward(tf.tensor2d(obs, [obs.length / obsDim, obsDim])).q);
  const out = new Float32Array(q.dataSync());
  q.dispose();
  return out;
}

const sameWeights = (a: Float32Array[], b: Float32Array[]) => a.every((w, i) => w.every((v, k) => v === b[i][k]));

describe('linearEpsilon', () => {
  it('decays linearly over fraction·total steps, then holds', () => {
    // duration = 0.5·1000 = 500: ε(250) = 1 + (0.05 − 1)·250/500 = 0.525
    expect(linearEpsilon(0, 1, 0.05, 0.5, 1000)).toBe(1);
    expect(linearEpsilon(250, 1, 0.05, 0.5, 1000)).toBeCloseTo(0.525, 12);
    expect(linearEpsilon(500, 1, 0.05, 0.5, 1000)).toBe(0.05);
    expect(linearEpsilon(10_000, 1, 0.05, 0.5, 1000)).toBe(0.05);
    expect(linearEpsilon(3, 1, 0.05, 0, 1000)).toBe(0.05);
  });
});

describe('Dqn', () => {
  it('holds a target network that learn() never changes until syncTarget()', () => {
    const online = new QMlp(spec, 1);
    const target = new QMlp(spec, 2);
    const alg = new Dqn(online, target, { ...DQN_PARAMS, lr: 1e-2 });
    expect(alg.models()).toEqual([online, target]);
    expect(sameWeights(target.getWeights(), online.getWeights())).toBe(true); // θ⁻ ← θ at construction
    const w0 = target.getWeights();
    const b = transitions(32, 1);
    for (let i = 0; i < 5; i++) alg.learn(b);
    expect(sameWeights(target.getWeights(), w0)).toBe(true);
    expect(sameWeights(online.getWeights(), w0)).toBe(false);
    alg.syncTarget();
    expect(sameWeights(target.getWeights(), online.getWeights())).toBe(true);
    expect(() => new Dqn(online, online, DQN_PARAMS)).toThrow(/separate/);
    alg.dispose();
  });

  it('TD targets: y = r + γ(1 − d)·max Q⁻(s′), and double DQN evaluates argmax Q_θ with Q⁻', () => {
    for (const doubleDqn of [false, true]) {
      const online = new QMlp(spec, 3);
      const target = new QMlp(spec, 4);
      const alg = new Dqn(online, target, { ...DQN_PARAMS, gamma: 0.9, doubleDqn });
      online.setWeights(new QMlp(spec, 5).getWeights()); // make online ≠ target
      const b = transitions(16, 2);
      const y = tf.tidy(() => alg.tdTargets(tf.tensor1d(b.rewards), tf.tensor2d(b.nextObs, [16, obsDim]), tf.tensor1d(Float32Array.from(b.dones))).dataSync());
      const qT = qOf(target, b.nextObs);
      const qO = qOf(online, b.nextObs);
      for (let i = 0; i < 16; i++) {
        const [t0, t1] = [qT[2 * i], qT[2 * i + 1]];
        const next = doubleDqn ? (qO[2 * i] >= qO[2 * i + 1] ? t0 : t1) : Math.max(t0, t1);
        expect(y[i]).toBeCloseTo(b.rewards[i] + 0.9 * (1 - b.dones[i]) * next, 5);
      }
      alg.dispose();
    }
  });

  it('Huber loss: 0.5·δ² inside κ, κ(|δ| − κ/2) outside; raising Q(s,a) toward y lowers it', () => {
    const model = new QMlp({ obsDim: 1, numActions: 2, hidden: [], activation: 'relu', kind: 'q' }, 1);
    const alg = new Dqn(model, new QMlp({ obsDim: 1, numActions: 2, hidden: [], activation: 'relu', kind: 'q' }, 2), DQN_PARAMS);
    const loss = (bias0: number, y: number) => {
      model.setWeights([new Float32Array([0, 0]), new Float32Array([bias0, 0])]); // Q(s, ·) = [bias0, 0]
      return tf.tidy(() => alg.lossTerms(tf.tensor2d([[1]]), tf.tensor1d([0], 'int32'), tf.tensor1d([y])).loss.dataSync()[0]);
    };
    expect(loss(0, 0.5)).toBeCloseTo(0.125, 6); // δ = −0.5: 0.5·0.25
    expect(loss(0, 3)).toBeCloseTo(2.5, 6); // δ = −3: 1·(3 − 0.5)
    expect(loss(1, 3)).toBeLessThan(loss(0, 3));
    alg.dispose();
  });

  it('repeated learn() on a fixed batch lowers the loss; ε-greedy sample()', () => {
    const alg = new Dqn(new QMlp(spec, 6), new QMlp(spec, 7), { ...DQN_PARAMS, lr: 3e-3 });
    expect(alg.config).toEqual({ ...DQN_FIXED, ...DQN_PARAMS, lr: 3e-3 });
    const b = transitions(64, 3);
    const first = alg.learn(b);
    expect(Object.keys(first).sort()).toEqual(['epsilon', 'gradNorm', 'loss', 'qMean']);
    let last = first;
    for (let i = 0; i < 20; i++) last = alg.learn(b);
    expect(last.loss).toBeLessThan(first.loss * 0.8);
    alg.epsilon = 0.1;
    const p = tf.tidy(() => alg.sample(tf.tensor2d(b.obs.slice(0, 3 * obsDim), [3, obsDim])).arraySync() as number[][]);
    for (const row of p) {
      expect(row.reduce((a, c) => a + c, 0)).toBeCloseTo(1, 6);
      expect(Math.max(...row)).toBeCloseTo(0.95, 6); // (1 − ε) + ε/A
      expect(Math.min(...row)).toBeCloseTo(0.05, 6); // ε/A
    }
    expect(() => alg.learn({ ...b, rewards: new Float32Array(2) })).toThrow(/2 rewards/);
    alg.dispose();
  });

  it('no tensor leaks across learn / predict / sample / syncTarget', () => {
    const alg = new Dqn(new QMlp(spec, 8), new QMlp(spec, 9), { ...DQN_PARAMS, doubleDqn: true, tau: 0.5 });
    const b = transitions(32, 4);
    expectNoLeak(() => {
      alg.learn(b);
      alg.syncTarget();
      actOnce(alg);
    });
    const n = tf.memory().numTensors;
    alg.dispose();
    expect(tf.memory().numTensors).toBeLessThan(n);
  });
});

describe('Dqn.learn, the fast path', () => {
  it('takes exactly the steps of clipByGlobalNorm + tf.train.adam (per variable), bit for bit', () => {
    const config = { ...DQN_PARAMS, lr: 1e-2, doubleDqn: true };
    const fast = new QMlp(spec, 4);
    const ref = new QMlp(spec, 4);
    const fastAlg = new Dqn(fast, new QMlp(spec, 4), config);
    const refAlg = new Dqn(ref, new QMlp(spec, 4), config);
    const opt: tf.Optimizer = tf.train.adam(refAlg.config.lr, 0.9, 0.999, refAlg.config.eps);
    for (let step = 0; step < 12; step++) {
      const b = transitions(32, 100 + step);
      fastAlg.learn(b);
      tf.tidy(() => {
        const obs = tf.tensor2d(b.obs, [b.batchSize, obsDim]);
        const y = refAlg.tdTargets(tf.tensor1d(b.rewards), tf.tensor2d(b.nextObs, [b.batchSize, obsDim]), tf.tensor1d(Float32Array.from(b.dones)));
        const { grads } = tf.variableGrads(() => refAlg.lossTerms(obs, tf.tensor1d(b.actions, 'int32'), y).loss, ref.variables());
        opt.applyGradients(clipByGlobalNorm(grads, refAlg.config.maxGradNorm).grads as tf.NamedTensorMap);
      });
      if (step === 5) {
        fastAlg.syncTarget();
        refAlg.syncTarget();
      }
    }
    const bits = (m: QMlp) => m.getWeights().map((w) => Array.from(new Uint32Array(w.buffer)));
    expect(bits(fast)).toEqual(bits(ref));
    expect(sameWeights(fast.getWeights(), new QMlp(spec, 4).getWeights())).toBe(false); // it did learn
    opt.dispose();
    fastAlg.dispose();
    refAlg.dispose();
  });
});

describe('Dqn.learn({ steps }): several gradient steps, one readback', () => {
  it('gives the weights of one learn() per batch and the float64 means of their metrics', () => {
    const config = { ...DQN_PARAMS, lr: 1e-2, doubleDqn: true };
    const one = new Dqn(new QMlp(spec, 11), new QMlp(spec, 12), config);
    const many = new Dqn(new QMlp(spec, 11), new QMlp(spec, 12), config);
    one.epsilon = many.epsilon = 0.3;
    const batches = [0, 1, 2].map((i) => transitions(16, 200 + i));
    const each = batches.map((b) => one.learn(b));
    const together = many.learn({ steps: batches });
    const bits = (m: Dqn) => m.model.getWeights().map((w) => Array.from(new Uint32Array(w.buffer)));
    expect(bits(many)).toEqual(bits(one));
    // What the loop computed from per-step results: sum in step order, then divide.
    for (const k of ['loss', 'qMean', 'gradNorm', 'epsilon']) {
      expect(together[k]).toBe((0 + each[0][k] + each[1][k] + each[2][k]) / 3);
    }
    // The 3·ε sum in float64 is not 3·0.3, so ε too goes through the same sum.
    expect(together.epsilon).toBe((0 + 0.3 + 0.3 + 0.3) / 3);
    one.dispose();
    many.dispose();
  });

  it('reads back once however many steps on the tensor path (GPU backends), and frees every step tensor', () => {
    const alg = new Dqn(new QMlp(spec, 13), new QMlp(spec, 14), DQN_PARAMS);
    const batches = [0, 1, 2, 3, 4].map((i) => transitions(8, 300 + i));
    alg.learn({ steps: batches.slice(0, 1) }); // Adam's moments are created on the first step
    const backend = tf.backend();
    const readSync = vi.spyOn(backend, 'readSync');
    const read = vi.spyOn(backend, 'read');
    typedArrayPath.enabled = false; // on cpu/wasm the optimizer reads its inputs as typed arrays (copies, not GPU stalls)
    try {
      alg.learn({ steps: batches });
    } finally {
      typedArrayPath.enabled = true;
    }
    expect(readSync.mock.calls.length + read.mock.calls.length).toBe(1);
    readSync.mockRestore();
    read.mockRestore();
    expectNoLeak(() => alg.learn({ steps: batches }), 3);
    expect(() => alg.learn({ steps: [] })).toThrow(/no batches/);
    expect(() => alg.learn({ steps: [batches[0], { ...batches[1], dones: new Uint8Array(3) }] })).toThrow(/3 dones/);
    alg.dispose();
  });
});
