import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { create } from '../../../src/algorithms/ppoContinuous';
import { chooseBackend } from '../../../src/core/backend';
import { diagGaussianLogProb, type ActorSpec } from '../../../src/core/continuousMlp';
import { Rng } from '../../../src/core/rng';
import { segmentGae } from '../../../src/engine/loops/onPolicyContinuous';

const NET: ActorSpec = { obsDim: 3, actionDim: 2, actionLow: [-2, -1], actionHigh: [2, 1], hidden: [16], activation: 'tanh' };

describe('Gaussian PPO', () => {
  beforeAll(async () => {
    await chooseBackend({ preferred: 'wasm' });
  });

  it('log-prob and entropy of a diagonal Gaussian match the density computed by hand', () => {
    // μ = (0.5, −1), σ = (e^0.2, e^−0.3), a = (1, 0): log N = Σ −(a−μ)²/(2σ²) − log σ − ½ log 2π
    const mu = [0.5, -1];
    const ls = [0.2, -0.3];
    const a = [1, 0];
    let want = 0;
    let ent = 0;
    for (let i = 0; i < 2; i++) {
      const sd = Math.exp(ls[i]);
      want += Math.log(Math.exp(-((a[i] - mu[i]) ** 2) / (2 * sd * sd)) / (sd * Math.sqrt(2 * Math.PI)));
      ent += 0.5 * Math.log(2 * Math.PI * Math.E * sd * sd);
    }
    const out = tf.tidy(() => {
      const r = diagGaussianLogProb(tf.tensor2d([mu]), tf.tensor2d([ls]), tf.tensor2d([a]));
      return [r.logProb.dataSync()[0], r.entropy.dataSync()[0]];
    });
    expect(out[0]).toBeCloseTo(want, 5);
    expect(out[1]).toBeCloseTo(ent, 5);
  });

  it('GAE bootstraps from V(s′) at a time-limit cut but not at a terminal state', () => {
    // One env, T = 3, γ = 0.5, λ = 1. Step 0 is cut by the time limit (ended, not terminal), step 2 ends in a terminal state.
    const seg = { rewards: Float32Array.from([1, 2, 3]), dones: Uint8Array.from([0, 0, 1]), ended: Uint8Array.from([1, 0, 1]) };
    const V = Float32Array.from([10, 20, 30]);
    const Vn = Float32Array.from([4, 30, 99]);
    const { advantages, returns } = segmentGae(seg, V, Vn, 3, 1, 0.5, 1);
    // Â_2 = 3 − 30 = −27 (terminal: no V(s′)); Â_1 = 2 + 0.5·30 − 20 + 0.5·(−27) = −16.5; Â_0 = 1 + 0.5·4 − 10 = −7 (cut: no Â_1).
    expect(Array.from(advantages)).toEqual([-7, -16.5, -27]);
    expect(Array.from(returns)).toEqual([3, 3.5, 3]);
  });

  it('an update raises log π of actions with positive advantage and keeps the tensor count flat', () => {
    const ppo = create(NET, { lr: 3e-3, gamma: 0.99, gaeLambda: 0.95, clipCoef: 0.2, updateEpochs: 4, numMinibatches: 2, entCoef: 0, vfCoef: 0.5, maxGradNorm: 0.5, annealLr: false }, 1);
    const rng = new Rng(4);
    const B = 64;
    const obs = Float32Array.from({ length: B * 3 }, () => rng.normal());
    const actions = Float32Array.from({ length: B * 2 }, (_, i) => (i % 2 === 0 ? 1 : -0.5));
    const logOf = () =>
      tf.tidy(() => {
        const { mean, logStd } = ppo.model.forward(tf.tensor2d(obs, [B, 3]));
        return diagGaussianLogProb(mean, logStd, tf.tensor2d(actions, [B, 2])).logProb.dataSync().slice() as Float32Array;
      });
    const old = logOf();
    const batch = { obs, actions, logProbs: old, advantages: Float32Array.from({ length: B }, (_, i) => (i % 4) + 1), returns: new Float32Array(B), batchSize: B };
    ppo.learn(batch);
    const before = tf.memory().numTensors;
    ppo.learn(batch);
    expect(tf.memory().numTensors).toBe(before);
    const after = logOf();
    expect(after.reduce((a, b) => a + b, 0)).toBeGreaterThan(old.reduce((a, b) => a + b, 0));
    ppo.dispose();
  });

  it('learnSteps is learn one minibatch a step, and an update closed halfway frees what it held', () => {
    const params = { lr: 3e-3, gamma: 0.99, gaeLambda: 0.95, clipCoef: 0.2, updateEpochs: 2, numMinibatches: 2, entCoef: 0.01, vfCoef: 0.5, maxGradNorm: 0.5, annealLr: false };
    const rng = new Rng(5);
    const B = 32;
    const batch = {
      obs: Float32Array.from({ length: B * 3 }, () => rng.normal()),
      actions: Float32Array.from({ length: B * 2 }, () => rng.normal()),
      logProbs: Float32Array.from({ length: B }, () => -2 + 0.1 * rng.normal()),
      advantages: Float32Array.from({ length: B }, () => rng.normal()),
      returns: Float32Array.from({ length: B }, () => rng.normal()),
      batchSize: B,
    };
    const whole = create(NET, params, 1);
    const stepped = create(NET, params, 1);
    const want = whole.learn(batch);
    const steps = stepped.learnSteps(batch);
    let yields = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) yields += 1;
    expect(yields).toBe(2 * 2);
    expect(r.value).toEqual(want);
    expect(stepped.model.getWeights()).toEqual(whole.model.getWeights());

    const before = tf.memory().numTensors;
    const halfway = stepped.learnSteps(batch);
    for (let k = 0; k < 3; k++) halfway.next();
    halfway.return({});
    expect(tf.memory().numTensors).toBe(before);
    whole.dispose();
    stepped.dispose();
  });
});
