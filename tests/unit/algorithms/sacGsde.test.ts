import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { GsdeActor, QCritic, SquashedGaussianActor, type ActorSpec } from '../../../src/core/continuousMlp';
import { GSDE_EPSILON } from '../../../src/core/gsde';
import { create, Sac, sacModels, type SacBatch, type SacConfig } from '../../../src/algorithms/sac';
import { actionDim, criticSpec, disposeBatch, noiseOf, obsDim, randomBatch, read, runOnWasm, same } from './offPolicySetup';
import { SAC_PARAMS } from './descriptorParams';

runOnWasm();

const H = 16;
const sdeSpec: ActorSpec = { obsDim, actionDim, hidden: [H], activation: 'relu', actionLow: [-2, -1], actionHigh: [2, 1], sde: { logStdInit: -1, sampleFreq: -1 } };

function make(config: Partial<SacConfig> = {}, seed = 1, spec = sdeSpec): Sac {
  return new Sac(
    {
      actor: new GsdeActor(spec, seed),
      critic1: new QCritic(criticSpec, seed),
      critic2: new QCritic(criticSpec, seed + 1),
      critic1Target: new QCritic(criticSpec, seed + 101),
      critic2Target: new QCritic(criticSpec, seed + 102),
    },
    { ...SAC_PARAMS, ...config },
  );
}

/** A random batch with a fixed exploration draw E [H, A]. */
function batchOf(B: number, seed: number, latentDim = H): SacBatch {
  const { batch, rng } = randomBatch(B, seed);
  return { ...batch, noise: noiseOf(rng, B), nextNoise: noiseOf(rng, B), sdeNoise: tf.tensor2d(Float32Array.from({ length: latentDim * actionDim }, () => rng.normal()), [latentDim, actionDim]) };
}

const gaussLogPdf = (x: number, v: number) => -(x * x) / (2 * v) - 0.5 * Math.log(v) - 0.5 * Math.log(2 * Math.PI);

describe('SAC with gSDE', () => {
  it('samples u = μ + z·(σ∘E) with log π = Σ_j [log N(u_j; μ_j, (z²·σ²)_j + δ) − log(1 − tanh²u_j)], μ clipped to ±2', () => {
    // H = 2 latent units: trunk kernel 0 and bias [1, 2] make z = relu([1, 2]) = [1, 2] for every s;
    // mean head kernel 0, bias [0.3, 2.5] gives μ = [0.3, clip(2.5) = 2].
    const spec: ActorSpec = { ...sdeSpec, hidden: [2] };
    const alg = make({}, 1, spec);
    const sigma = [
      [0.5, 0.2],
      [0.1, 1],
    ];
    alg.model.setWeights([new Float32Array(obsDim * 2), Float32Array.of(1, 2), new Float32Array(2 * actionDim), Float32Array.of(0.3, 2.5), Float32Array.from(sigma.flat(), Math.log)]);
    const E = [
      [1, -1],
      [0.5, 2],
    ];
    const obs = tf.tensor2d([
      [0.1, -0.4, 2],
      [3, 1, -1],
    ]);
    const eps = tf.tensor2d(E);
    const { action, logProb } = tf.tidy(() => {
      const s = alg.policySample(obs, eps);
      return { action: read(s.action), logProb: read(s.logProb) };
    });
    const z = [1, 2];
    const mu = [0.3, 2];
    let expectedLogProb = 0;
    const expectedAction: number[] = [];
    for (let j = 0; j < 2; j++) {
      // noise_j = Σ_k z_k σ_kj E_kj: [1·0.5·1 + 2·0.1·0.5, 1·0.2·(−1) + 2·1·2] = [0.6, 3.8]
      const noise = z[0] * sigma[0][j] * E[0][j] + z[1] * sigma[1][j] * E[1][j];
      const variance = z[0] ** 2 * sigma[0][j] ** 2 + z[1] ** 2 * sigma[1][j] ** 2 + GSDE_EPSILON;
      const u = mu[j] + noise;
      expectedLogProb += gaussLogPdf(noise, variance) - Math.log(1 - Math.tanh(u) ** 2);
      expectedAction.push((j === 0 ? 2 : 1) * Math.tanh(u));
    }
    expect([0.6, 3.8].map((n, j) => mu[j] + n)).toEqual([0.3 + 0.6, 2 + 3.8]);
    for (const r of [0, 1]) {
      expect(logProb[r]).toBeCloseTo(expectedLogProb, 3);
      expect(action[2 * r]).toBeCloseTo(expectedAction[0], 5);
      expect(action[2 * r + 1]).toBeCloseTo(expectedAction[1], 5);
    }
    // sample() reports [μ | ½ log Var(u|s)], predict() the squashed mean.
    const sampled = read(alg.sample(obs));
    expect(sampled[0]).toBeCloseTo(0.3, 6);
    expect(sampled[1]).toBeCloseTo(2, 6);
    expect(sampled[2]).toBeCloseTo(0.5 * Math.log(0.25 + 0.04 + GSDE_EPSILON), 5);
    expect(sampled[3]).toBeCloseTo(0.5 * Math.log(0.04 + 4 + GSDE_EPSILON), 5);
    const greedy = read(alg.predict(obs));
    expect(greedy[0]).toBeCloseTo(2 * Math.tanh(0.3), 5);
    expect(greedy[1]).toBeCloseTo(Math.tanh(2), 5);
    tf.dispose([obs, eps]);
    alg.dispose();
  });

  it('uses one exploration draw for the whole batch, at s and at s′, and needs it', () => {
    const alg = make({ initAlpha: 0.5 });
    const b = batchOf(6, 2);
    const y = read(tf.tidy(() => alg.targets(b, tf.scalar(0.5))));
    const { q1, q2, logp } = tf.tidy(() => {
      const s = alg.policySample(b.nextObs, b.sdeNoise as tf.Tensor2D);
      return { q1: read(alg.critic1Target.qValue(b.nextObs, s.action)), q2: read(alg.critic2Target.qValue(b.nextObs, s.action)), logp: read(s.logProb) };
    });
    const r = read(b.rewards.clone());
    const d = read(b.dones.clone());
    for (let i = 0; i < 6; i++) expect(y[i]).toBeCloseTo(r[i] + 0.99 * (1 - d[i]) * (Math.min(q1[i], q2[i]) - 0.5 * logp[i]), 4);
    // the per-row ε are not used: other ε, same targets
    const other: SacBatch = { ...b, nextNoise: tf.zerosLike(b.nextNoise) };
    expect(read(tf.tidy(() => alg.targets(other, tf.scalar(0.5))))).toEqual(y);
    other.nextNoise.dispose();
    expect(alg.updateDraws()).toEqual([{ name: 'sdeNoise', shape: [H, actionDim] }]);
    const { sdeNoise, ...without } = b;
    expect(() => alg.learn(without)).toThrow(/sdeNoise/);
    const wrong: SacBatch = { ...b, sdeNoise: tf.zeros([H + 1, actionDim]) };
    expect(() => alg.learn(wrong)).toThrow(/sdeNoise/);
    tf.dispose([sdeNoise, wrong.sdeNoise as tf.Tensor]);
    disposeBatch(without);
    alg.dispose();
  });

  it('lowers the actor loss on a fixed batch and trains the log-std matrix through it (critics frozen)', () => {
    const alg = make({ criticLr: 0, autotune: false, initAlpha: 0.2, actorLr: 3e-3 });
    const L0 = Array.from((alg.model as GsdeActor).logStd.dataSync());
    const b = batchOf(32, 5);
    const metrics = Array.from({ length: 60 }, () => alg.learn(b));
    expect(metrics[59].actorLoss).toBeLessThan(metrics[0].actorLoss - 0.05);
    const L1 = Array.from((alg.model as GsdeActor).logStd.dataSync());
    expect(L1.some((v, i) => Math.abs(v - L0[i]) > 1e-3)).toBe(true);
    // the reported std is the mean of exp(L) after the update
    expect(metrics[59].sdeStd).toBeCloseTo(L1.reduce((acc, v) => acc + Math.exp(v), 0) / L1.length, 5);
    disposeBatch(b);
    alg.dispose();
  });

  it('lowers the twin critic loss on a fixed batch (actor and targets frozen)', () => {
    const alg = make({ actorLr: 0, autotune: false, tau: 0, criticLr: 3e-3 });
    const b = batchOf(32, 4);
    const losses = Array.from({ length: 150 }, () => alg.learn(b).criticLoss);
    expect(losses[149]).toBeLessThan(0.3 * losses[0]);
    disposeBatch(b);
    alg.dispose();
  });

  it('gives the same numbers for the same seed and batch, and keeps the tensor count flat', () => {
    const run = () => {
      const alg = make({}, 7);
      const b = batchOf(8, 3);
      const metrics = [alg.learn(b), alg.learn(b)];
      const weights = alg.model.getWeights();
      disposeBatch(b);
      alg.dispose();
      return { metrics, weights };
    };
    const a = run();
    const c = run();
    expect(a.metrics).toEqual(c.metrics);
    expect(same(a.weights, c.weights)).toBe(true);

    const alg = make();
    const b = batchOf(8, 3);
    alg.learn(b);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 200; i++) alg.learn(b);
    tf.dispose([alg.predict(b.obs), alg.sample(b.obs), alg.explore(b.obs, b.sdeNoise as tf.Tensor2D)]);
    expect(tf.memory().numTensors).toBe(before);
    disposeBatch(b);
    alg.dispose();
  });

  it('builds the gSDE actor only when the spec asks, and create() checks the setting against it', () => {
    const plain = { ...sdeSpec, sde: undefined };
    expect(sacModels(plain, 1).actor).toBeInstanceOf(SquashedGaussianActor);
    const models = sacModels(sdeSpec, 1);
    expect(models.actor).toBeInstanceOf(GsdeActor);
    // same trunk and mean head as the plain actor for a seed; L starts at logStdInit everywhere
    const g = models.actor.getWeights();
    const p = sacModels(plain, 1).actor.getWeights();
    expect(same(g.slice(0, 4), p.slice(0, 4))).toBe(true);
    expect(Array.from(g[4])).toEqual(new Array(H * actionDim).fill(Math.fround(-1)));
    expect(models.actor.weightSpecs().at(-1)).toEqual({ name: 'actor/sdeLogStd', shape: [H, actionDim] });
    const params = { actorLr: 3e-4, criticLr: 3e-4, alphaLr: 3e-4, gamma: 0.99, tau: 0.005, initAlpha: 1, autotune: true, bufferSize: 1000, batchSize: 8, learningStarts: 0, sdeSampleFreq: -1, logStdInit: -1 };
    expect(() => create(plain, { ...params, useSde: true }, 1)).toThrow(/useSde/);
    expect(() => create(sdeSpec, { ...params, useSde: false }, 1)).toThrow(/useSde/);
    const plainSac = create(plain, { ...params, useSde: false }, 1);
    expect(plainSac.updateDraws()).toEqual([]);
    plainSac.dispose();
    for (const m of [...Object.values(models)]) m.dispose();
  });
});
