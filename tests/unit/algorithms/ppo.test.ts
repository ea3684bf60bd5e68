import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { ActorCriticMlp, type MlpSpec } from '../../../src/core/mlp';
import { resolveAdvantages, type ActorCriticModel } from '../../../src/algorithms/common';
import { Rng } from '../../../src/core/rng';
import { clipByGlobalNorm } from '../../../src/core/tensorUtils';
import { PPO_FIXED, Ppo, type PpoBatch } from '../../../src/algorithms/ppo';
import { actOnce, expectNoLeak, logProbsOf, numActions, obsDim, rollout } from './helpers';
import { PPO_PARAMS } from './descriptorParams';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const spec: MlpSpec = { obsDim, numActions, hidden: [16], activation: 'tanh', kind: 'actorCritic' };
const tiny: MlpSpec = { obsDim: 1, numActions: 2, hidden: [], activation: 'tanh', kind: 'actorCritic' };

/** A rollout whose logProbs are the model's own (on-policy at the first step). */
function batchFor(model: ActorCriticModel, T: number, N: number, seed: number): PpoBatch {
  const b = rollout(T, N, seed);
  return { ...b, logProbs: logProbsOf(model, b.obs, b.actions) };
}

describe('Ppo', () => {
  it('has CleanRL defaults', () => {
    const alg = new Ppo(new ActorCriticMlp(spec, 1), { ...PPO_PARAMS, clipCoef: 0.1 });
    expect(alg.config).toEqual({ ...PPO_FIXED, ...PPO_PARAMS, clipCoef: 0.1 });
    expect(() => new Ppo(new ActorCriticMlp(spec, 1), { ...PPO_PARAMS, numMinibatches: 0 })).toThrow(/numMinibatches/);
    alg.dispose();
  });

  it('loss sign, ratio, clipping and approx KL on a hand-made minibatch', () => {
    const model = new ActorCriticMlp(tiny, 1);
    const alg = new Ppo(model, { ...PPO_PARAMS, normAdv: false, clipVloss: false, entCoef: 0 });
    const terms = (bias0: number, oldLogP: number) => {
      model.setWeights([new Float32Array([0, 0]), new Float32Array([bias0, 0]), new Float32Array([0]), new Float32Array([0])]);
      return tf.tidy(() => {
        const t = alg.lossTerms({
          obs: tf.tensor2d([[1], [1]]),
          actions: tf.tensor1d([0, 1], 'int32'),
          oldLogProbs: tf.tensor1d([oldLogP, oldLogP]),
          advantages: tf.tensor1d([1, -1]),
          returns: tf.tensor1d([0, 0]),
        });
        return { pg: t.pgLoss.dataSync()[0], kl: t.approxKl.dataSync()[0], clipFrac: t.clipFrac.dataSync()[0] };
      });
    };
    // on-policy (π = π_old = 0.5): r = 1, L_pg = mean(−1·1, +1·1) = 0, KL = 0, nothing clipped
    const on = terms(0, Math.log(0.5));
    expect(on.pg).toBeCloseTo(0, 6);
    expect(on.kl).toBeCloseTo(0, 6);
    expect(on.clipFrac).toBe(0);
    // bias0 = 0.1: π(0) = σ(0.1) = 0.52498, r_0 = 1.04996; π(1) = 0.47502, r_1 = 0.95004 (both inside [0.8, 1.2])
    // L_pg = mean(−1·1.04996, +1·0.95004) = −0.04996 < 0: raising π of the A > 0 action lowers the loss
    const up = terms(0.1, Math.log(0.5));
    expect(up.pg).toBeCloseTo(-0.049958, 5);
    expect(up.kl).toBeGreaterThan(0);
    // π_old = 0.1 → r = 5 for both: all clipped; L_pg = mean(max(−5, −1.2), max(5, 1.2)) = mean(−1.2, 5) = 1.9
    const off = terms(0, Math.log(0.1));
    expect(off.clipFrac).toBe(1);
    expect(off.pg).toBeCloseTo(1.9, 5);
    // approxKl = (r − 1) − log r = 4 − log 5
    expect(off.kl).toBeCloseTo(4 - Math.log(5), 4);
    alg.dispose();
  });

  it('value clipping: L_v = 0.5·mean(max((V − R)², (V_clip − R)²))', () => {
    const model = new ActorCriticMlp(tiny, 1);
    const alg = new Ppo(model, { ...PPO_PARAMS, clipCoef: 0.2 });
    model.setWeights([new Float32Array([0, 0]), new Float32Array([0, 0]), new Float32Array([0]), new Float32Array([1])]); // V = 1
    const v = tf.tidy(() =>
      alg
        .lossTerms({
          obs: tf.tensor2d([[1]]),
          actions: tf.tensor1d([0], 'int32'),
          oldLogProbs: tf.tensor1d([Math.log(0.5)]),
          advantages: tf.tensor1d([0]),
          returns: tf.tensor1d([1]),
          oldValues: tf.tensor1d([0]),
        })
        .valueLoss.dataSync()[0],
    );
    // V = 1 = R, but V_clip = 0 + clip(1, −0.2, 0.2) = 0.2: L_v = 0.5·max(0, 0.64) = 0.32
    expect(v).toBeCloseTo(0.32, 5);
    alg.dispose();
  });

  it('learn() returns mean metrics, lowers the loss on a fixed batch, and is seeded', () => {
    const make = () => new Ppo(new ActorCriticMlp(spec, 3), { ...PPO_PARAMS, lr: 3e-3, seed: 7 });
    const a = make();
    const b = batchFor(a.model, 8, 4, 2);
    const first = a.learn(b);
    expect(Object.keys(first).sort()).toEqual(['approxKl', 'clipFrac', 'entropy', 'epochs', 'explainedVariance', 'gradNorm', 'loss', 'pgLoss', 'valueLoss']);
    expect(first.epochs).toBe(4);
    expect(first.approxKl).toBeGreaterThanOrEqual(0);
    let last = first;
    for (let i = 0; i < 4; i++) last = a.learn(b);
    expect(last.loss).toBeLessThan(first.loss);
    expect(last.valueLoss).toBeLessThan(first.valueLoss);
    const c = make();
    expect(c.learn(b)).toEqual(first);
    a.dispose();
    c.dispose();
  });

  it('targetKl stops early; checks the batch', () => {
    const alg = new Ppo(new ActorCriticMlp(spec, 4), { ...PPO_PARAMS, lr: 1e-2, targetKl: 1e-12 });
    const b = batchFor(alg.model, 8, 4, 5);
    expect(alg.learn(b).epochs).toBe(1);
    expect(() => alg.learn({ ...b, logProbs: new Float32Array(3) })).toThrow(/logProbs \[32\]/);
    expect(() => alg.learn({ ...b, values: undefined, advantages: new Float32Array(32), returns: new Float32Array(32) })).toThrow(/clipVloss needs values/);
    alg.dispose();
  });

  it('no tensor leaks across learn calls', () => {
    const alg = new Ppo(new ActorCriticMlp(spec, 5), { ...PPO_PARAMS, numMinibatches: 2, updateEpochs: 2 });
    const b = batchFor(alg.model, 4, 4, 6);
    expectNoLeak(() => {
      alg.learn(b);
      actOnce(alg);
    }, 20);
    alg.dispose();
  });
});

describe('Ppo.learn, the fast path', () => {
  // The per-variable path learn() replaced: tf.gather minibatches, clipByGlobalNorm, tf.train.adam.
  // learn() must take exactly its steps (same weights, bit for bit) with fewer kernels.
  function referenceLearn(model: ActorCriticModel, alg: Ppo, batch: PpoBatch): void {
    const { advantages, returns } = resolveAdvantages(batch, alg.config.gamma, alg.config.gaeLambda, 'reference');
    const B = batch.batchSize;
    const M = alg.config.numMinibatches;
    const opt: tf.Optimizer = tf.train.adam(alg.config.lr, 0.9, 0.999, alg.config.eps);
    const rng = new Rng(alg.config.seed).fork(0x990); // Ppo's shuffling stream
    const full = {
      obs: tf.tensor2d(batch.obs, [B, obsDim]),
      actions: tf.tensor1d(batch.actions, 'int32'),
      oldLogProbs: tf.tensor1d(batch.logProbs),
      advantages: tf.tensor1d(advantages),
      returns: tf.tensor1d(returns),
      oldValues: tf.tensor1d(batch.values as Float32Array),
    };
    const order = Array.from({ length: B }, (_, i) => i);
    for (let epoch = 0; epoch < alg.config.updateEpochs; epoch++) {
      rng.shuffle(order);
      for (let k = 0; k < M; k++) {
        tf.tidy(() => {
          const i = tf.tensor1d(order.slice(Math.floor((k * B) / M), Math.floor(((k + 1) * B) / M)), 'int32');
          const mb = {
            obs: tf.gather(full.obs, i),
            actions: tf.gather(full.actions, i),
            oldLogProbs: tf.gather(full.oldLogProbs, i),
            advantages: tf.gather(full.advantages, i),
            returns: tf.gather(full.returns, i),
            oldValues: tf.gather(full.oldValues, i),
          };
          const { grads } = tf.variableGrads(() => alg.lossTerms(mb).loss, model.variables());
          opt.applyGradients(clipByGlobalNorm(grads, alg.config.maxGradNorm).grads as tf.NamedTensorMap);
        });
      }
    }
    opt.dispose();
    tf.dispose(Object.values(full));
  }

  it('takes exactly the steps of tf.gather + clipByGlobalNorm + tf.train.adam, over several learn() calls', () => {
    const config = { ...PPO_PARAMS, seed: 5, numMinibatches: 4, updateEpochs: 3, lr: 3e-3 };
    const fast = new ActorCriticMlp(spec, 2);
    const ref = new ActorCriticMlp(spec, 2);
    const fastAlg = new Ppo(fast, config);
    const refAlg = new Ppo(ref, config);
    const batch = batchFor(fast, 16, 4, 9);
    fastAlg.learn(batch);
    referenceLearn(ref, refAlg, batch);
    const bits = (m: ActorCriticModel) => m.getWeights().map((w) => Array.from(new Uint32Array(w.buffer)));
    expect(bits(fast)).toEqual(bits(ref));
    expect(bits(fast)).not.toEqual(bits(new ActorCriticMlp(spec, 2))); // it did learn
    fastAlg.dispose();
    refAlg.dispose();
  });

  it('runs fewer kernels than the per-variable path: at least 11K − 15 fewer per minibatch for K variables', async () => {
    const config = { ...PPO_PARAMS, numMinibatches: 4, updateEpochs: 2 };
    const fastAlg = new Ppo(new ActorCriticMlp(spec, 3), config);
    const refModel = new ActorCriticMlp(spec, 3);
    const refAlg = new Ppo(refModel, config);
    const batch = batchFor(fastAlg.model, 16, 4, 2);
    // (tf.profile hands back one shared record: read each count before the next profile)
    const fast = (await tf.profile(() => void fastAlg.learn(batch))).kernels.length;
    const ref = (await tf.profile(() => referenceLearn(refModel, refAlg, batch))).kernels.length;
    // Per minibatch, tfjs's Adam: 14 kernels per variable + 4; clipping: 3 per variable + 5 (17K + 9).
    // Fused: flatten (K + 1), scale (1), Adam (13 + 4 for the β powers), cut back (1 split, or K
    // gathers on wasm), reshape + add per variable (2K); the norm and scale 2K + 5: at most 6K + 24.
    const K = refModel.variables().length;
    expect(fast).toBeLessThanOrEqual(ref - 8 * (11 * K - 15));
    fastAlg.dispose();
    refAlg.dispose();
  });
});
