import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { DeterministicActor, QCritic, normalNoise } from '../../../src/core/continuousMlp';
import { Rng } from '../../../src/core/rng';
import { Ddpg, type DdpgConfig } from '../../../src/algorithms/ddpg';
import type { ContinuousBatch } from '../../../src/algorithms/offPolicy';
import { actorSpec, criticSpec, disposeBatch, expectFlatTensorCount, obsDim, randomBatch, read, same, runOnWasm } from './offPolicySetup';
import { DDPG_PARAMS } from './descriptorParams';

runOnWasm();

function make(config: Partial<DdpgConfig> = {}, seed = 1): Ddpg {
  return new Ddpg(
    {
      actor: new DeterministicActor(actorSpec, seed),
      critic: new QCritic(criticSpec, seed),
      actorTarget: new DeterministicActor(actorSpec, seed + 100),
      criticTarget: new QCritic(criticSpec, seed + 100),
    },
    { ...DDPG_PARAMS, ...config },
  );
}

/** A random batch, through the replay buffer and the tensor conversion. */
function batchOf(B: number, seed: number): ContinuousBatch {
  return randomBatch(B, seed).batch;
}


describe('Ddpg', () => {
  it('starts the targets as copies, bootstraps from them, and moves them by Polyak τ', () => {
    const alg = make({ tau: 0.1 });
    expect(alg.models().length).toBe(4);
    expect(same(alg.actorTarget.getWeights(), alg.model.getWeights())).toBe(true);
    expect(same(alg.criticTarget.getWeights(), alg.critic.getWeights())).toBe(true);
    const b = batchOf(8, 2);
    // y = r + γ(1 − d)·Q'(s', μ'(s')), from the target networks' own outputs
    const y = read(tf.tidy(() => alg.targets(b)));
    const r = read(b.rewards.clone());
    const d = read(b.dones.clone());
    const qNext = read(tf.tidy(() => alg.criticTarget.qValue(b.nextObs, alg.actorTarget.forward(b.nextObs).action)));
    for (let i = 0; i < 8; i++) expect(y[i]).toBeCloseTo(r[i] + 0.99 * (1 - d[i]) * qNext[i], 5);

    const targetBefore = alg.criticTarget.getWeights();
    alg.learn(b);
    const online = alg.critic.getWeights();
    const targetAfter = alg.criticTarget.getWeights();
    // θ' ← 0.1·θ + 0.9·θ'
    for (let k = 0; k < online.length; k++) {
      for (let j = 0; j < online[k].length; j += 7) expect(targetAfter[k][j]).toBeCloseTo(0.1 * online[k][j] + 0.9 * targetBefore[k][j], 6);
    }
    disposeBatch(b);
    alg.dispose();
  });

  it('explores with σ·scale·ε around μ(s), clipped to the bounds', () => {
    const alg = make({ explorationNoise: 0.1 });
    const obs = tf.tensor2d(normalNoise(new Rng(3), 2 * obsDim), [2, obsDim]);
    const mu = read(alg.predict(obs));
    const eps = [1, -1, 30, -30]; // the second row goes far outside the bounds
    const a = read(alg.explore(obs, tf.tensor2d(eps, [2, 2])));
    const scale = [2, 1];
    for (let i = 0; i < 4; i++) {
      const j = i % 2;
      const want = Math.min(Math.max(mu[i] + 0.1 * scale[j] * eps[i], actorSpec.actionLow[j]), actorSpec.actionHigh[j]);
      expect(a[i]).toBeCloseTo(want, 6);
    }
    expect(a.slice(2)).toEqual([2, -1]);
    obs.dispose();
    alg.dispose();
  });

  it('lowers the critic loss on a fixed batch (actor and targets frozen)', () => {
    const alg = make({ actorLr: 0, tau: 0, criticLr: 3e-3 });
    const b = batchOf(32, 4);
    const losses = Array.from({ length: 150 }, () => alg.learn(b).criticLoss);
    expect(losses[149]).toBeLessThan(0.3 * losses[0]);
    disposeBatch(b);
    alg.dispose();
  });

  it('lowers the actor loss −Q(s, μ(s)) on a fixed batch (critic frozen)', () => {
    const alg = make({ criticLr: 0, actorLr: 3e-3 });
    const b = batchOf(32, 5);
    const losses = Array.from({ length: 60 }, () => alg.learn(b).actorLoss);
    expect(losses[59]).toBeLessThan(losses[0] - 0.05);
    disposeBatch(b);
    alg.dispose();
  });

  it('refuses a batch of the wrong shape', () => {
    const alg = make();
    const b = batchOf(4, 6);
    const wrong = { ...b, actions: tf.zeros([4, 3]) as tf.Tensor2D };
    expect(() => alg.learn(wrong)).toThrow(/batch.actions must have shape \[4, 2\], got \[4, 3\]/);
    disposeBatch(b);
    wrong.actions.dispose();
    alg.dispose();
  });

  it('keeps the tensor count flat over 2,000 updates', () => {
    const alg = make();
    const b = batchOf(8, 7);
    expectFlatTensorCount(alg, b);
    disposeBatch(b);
    alg.dispose();
  }, 60_000);
});
