import { afterAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { ActorCriticMlp, type MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { Ppo, type PpoBatch, type PpoConfig } from '../../../src/algorithms/ppo';
import { fusedLossSupported, fusedPpoLoss } from '../../../src/algorithms/ppoFusedLoss';
import { expectNoLeak, logProbsOf } from './helpers';
import { PPO_PARAMS } from './descriptorParams';

/**
 * The fused loss must give the tfjs graph's bits: the loss, every metric and every weight after
 * several Adam steps, on both backends it runs on, in the cases that take each branch (ratios and
 * values clipped on either side, an entropy bonus, no value clipping, no normalisation).
 */

const spec = (numActions: number): MlpSpec => ({ obsDim: 5, numActions, hidden: [32, 32], activation: 'tanh', kind: 'actorCritic' });

/** A batch whose old log-probabilities and values are off the model's, so that clipping happens. */
function batchFor(model: ActorCriticMlp, B: number, numActions: number, seed: number, skew: number): PpoBatch {
  const rng = new Rng(seed);
  const obs = new Float32Array(B * 5).map(() => rng.normal());
  const actions = new Int32Array(B).map(() => rng.int(numActions));
  const own = logProbsOf(model, obs, actions);
  return {
    obs,
    actions,
    batchSize: B,
    logProbs: own.map((x) => x + skew * rng.normal()),
    values: new Float32Array(B).map(() => rng.normal()),
    advantages: new Float32Array(B).map(() => rng.normal() * 2),
    returns: new Float32Array(B).map(() => rng.normal() * 3),
  };
}

function weightsOf(model: ActorCriticMlp): Float32Array[] {
  return model.variables().map((v) => new Float32Array(v.dataSync()));
}

function expectBitEqual(a: Float32Array[], b: Float32Array[]): void {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => {
    expect(Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(b[i].buffer, b[i].byteOffset, b[i].byteLength))).toBe(true);
  });
}

/** Train two copies from the same start, fused and graph, and compare everything bit for bit. */
function compare(config: Partial<PpoConfig>, numActions: number, skew: number): void {
  const models = [new ActorCriticMlp(spec(numActions), 7), new ActorCriticMlp(spec(numActions), 7)];
  const algs = models.map((m, i) => new Ppo(m, { ...PPO_PARAMS, lr: 3e-3, updateEpochs: 3, numMinibatches: 2, ...config, fusedLoss: i === 0, seed: 3 }));
  try {
    for (let round = 0; round < 3; round++) {
      const batch = batchFor(models[0], 66, numActions, 11 + round, skew); // 33-row minibatches: a mean over 2^k rows would hide the order of its rounding
      const out = algs.map((alg) => alg.learn(batch));
      expect(out[0]).toEqual(out[1]);
      for (const k of Object.keys(out[0])) expect(Object.is(out[0][k], out[1][k])).toBe(true);
      expectBitEqual(weightsOf(models[0]), weightsOf(models[1]));
    }
  } finally {
    algs.forEach((a) => a.dispose());
  }
}

const CASES: { name: string; config: Partial<PpoConfig>; numActions: number; skew: number }[] = [
  { name: 'defaults of ppo-cartpole (clipped values, no entropy bonus)', config: { entCoef: 0, clipVloss: true }, numActions: 2, skew: 0.5 },
  { name: 'entropy bonus, 4 actions, heavy clipping', config: { entCoef: 0.05, clipCoef: 0.1 }, numActions: 4, skew: 1.5 },
  { name: 'no value clipping, no normalisation, vf 0.7', config: { clipVloss: false, normAdv: false, vfCoef: 0.7, entCoef: 0.01 }, numActions: 3, skew: 0.3 },
];

describe.each(['cpu', 'wasm'] as const)('fused PPO loss on %s', (backend) => {
  it('runs on this backend', async () => {
    expect((await chooseBackend({ preferred: backend })).name).toBe(backend);
    expect(tf.getBackend()).toBe(backend);
    expect(fusedLossSupported(256, 2)).toBe(true);
    expect(fusedLossSupported(100, 1002)).toBe(false);
  });

  it.each(CASES)('gives the graph\'s bits: $name', ({ config, numActions, skew }) => {
    compare(config, numActions, skew);
  });

  it('clips ratios and values on both sides in these cases (else the branches above go untested)', () => {
    const model = new ActorCriticMlp(spec(4), 7);
    const batch = batchFor(model, 64, 4, 11, 1.5);
    const seen = tf.tidy(() => {
      const { logits, value } = model.forward(tf.tensor2d(batch.obs, [64, 5]));
      const t = fusedPpoLoss(logits, value, { actions: batch.actions, oldLogProbs: batch.logProbs, advantages: batch.advantages as Float32Array, returns: batch.returns as Float32Array, oldValues: batch.values }, { clipCoef: 0.1, entCoef: 0.05, vfCoef: 0.5, clipVloss: true });
      const v = value.dataSync();
      const old = batch.values as Float32Array;
      return {
        low: t.ratio.some((r) => r < 0.9),
        high: t.ratio.some((r) => r > 1.1),
        vLow: Array.from(v).some((x, i) => x - old[i] < -0.1),
        vHigh: Array.from(v).some((x, i) => x - old[i] > 0.1),
      };
    });
    expect(seen).toEqual({ low: true, high: true, vLow: true, vHigh: true });
    model.dispose();
  });

  it('leaves no tensors behind', () => {
    const model = new ActorCriticMlp(spec(2), 7);
    const alg = new Ppo(model, { ...PPO_PARAMS, updateEpochs: 1, numMinibatches: 2 });
    const batch = batchFor(model, 32, 2, 5, 0.2);
    expectNoLeak(() => alg.learn(batch), 5);
    alg.dispose();
  });
});

afterAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});
