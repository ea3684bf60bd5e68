import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { ActorCriticMlp, type MlpSpec } from '../../../src/core/mlp';
import { IMPALA_FIXED, Impala, type ImpalaBatch } from '../../../src/algorithms/impala';
import { gae } from '../../../src/algorithms/gae';
import { actOnce, expectNoLeak, logProbsOf, numActions, obsDim, rollout } from './helpers';
import { IMPALA_PARAMS } from './descriptorParams';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const spec: MlpSpec = { obsDim, numActions, hidden: [16], activation: 'tanh', kind: 'actorCritic' };
const tiny: MlpSpec = { obsDim: 1, numActions: 2, hidden: [], activation: 'tanh', kind: 'actorCritic' };

function segment(model: ActorCriticMlp, T: number, N: number, seed: number, offPolicy = 0): ImpalaBatch {
  const b = rollout(T, N, seed);
  const logp = logProbsOf(model, b.obs, b.actions);
  return {
    obs: b.obs,
    actions: b.actions,
    behaviourLogProbs: logp.map((l, i) => l + offPolicy * (i % 2 ? 1 : -1)),
    rewards: b.rewards,
    dones: b.dones,
    bootstrapObs: b.bootstrapObs,
    numEnvs: N,
  };
}

/** V(x) under the model, read back. */
function valuesOf(model: ActorCriticMlp, obs: Float32Array): Float32Array {
  const v = tf.tidy(() => model.forward(tf.tensor2d(obs, [obs.length / obsDim, obsDim])).value);
  const out = new Float32Array(v.dataSync());
  v.dispose();
  return out;
}

describe('Impala', () => {
  it('has the paper defaults', () => {
    const alg = new Impala(new ActorCriticMlp(spec, 1), IMPALA_PARAMS);
    expect(alg.config).toEqual({ ...IMPALA_FIXED, ...IMPALA_PARAMS });
    expect(alg.config.maxGradNorm).toBe(40);
    alg.dispose();
  });

  it('loss sign: raising log π of a positive-advantage action lowers the policy loss', () => {
    const model = new ActorCriticMlp(tiny, 1);
    const alg = new Impala(model, IMPALA_PARAMS);
    const pg = (bias0: number) => {
      model.setWeights([new Float32Array([0, 0]), new Float32Array([bias0, 0]), new Float32Array([0]), new Float32Array([0])]);
      return tf.tidy(() => alg.lossTerms(tf.tensor2d([[1], [1]]), tf.tensor1d([0, 1], 'int32'), tf.tensor1d([1, -1]), tf.tensor1d([0, 0])).pgLoss.dataSync()[0]);
    };
    expect(pg(0)).toBeCloseTo(0, 6);
    expect(pg(1)).toBeCloseTo(-0.5, 5); // −(log σ(1) − log σ(−1))/2
    alg.dispose();
  });

  it('on-policy targets: ρ = 1 and v_s = the GAE(λ = 1) returns under the current values', () => {
    const model = new ActorCriticMlp(spec, 2);
    const alg = new Impala(model, { ...IMPALA_PARAMS, gamma: 0.9 });
    const b = segment(model, 6, 3, 3);
    const t = alg.targets(b);
    t.rhos.forEach((r) => expect(r).toBeCloseTo(1, 5));
    const values = valuesOf(model, b.obs);
    const last = valuesOf(model, b.bootstrapObs);
    const { returns } = gae(b.rewards, values, b.dones, last, 0.9, 1, 3);
    t.vs.forEach((v, i) => expect(v).toBeCloseTo(returns[i], 4));
    alg.dispose();
  });

  it('off-policy segment: ρ is clipped at 1; learn() lowers the loss on a fixed segment', () => {
    const model = new ActorCriticMlp(spec, 3);
    const alg = new Impala(model, { ...IMPALA_PARAMS, lr: 3e-3, optimizer: 'adam' });
    const b = segment(model, 8, 4, 4, 0.5);
    const t = alg.targets(b);
    expect(Math.max(...t.rhos)).toBeLessThanOrEqual(1);
    expect(Math.min(...t.rhos)).toBeLessThan(1);
    const first = alg.learn(b);
    expect(Object.keys(first).sort()).toEqual(['entropy', 'gradNorm', 'loss', 'meanRho', 'pgLoss', 'valueLoss']);
    let last = first;
    for (let i = 0; i < 15; i++) last = alg.learn(b);
    expect(last.valueLoss).toBeLessThan(first.valueLoss);
    expect(last.loss).toBeLessThan(first.loss);
    expect(() => alg.learn({ ...b, bootstrapObs: new Float32Array(3) })).toThrow(/bootstrapObs/);
    alg.dispose();
  });

  it('no tensor leaks across learn calls', () => {
    const model = new ActorCriticMlp(spec, 4);
    const alg = new Impala(model, IMPALA_PARAMS);
    const b = segment(model, 5, 2, 5, 0.3);
    expectNoLeak(() => {
      alg.learn(b);
      actOnce(alg);
    });
    alg.dispose();
  });
});
