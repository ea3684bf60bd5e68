import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { DeterministicActor, QCritic, normalNoise } from '../../../src/core/continuousMlp';
import { Rng } from '../../../src/core/rng';
import { Td3, type Td3Batch, type Td3Config } from '../../../src/algorithms/td3';
import { actorSpec, criticSpec, disposeBatch, expectFlatTensorCount, obsDim, noiseOf, randomBatch, read, same, runOnWasm } from './offPolicySetup';
import { TD3_PARAMS } from './descriptorParams';

runOnWasm();

function make(config: Partial<Td3Config> = {}, seed = 1): Td3 {
  return new Td3(
    {
      actor: new DeterministicActor(actorSpec, seed),
      critic1: new QCritic(criticSpec, seed),
      critic2: new QCritic(criticSpec, seed + 1),
      actorTarget: new DeterministicActor(actorSpec, seed + 100),
      critic1Target: new QCritic(criticSpec, seed + 101),
      critic2Target: new QCritic(criticSpec, seed + 102),
    },
    { ...TD3_PARAMS, ...config },
  );
}

/** A random batch, through the replay buffer and the tensor conversion. */
function batchOf(B: number, seed: number): Td3Batch {
  const { batch, rng } = randomBatch(B, seed);
  return { ...batch, targetNoise: noiseOf(rng, B) };
}


describe('Td3', () => {
  it('smooths the target action: noise clipped to ±c·scale, the action clipped to the bounds', () => {
    const alg = make({ targetPolicyNoise: 0.2, targetNoiseClip: 0.5 });
    // Push μ' of dimension 0 near its upper bound 2: head bias 3 → 2·tanh(3 + …) ≈ 1.99.
    const w = alg.actorTarget.getWeights();
    w[3] = Float32Array.from([3, 0]);
    alg.actorTarget.setWeights(w);
    const nextObs = tf.tensor2d(normalNoise(new Rng(8), 4 * obsDim), [4, obsDim]);
    const mu = read(alg.actorTarget.forward(nextObs).action);
    const eps = [0.3, -0.4, 10, -10, -10, 10, 1, 2];
    const a = read(tf.tidy(() => alg.smoothedTargetActions(nextObs, tf.tensor2d(eps, [4, 2]))));
    const scale = [2, 1];
    const clip = (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi);
    for (let i = 0; i < 8; i++) {
      const j = i % 2;
      const noise = clip(0.2 * eps[i], -0.5, 0.5) * scale[j];
      expect(a[i]).toBeCloseTo(clip(mu[i] + noise, actorSpec.actionLow[j], actorSpec.actionHigh[j]), 5);
    }
    expect(a[2]).toBe(2); // ≈1.99 + 0.5·2 → clipped to the bound
    expect(a[3]).toBeCloseTo(mu[3] - 0.5, 5); // ε = −10 → noise −c·scale = −0.5, inside the bounds
    expect(a[4]).toBeCloseTo(mu[4] - 1, 5); // ε = −10 on dimension 0: −0.5·2
    // y = r + γ(1 − d)·min(Q1', Q2') at the smoothed action
    const b = batchOf(6, 9);
    const y = read(tf.tidy(() => alg.targets(b)));
    const [q1, q2] = tf.tidy(() => {
      const aa = alg.smoothedTargetActions(b.nextObs, b.targetNoise);
      return [alg.critic1Target.qValue(b.nextObs, aa), alg.critic2Target.qValue(b.nextObs, aa)];
    }).map(read);
    const r = read(b.rewards.clone());
    const d = read(b.dones.clone());
    expect(q1.some((v, i) => v !== q2[i])).toBe(true);
    for (let i = 0; i < 6; i++) expect(y[i]).toBeCloseTo(r[i] + 0.99 * (1 - d[i]) * Math.min(q1[i], q2[i]), 5);
    nextObs.dispose();
    disposeBatch(b);
    alg.dispose();
  });

  it('updates the actor and the targets only every policyDelay updates, the critics every update', () => {
    const alg = make({ policyDelay: 3 });
    const b = batchOf(16, 10);
    const flags: number[] = [];
    for (let n = 1; n <= 7; n++) {
      const actor = alg.model.getWeights();
      const targets = [alg.actorTarget, alg.critic1Target, alg.critic2Target].map((m) => m.getWeights());
      const critics = [alg.critic1, alg.critic2].map((m) => m.getWeights());
      const m = alg.learn(b);
      flags.push(m.actorUpdated);
      const delayed = n % 3 === 0;
      expect(same(alg.model.getWeights(), actor)).toBe(!delayed);
      [alg.actorTarget, alg.critic1Target, alg.critic2Target].forEach((t, k) => expect(same(t.getWeights(), targets[k])).toBe(!delayed));
      [alg.critic1, alg.critic2].forEach((c, k) => expect(same(c.getWeights(), critics[k])).toBe(false));
      if (n < 3) expect(m.actorLoss).toBeUndefined();
      else expect(Number.isFinite(m.actorLoss)).toBe(true);
    }
    expect(flags).toEqual([0, 0, 1, 0, 0, 1, 0]);
    expect(alg.numUpdates).toBe(7);
    disposeBatch(b);
    alg.dispose();
  });

  it('lowers the twin critic loss on a fixed batch (actor and targets frozen)', () => {
    const alg = make({ actorLr: 0, tau: 0, criticLr: 3e-3 });
    const b = batchOf(32, 11);
    const losses = Array.from({ length: 150 }, () => alg.learn(b).criticLoss);
    expect(losses[149]).toBeLessThan(0.3 * losses[0]);
    disposeBatch(b);
    alg.dispose();
  });

  it('lowers the actor loss −Q1(s, μ(s)) on a fixed batch (critics frozen)', () => {
    const alg = make({ criticLr: 0, actorLr: 3e-3, policyDelay: 1 });
    const b = batchOf(32, 12);
    const losses = Array.from({ length: 60 }, () => alg.learn(b).actorLoss);
    expect(losses[59]).toBeLessThan(losses[0] - 0.05);
    disposeBatch(b);
    alg.dispose();
  });

  it('refuses a batch without target noise', () => {
    const alg = make();
    const b = batchOf(4, 13);
    const { targetNoise, ...rest } = b;
    expect(() => alg.learn(rest as Td3Batch)).toThrow(/targetNoise must be a \[4, 2\] tensor/);
    targetNoise.dispose();
    disposeBatch(rest);
    alg.dispose();
  });

  it('keeps the tensor count flat over 2,000 updates', () => {
    const alg = make();
    const b = batchOf(8, 14);
    expectFlatTensorCount(alg, b, 2); // the first delayed update (the second) creates the actor's Adam state
    disposeBatch(b);
    alg.dispose();
  }, 60_000);
});
