import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { create } from '../../../src/algorithms/sac';
import { ContinuousReplayBuffer } from '../../../src/algorithms/replayBuffer';
import { resolveExperiment } from '../../../src/config/config';
import { chooseBackend } from '../../../src/core/backend';
import type { ActorSpec } from '../../../src/core/continuousMlp';
import { GsdeExploration } from '../../../src/core/gsde';
import { deriveSeed, Rng } from '../../../src/core/rng';
import { buildContinuousLearner, continuousNetFor } from '../../../src/engine/continuousLearner';
import { ContinuousPolicy, GREEDY, type ExploreMode } from '../../../src/engine/continuousPolicy';
import { ContinuousRolloutActor } from '../../../src/engine/continuousRolloutActor';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const SAMPLE: ExploreMode = { random: false, noise: 0, sample: true };

describe('GsdeExploration (the actors’ exploration matrices)', () => {
  const logStd = Float32Array.from([0.3, 0.1, 2, 0.7, 0.05, 1], Math.log); // H = 3, A = 2

  it('gives noise z·M that is linear in z for a fixed matrix and changes only when resampled', () => {
    const e = new GsdeExploration(3, 2);
    expect(() => e.noise(Float32Array.of(1, 1, 1), 0)).toThrow(/resample/);
    e.resample(new Rng(1), logStd, 2);
    const z1 = Float32Array.of(0.5, -1, 2);
    const z2 = Float32Array.of(1.5, 0, 0.25);
    const combo = Float32Array.from(z1, (v, k) => 2 * v - 3 * z2[k]);
    const [n1, n2, nc] = [z1, z2, combo].map((z) => e.noise(z, 0));
    for (let j = 0; j < 2; j++) expect(nc[j]).toBeCloseTo(2 * n1[j] - 3 * n2[j], 5);
    expect(Array.from(e.noise(z1, 0))).toEqual(Array.from(n1)); // same matrix, same noise
    expect(Array.from(e.noise(z1, 1))).not.toEqual(Array.from(n1)); // each env copy has its own
    e.resample(new Rng(2), logStd, 2);
    expect(Array.from(e.noise(z1, 0))).not.toEqual(Array.from(n1));
    // M = exp(L) ∘ E with E the Rng's normals, row-major, env copy 0 first
    const rng = new Rng(2);
    const E = Array.from({ length: 6 }, () => rng.normal());
    const want = [0, 1].map((j) => [0, 1, 2].reduce((acc, k) => acc + z1[k] * Math.exp(logStd[k * 2 + j]) * E[k * 2 + j], 0));
    const got = e.noise(z1, 0);
    expect(got[0]).toBeCloseTo(want[0], 5);
    expect(got[1]).toBeCloseTo(want[1], 5);
  });

  it('has, over draws of M, the variance (z²·σ²)_j that SAC’s log-probability uses', () => {
    const e = new GsdeExploration(3, 2);
    const rng = new Rng(3);
    const z = Float32Array.of(0.5, 2, -1.5);
    const n = 20_000;
    const sq = [0, 0];
    for (let i = 0; i < n; i++) {
      e.resample(rng, logStd, 1);
      const noise = e.noise(z, 0);
      for (let j = 0; j < 2; j++) sq[j] += noise[j] * noise[j];
    }
    for (let j = 0; j < 2; j++) {
      const variance = [0, 1, 2].reduce((acc, k) => acc + z[k] ** 2 * Math.exp(2 * logStd[k * 2 + j]), 0);
      expect(sq[j] / n).toBeGreaterThan(0.96 * variance);
      expect(sq[j] / n).toBeLessThan(1.04 * variance);
    }
  });
});

// Pendulum-v1: obs (cos θ, sin θ, θ̇), torque in [−2, 2]. Hidden [2]: trunk kernel picks cos and sin and
// the bias 1.5 keeps both positive, so z = (cos θ + 1.5, sin θ + 1.5); mean head 0 (μ = 0); σ = (0.3, 0.2).
const SEED = 4;
const ACTOR = 2;
const sigma = [0.3, 0.2];
function sdeActor(sampleFreq: number, numEnvs = 1): ContinuousRolloutActor {
  const net: ActorSpec = { obsDim: 3, actionDim: 1, hidden: [2], activation: 'relu', actionLow: [-2], actionHigh: [2], sde: { logStdInit: -3, sampleFreq } };
  const actor = new ContinuousRolloutActor({ envId: 'Pendulum-v1', numEnvs, seed: SEED, actorIndex: ACTOR, policy: 'squashedGaussian', net });
  actor.setWeights([Float32Array.of(1, 0, 0, 1, 0, 0), Float32Array.of(1.5, 1.5), new Float32Array(2), new Float32Array(1), Float32Array.from(sigma, Math.log)], 0);
  return actor;
}

/** The actions a = 2·tanh(z·M) of one env copy, with M drawn from the actor's Rng at the given steps. */
function expectedActions(obs: Float32Array, T: number, resampleAt: (t: number) => boolean): number[] {
  const rng = new Rng(deriveSeed(SEED, ACTOR, 0xc0a7)); // the actor's stream, as it documents
  let m = [0, 0];
  const out: number[] = [];
  for (let t = 0; t < T; t++) {
    if (resampleAt(t)) m = sigma.map((s) => s * rng.normal());
    const z = [obs[3 * t] + 1.5, obs[3 * t + 1] + 1.5];
    out.push(2 * Math.tanh(z[0] * m[0] + z[1] * m[1]));
  }
  return out;
}

describe('the rollout actor with gSDE', () => {
  it('draws a new matrix at each segment start and every sampleFreq steps', () => {
    const T = 12;
    const every4 = sdeActor(4).sampleTransitions(null, 0, T, SAMPLE);
    const want4 = expectedActions(every4.obs, T, (t) => t % 4 === 0);
    want4.forEach((a, t) => expect(every4.actions[t]).toBeCloseTo(a, 5));

    const actor = sdeActor(-1);
    const once = actor.sampleTransitions(null, 0, T, SAMPLE);
    const wantOnce = expectedActions(once.obs, T, (t) => t === 0);
    wantOnce.forEach((a, t) => expect(once.actions[t]).toBeCloseTo(a, 5));
    // with one matrix for the whole segment, the other schedule does not fit
    const wrong = expectedActions(once.obs, T, (t) => t % 4 === 0);
    expect(wrong.slice(4).some((a, t) => Math.abs(a - once.actions[t + 4]) > 1e-3)).toBe(true);
    // the next segment starts with a new matrix (the Rng has moved on by one draw of M)
    const next = actor.sampleTransitions(null, 0, 4, SAMPLE);
    const rng = new Rng(deriveSeed(SEED, ACTOR, 0xc0a7));
    sigma.forEach(() => rng.normal());
    const m = sigma.map((s) => s * rng.normal());
    expect(next.actions[0]).toBeCloseTo(2 * Math.tanh((next.obs[0] + 1.5) * m[0] + (next.obs[1] + 1.5) * m[1]), 5);
  });

  it('gives the same segment for the same seed, one matrix per env copy', () => {
    const a = sdeActor(-1, 2).sampleTransitions(null, 0, 20, SAMPLE);
    const b = sdeActor(-1, 2).sampleTransitions(null, 0, 20, SAMPLE);
    expect(Array.from(a.actions)).toEqual(Array.from(b.actions));
    // both copies start from different states with different matrices: different actions
    expect(a.actions[0]).not.toBe(a.actions[1]);
  });

  it('acts with the mean when greedy and uniformly during the warm-up, drawing no matrix', () => {
    const actor = sdeActor(-1);
    const greedy = actor.rollEpisodes(null, 1, GREEDY);
    expect(greedy.lengths[0]).toBe(200);
    const seg = actor.sampleTransitions(null, 0, 5, { random: true, noise: 0, sample: true });
    const rng = new Rng(deriveSeed(SEED, ACTOR, 0xc0a7));
    for (let t = 0; t < 5; t++) expect(seg.actions[t]).toBeCloseTo(2 * (2 * rng.uniform() - 1), 5);
    // μ = 0 and no noise: greedy actions are 0 (the episode's return is the uncontrolled pendulum's)
    const policy = new ContinuousPolicy('squashedGaussian', { obsDim: 3, actionDim: 1, hidden: [2], activation: 'relu', actionLow: [-2], actionHigh: [2], sde: { logStdInit: -3, sampleFreq: -1 } });
    policy.setWeights([Float32Array.of(1, 0, 0, 1, 0, 0), Float32Array.of(1.5, 1.5), new Float32Array(2), new Float32Array(1), Float32Array.from(sigma, Math.log)]);
    expect(Array.from(policy.act(Float32Array.of(1, 0, 0), 1, new Rng(1), GREEDY))).toEqual([0]);
    expect(() => policy.act(Float32Array.of(1, 0, 0), 1, new Rng(1), SAMPLE)).toThrow(/exploration/);
  });
});

describe('gSDE from the config to the learner and the actors', () => {
  it('the MountainCarContinuous preset turns it on with the zoo’s log_std_init; sac-pendulum stays plain', () => {
    const mc = continuousNetFor(resolveExperiment('sac-mountaincar-continuous', {}));
    expect(mc.sde).toEqual({ logStdInit: -3.67, sampleFreq: -1 });
    expect(continuousNetFor(resolveExperiment('sac-pendulum', {})).sde).toBeUndefined();
    expect(continuousNetFor(resolveExperiment('sac-pendulum', { 'sac.useSde': true, 'sac.sdeSampleFreq': 8 })).sde).toEqual({ logStdInit: -3, sampleFreq: 8 });
  });

  it('the actors’ typed-array policy samples what Sac.explore computes for the same matrix', async () => {
    const config = resolveExperiment('sac-mountaincar-continuous', { seed: 3 });
    const net = continuousNetFor(config);
    const alg = create(net, { actorLr: 3e-4, criticLr: 3e-4, alphaLr: 3e-4, gamma: 0.99, tau: 0.01, initAlpha: 0.1, autotune: false, bufferSize: 1000, batchSize: 8, learningStarts: 0, useSde: true, sdeSampleFreq: -1, logStdInit: -1 }, 3);
    // a larger L than the preset's so that the noise is visible
    const weights = alg.model.getWeights();
    weights[weights.length - 1].fill(-1);
    alg.model.setWeights(weights);
    const policy = new ContinuousPolicy('squashedGaussian', net);
    policy.setWeights(await alg.model.getWeightsAsync());
    const exploration = policy.newExploration();
    policy.resampleExploration(exploration, new Rng(9), 1);
    const replay = new Rng(9);
    const E = tf.tensor2d(Float32Array.from({ length: 64 }, () => replay.normal()), [64, 1]);
    const states = [Float32Array.of(-0.5, 0), Float32Array.of(-1.1, 0.05), Float32Array.of(0.3, -0.02)];
    for (const s of states) {
      const js = policy.act(s, 1, new Rng(1), SAMPLE, undefined, exploration);
      const obs = tf.tensor2d(s, [1, 2]);
      const fromTf = tf.tidy(() => alg.explore(obs, E).dataSync()[0]);
      expect(js[0]).toBeCloseTo(fromTf, 4);
      expect(Math.abs(js[0] - tf.tidy(() => alg.predict(obs).dataSync()[0]))).toBeGreaterThan(1e-3);
      obs.dispose();
    }
    E.dispose();
    alg.dispose();
  });

  it('the learner draws the [64, 1] exploration matrix per update from its seeded Rng: same seed, same update', async () => {
    const config = resolveExperiment('sac-mountaincar-continuous', { seed: 2, 'sac.batchSize': 16 });
    const run = async () => {
      const { agent } = await buildContinuousLearner(config);
      const buffer = new ContinuousReplayBuffer(100, 2, 1, 5);
      const rng = new Rng(5);
      for (let i = 0; i < 50; i++) buffer.add([rng.uniformRange(-1.2, 0.6), rng.uniformRange(-0.07, 0.07)], [rng.uniformRange(-1, 1)], -0.1, [rng.uniformRange(-1.2, 0.6), 0], 0);
      const metrics = [agent.learn(buffer.sample(16)), agent.learn(buffer.sample(16))];
      const weights = await agent.getWeightsAsync();
      agent.dispose();
      return { metrics, weights };
    };
    const a = await run();
    const b = await run();
    expect(a.metrics).toEqual(b.metrics);
    expect(a.weights.map((w) => Array.from(w))).toEqual(b.weights.map((w) => Array.from(w)));
    expect(a.weights.at(-1)?.length).toBe(64); // L [64, 1] travels with the weights
    expect(a.metrics[0].sdeStd).toBeGreaterThan(0);
  });
});
