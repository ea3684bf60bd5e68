import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { QCritic, SquashedGaussianActor } from '../../../src/core/continuousMlp';
import { Sac, type SacBatch, type SacConfig } from '../../../src/algorithms/sac';
import { actorSpec, criticSpec, disposeBatch, expectFlatTensorCount, obsDim, noiseOf, randomBatch, read, same, runOnWasm } from './offPolicySetup';
import { SAC_PARAMS } from './descriptorParams';

runOnWasm();

function make(config: Partial<SacConfig> = {}, seed = 1): Sac {
  return new Sac(
    {
      actor: new SquashedGaussianActor(actorSpec, seed),
      critic1: new QCritic(criticSpec, seed),
      critic2: new QCritic(criticSpec, seed + 1),
      critic1Target: new QCritic(criticSpec, seed + 101),
      critic2Target: new QCritic(criticSpec, seed + 102),
    },
    { ...SAC_PARAMS, ...config },
  );
}

/** A random batch, through the replay buffer and the tensor conversion. */
function batchOf(B: number, seed: number): SacBatch {
  const { batch, rng } = randomBatch(B, seed);
  return { ...batch, noise: noiseOf(rng, B), nextNoise: noiseOf(rng, B) };
}

/** Fix the actor's policy to mean 0 and log-std `logStd` everywhere (zero weights, head biases only). */
function fixPolicy(alg: Sac, logStd: number): void {
  alg.model.setWeights(
    alg.model.weightSpecs().map((s) => {
      const n = s.shape.reduce((a, b) => a * b, 1);
      return s.name === 'actor/logStd/bias' ? new Float32Array(n).fill(logStd) : new Float32Array(n);
    }),
  );
}

const alphaOf = (alg: Sac) => Math.exp(alg.logAlpha.dataSync()[0]);


describe('Sac', () => {
  it('computes the soft target y = r + γ(1 − d)(min Q′(s′, a′) − α log π(a′|s′)) with the given ε', () => {
    const alg = make({ initAlpha: 0.5 });
    expect(alg.targetEntropy).toBe(-2); // −|A|
    expect(alg.models().length).toBe(5);
    // the targets (built from other seeds) start as copies of the critics
    expect(same(alg.critic1Target.getWeights(), alg.critic1.getWeights())).toBe(true);
    expect(same(alg.critic2Target.getWeights(), alg.critic2.getWeights())).toBe(true);
    const b = batchOf(6, 2);
    const y = read(tf.tidy(() => alg.targets(b, tf.scalar(0.5))));
    const { q1, q2, logp } = tf.tidy(() => {
      const s = alg.policySample(b.nextObs, b.nextNoise);
      return { q1: alg.critic1Target.qValue(b.nextObs, s.action), q2: alg.critic2Target.qValue(b.nextObs, s.action), logp: s.logProb };
    });
    const [Q1, Q2, L] = [q1, q2, logp].map(read);
    const r = read(b.rewards.clone());
    const d = read(b.dones.clone());
    for (let i = 0; i < 6; i++) expect(y[i]).toBeCloseTo(r[i] + 0.99 * (1 - d[i]) * (Math.min(Q1[i], Q2[i]) - 0.5 * L[i]), 4);
    // same ε, same sample: deterministic for a seed
    const again = read(tf.tidy(() => alg.targets(b, tf.scalar(0.5))));
    expect(again).toEqual(y);
    disposeBatch(b);
    alg.dispose();
  });

  it('raises α when the entropy is below the target and lowers it when above', () => {
    // σ = e^−5 per dimension: entropy ≈ 2·(½log 2πe − 5) ≈ −7.2, below H̄ = −2
    const low = make({ alphaLr: 0.01 });
    fixPolicy(low, -5);
    const b = batchOf(64, 3);
    const m1 = low.learn(b);
    expect(m1.entropy).toBeLessThan(-2);
    expect(alphaOf(low)).toBeGreaterThan(1);
    low.dispose();
    // σ = 1: the squashed Gaussian's entropy is about 2·(1.42 − 0.87) ≈ 1.1, above H̄ = −2
    const high = make({ alphaLr: 0.01 });
    fixPolicy(high, 0);
    const m2 = high.learn(b);
    expect(m2.entropy).toBeGreaterThan(-2);
    expect(alphaOf(high)).toBeLessThan(1);
    high.dispose();
    // the same policy against a target entropy above its own: α goes up
    const demanding = make({ alphaLr: 0.01, targetEntropy: 5 });
    fixPolicy(demanding, 0);
    demanding.learn(b);
    expect(alphaOf(demanding)).toBeGreaterThan(1);
    demanding.dispose();
    // autotune off: α stays
    const fixed = make({ autotune: false, initAlpha: 0.2 });
    const m3 = fixed.learn(b);
    expect(m3.alpha).toBeCloseTo(0.2, 6);
    expect(alphaOf(fixed)).toBeCloseTo(0.2, 6);
    expect(m3.alphaLoss).toBeUndefined();
    fixed.dispose();
    disposeBatch(b);
  });

  it('lowers the twin critic loss on a fixed batch (actor, α and targets frozen)', () => {
    const alg = make({ actorLr: 0, autotune: false, tau: 0, criticLr: 3e-3 });
    const b = batchOf(32, 4);
    const losses = Array.from({ length: 150 }, () => alg.learn(b).criticLoss);
    expect(losses[149]).toBeLessThan(0.3 * losses[0]);
    disposeBatch(b);
    alg.dispose();
  });

  it('lowers the actor loss mean(α log π − min Q) on a fixed batch (critics and α frozen)', () => {
    const alg = make({ criticLr: 0, autotune: false, initAlpha: 0.2, actorLr: 3e-3 });
    const b = batchOf(32, 5);
    const losses = Array.from({ length: 60 }, () => alg.learn(b).actorLoss);
    expect(losses[59]).toBeLessThan(losses[0] - 0.05);
    disposeBatch(b);
    alg.dispose();
  });

  it('lowers the temperature loss on a fixed batch (actor and critics frozen)', () => {
    const alg = make({ criticLr: 0, actorLr: 0, alphaLr: 0.01 });
    const b = batchOf(32, 6);
    const losses = Array.from({ length: 30 }, () => alg.learn(b).alphaLoss);
    expect(losses[29]).toBeLessThan(losses[0]);
    disposeBatch(b);
    alg.dispose();
  });

  it('acts inside the bounds: predict = bias + scale·tanh(mean), sample = [mean | logStd]', () => {
    const alg = make();
    fixPolicy(alg, -1);
    const obs = tf.ones([2, obsDim]) as tf.Tensor2D;
    expect(read(alg.predict(obs))).toEqual([0, 0, 0, 0]);
    expect(read(alg.sample(obs))).toEqual([0, 0, -1, -1, 0, 0, -1, -1]);
    const eps = tf.tensor2d([[1, -1], [100, -100]]);
    const a = read(alg.explore(obs, eps));
    expect(a[0]).toBeCloseTo(2 * Math.tanh(Math.exp(-1)), 5);
    expect(a[1]).toBeCloseTo(-Math.tanh(Math.exp(-1)), 5);
    expect(a[2]).toBeCloseTo(2, 5);
    expect(a[3]).toBeCloseTo(-1, 5);
    tf.dispose([obs, eps]);
    alg.dispose();
  });

  it('keeps the tensor count flat over 2,000 updates', () => {
    const alg = make();
    const b = batchOf(8, 7);
    expectFlatTensorCount(alg, b);
    disposeBatch(b);
    alg.dispose();
  }, 90_000);
});
