import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { ActorCriticMlp, type MlpSpec } from '../../../src/core/mlp';
import { A2C_FIXED, A2c } from '../../../src/algorithms/a2c';
import { gae } from '../../../src/algorithms/gae';
import { actOnce, expectNoLeak, numActions, obsDim, rollout, scalar } from './helpers';
import { A2C_PARAMS } from './descriptorParams';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const spec: MlpSpec = { obsDim, numActions, hidden: [16], activation: 'tanh', kind: 'actorCritic' };
const tiny: MlpSpec = { obsDim: 1, numActions: 2, hidden: [], activation: 'tanh', kind: 'actorCritic' };

describe('A2c', () => {
  it('has SB3 defaults and overrides', () => {
    const alg = new A2c(new ActorCriticMlp(spec, 1), { ...A2C_PARAMS, lr: 0.01 });
    expect(alg.config).toEqual({ ...A2C_FIXED, ...A2C_PARAMS, lr: 0.01 });
    expect(A2C_FIXED.optimizer).toBe('rmsprop');
    alg.dispose();
  });

  it('loss sign: raising log π of a positive-advantage action lowers the policy loss; V → R lowers the value loss', () => {
    const model = new ActorCriticMlp(tiny, 1);
    const alg = new A2c(model, A2C_PARAMS);
    // weights: policy kernel [1,2], policy bias [2], value kernel [1,1], value bias [1]
    const terms = (bias0: number, vBias: number) => {
      model.setWeights([new Float32Array([0, 0]), new Float32Array([bias0, 0]), new Float32Array([0]), new Float32Array([vBias])]);
      return tf.tidy(() => {
        const t = alg.lossTerms(tf.tensor2d([[1], [1]]), tf.tensor1d([0, 1], 'int32'), tf.tensor1d([1, -1]), tf.tensor1d([2, 2]));
        return [t.pgLoss.dataSync()[0], t.valueLoss.dataSync()[0]];
      });
    };
    // logits [0, 0]: L_pg = −(log .5·1 + log .5·(−1))/2 = 0; V = 0, R = 2: L_v = 0.5·4 = 2
    expect(terms(0, 0)[0]).toBeCloseTo(0, 6);
    expect(terms(0, 0)[1]).toBeCloseTo(2, 6);
    // bias0 = 1: L_pg = −(log σ(1) − log σ(−1))/2 = −0.5
    expect(terms(1, 0)[0]).toBeCloseTo(-0.5, 5);
    expect(terms(0, 1.5)[1]).toBeCloseTo(0.5 * 0.25, 6);
    alg.dispose();
  });

  it('loss = L_pg + vfCoef·L_v − entCoef·H', () => {
    const alg = new A2c(new ActorCriticMlp(spec, 2), { ...A2C_PARAMS, entCoef: 0.1, vfCoef: 0.7 });
    const b = rollout(4, 2, 1);
    const [loss, pg, v, h] = tf.tidy(() => {
      const t = alg.lossTerms(tf.tensor2d(b.obs, [8, obsDim]), tf.tensor1d(b.actions, 'int32'), tf.tensor1d(b.rewards), tf.tensor1d(b.values));
      return [t.loss, t.pgLoss, t.valueLoss, t.entropy].map((s) => s.dataSync()[0]);
    });
    expect(loss).toBeCloseTo(pg + 0.7 * v - 0.1 * h, 5);
    expect(scalar(() => tf.scalar(h))).toBeGreaterThan(0.69);
    alg.dispose();
  });

  it('repeated learn() on a fixed batch lowers the loss; GAE inside = precomputed', () => {
    const b = rollout(8, 4, 2);
    const alg = new A2c(new ActorCriticMlp(spec, 3), { ...A2C_PARAMS, lr: 0.01 });
    const first = alg.learn(b);
    expect(Object.keys(first).sort()).toEqual(['entropy', 'explainedVariance', 'gradNorm', 'loss', 'pgLoss', 'valueLoss']);
    let last = first;
    for (let i = 0; i < 15; i++) last = alg.learn(b);
    expect(last.loss).toBeLessThan(first.loss - 0.05);
    alg.dispose();

    const { advantages, returns } = gae(b.rewards, b.values, b.dones, b.lastValues, 0.99, 1, 4);
    const x = new A2c(new ActorCriticMlp(spec, 4), A2C_PARAMS);
    const y = new A2c(new ActorCriticMlp(spec, 4), A2C_PARAMS);
    expect(y.learn({ obs: b.obs, actions: b.actions, batchSize: 32, advantages, returns }).loss).toBe(x.learn(b).loss);
    expect(() => x.learn({ obs: b.obs, actions: b.actions, batchSize: 32 })).toThrow(/needs `advantages`/);
    x.dispose();
    y.dispose();
  });

  it('no tensor leaks across learn / predict / sample', () => {
    const b = rollout(8, 4, 3);
    const alg = new A2c(new ActorCriticMlp(spec, 5), { ...A2C_PARAMS, optimizer: 'adam' });
    expectNoLeak(() => {
      alg.learn(b);
      actOnce(alg);
    });
    alg.dispose();
  });
});
