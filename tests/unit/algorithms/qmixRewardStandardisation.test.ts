/**
 * EPyMARL's standardise_rewards in the QMIX family: the running statistics (Chan et al.'s merge,
 * checked against the formula by hand) and the TD target, which must use (r − μ) / σ in place of
 * the team reward r and nothing else.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Qmix, RunningMeanStd, teamRewards, type QmixParams } from '../../../src/algorithms/qmix';
import type { MarlEpisodeBatch } from '../../../src/algorithms/marl';
import { chooseBackend } from '../../../src/core/backend';
import { Rng } from '../../../src/core/rng';
import { mpeTaskSpec } from '../../../src/engine/marlActor';

const SPREAD = mpeTaskSpec('simple_spread_v3');
const P: QmixParams = { lr: 5e-3, gamma: 0.9, hidden: 8, batchSize: 2, bufferSize: 50, trainEvery: 1, targetUpdateEpisodes: 200, startE: 1, endE: 0.05, epsilonAnnealSteps: 1000, gradClip: 10, doubleQ: true };

function episodes(B: number, T: number, seed: number): MarlEpisodeBatch {
  const rng = new Rng(seed);
  const A = SPREAD.agents.length;
  return {
    numEpisodes: B,
    T,
    state: Float32Array.from({ length: B * (T + 1) * SPREAD.stateDim }, () => rng.normal()),
    actions: Int32Array.from({ length: B * T * A }, (_, i) => rng.int(SPREAD.actionSizes[i % A])),
    rewards: Float32Array.from({ length: B * T * A }, () => -2 + rng.normal()),
  };
}

describe('RunningMeanStd', () => {
  it('merges a batch into the prior (mean 0, variance 1, count 1e-4) by the parallel formula', () => {
    const s = new RunningMeanStd();
    s.update([1, 2, 3, 4]);
    // batch mean 2.5, unbiased batch variance ((1.5² + 0.5²) · 2) / 3 = 5/3, n = 4, c = 1e-4
    const N = 4 + 1e-4;
    expect(s.mean).toBeCloseTo((2.5 * 4) / N, 12);
    expect(s.variance).toBeCloseTo((1 * 1e-4 + (5 / 3) * 4 + (2.5 ** 2 * 1e-4 * 4) / N) / N, 12);
    expect(s.count).toBeCloseTo(N, 12);
    // a second batch [10, 20]: mean 15, unbiased variance 50
    const [m0, v0, c0] = [s.mean, s.variance, s.count];
    s.update([10, 20]);
    const d = 15 - m0;
    const N2 = c0 + 2;
    expect(s.mean).toBeCloseTo(m0 + (d * 2) / N2, 12);
    expect(s.variance).toBeCloseTo((v0 * c0 + 50 * 2 + (d * d * c0 * 2) / N2) / N2, 12);
    // the mean of the whole stream, up to the prior's weight 1e-4
    expect(s.mean).toBeCloseTo((1 + 2 + 3 + 4 + 10 + 20) / 6, 3);
    expect(s.standardise(s.mean + 2 * Math.sqrt(s.variance))).toBeCloseTo(2, 12);
  });

  it('floors the variance at 1e-8, so a constant stream cannot divide by zero', () => {
    const s = new RunningMeanStd();
    s.mean = 3;
    s.variance = 0;
    expect(s.standardise(4)).toBeCloseTo(1 / Math.sqrt(1e-8), 6);
    expect(s.standardise(3)).toBe(0);
  });
});

describe('QMIX family with standardised rewards', () => {
  beforeAll(async () => {
    await chooseBackend({ preferred: 'cpu' });
  });

  it('teamRewards sums the agents of each step', () => {
    const batch = episodes(2, 3, 1);
    const team = teamRewards(batch, 3);
    expect(team.length).toBe(6);
    expect(team[4]).toBeCloseTo(batch.rewards[12] + batch.rewards[13] + batch.rewards[14], 5);
  });

  for (const kind of ['vdn', 'qmix', 'none'] as const) {
    it(`${kind}: y_std(t) − y_raw(t) = (r(t) − μ) / σ − r(t) with the same networks`, () => {
      const batch = episodes(2, 5, 7);
      const mixer = kind === 'qmix' ? { embedDim: 4, hypernetEmbed: 8 } : null;
      const raw = new Qmix(SPREAD, P, kind, mixer, 3);
      const std = new Qmix(SPREAD, { ...P, standardiseRewards: true }, kind, mixer, 3);
      std.rewardStats.update([-9, -4, -6, -1, -5]);
      const { mean, variance } = std.rewardStats;
      const [yRaw, yStd] = [raw, std].map((alg) => tf.tidy(() => Array.from(alg.loss(batch).target.dataSync())));
      const A = 3;
      // target is [T, B] (VDN, QMIX) or [T, B, A] (IQL: the team reward for every agent)
      const per = kind === 'none' ? A : 1;
      expect(yRaw.length).toBe(5 * 2 * per);
      for (let t = 0; t < 5; t++) {
        for (let b = 0; b < 2; b++) {
          let r = 0;
          for (let a = 0; a < A; a++) r += batch.rewards[(b * 5 + t) * A + a];
          for (let k = 0; k < per; k++) {
            const i = (t * 2 + b) * per + k;
            expect(yStd[i] - yRaw[i]).toBeCloseTo((r - mean) / Math.sqrt(variance) - r, 3);
          }
        }
      }
      raw.dispose();
      std.dispose();
    });
  }

  it('learn() folds the batch into the statistics first; without the option they stay at the prior', () => {
    const batch = episodes(2, 5, 11);
    const std = new Qmix(SPREAD, { ...P, standardiseRewards: true }, 'vdn', null, 5);
    const raw = new Qmix(SPREAD, P, 'vdn', null, 5);
    std.learn(batch);
    raw.learn(batch);
    const team = Array.from(teamRewards(batch, 3));
    const m = team.reduce((s, x) => s + x, 0) / team.length;
    expect(std.rewardStats.count).toBeCloseTo(10 + 1e-4, 9);
    expect(std.rewardStats.mean).toBeCloseTo((m * 10) / (10 + 1e-4), 4);
    expect(raw.rewardStats.count).toBe(1e-4);
    std.dispose();
    raw.dispose();
  });
});
