import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { TrainingRun } from '../../../src/engine/trainer';
import type { RunRecord, UpdateRecord } from '../../../src/runs/records';

function run(preset: string, overrides: Record<string, unknown>) {
  const records: RunRecord[] = [];
  const training = new TrainingRun(resolveExperiment(preset, { backend: 'wasm', ...overrides }), (r) => records.push(r), nodePlatform());
  const updates = () => records.filter((r): r is UpdateRecord => r.type === 'update');
  return { training, records, updates };
}

describe('off-policy continuous loop (Ape-X style actors in worker threads)', () => {
  for (const preset of ['sac-pendulum', 'td3-pendulum', 'ddpg-pendulum']) {
    it(`${preset}: actors ship transitions, the learner updates at the update-to-data ratio and records lag and action spread`, async () => {
      const { training, updates } = run(preset, {
        seed: 1,
        actors: 2,
        'sampling.segmentLength': 8,
        'sampling.updateToData': 0.5,
        'model.hidden': 16,
        [`${preset.split('-')[0]}.learningStarts`]: 800,
        [`${preset.split('-')[0]}.batchSize`]: 32,
        'run.envSteps': 1_000,
      });
      const summary = await training.run();
      expect(summary.stopReason).toBe('budget');
      expect(summary.envSteps).toBeGreaterThanOrEqual(1_000);
      const last = updates().at(-1)!;
      // ρ = 0.5 gradient steps per env step after the first 800 steps.
      expect(last.metrics.gradientSteps).toBe(Math.floor(0.5 * (last.envSteps - 800)));
      expect(last.metrics.bufferSize).toBe(last.envSteps);
      expect(last.metrics).toHaveProperty('criticLoss');
      expect(last.metrics).toHaveProperty('actorLoss');
      expect(Number.isFinite(last.metrics.criticLoss)).toBe(true);
      // Pendulum torques lie in [−2, 2]; the spread is positive while exploring.
      expect(Math.abs(last.metrics.actionMean)).toBeLessThanOrEqual(2);
      expect(last.metrics.actionStd).toBeGreaterThan(0);
      const lags = updates().flatMap((u) => u.policyLags ?? []);
      expect(lags.length).toBeGreaterThan(0);
      expect(lags.every((l) => Number.isInteger(l) && l >= 0)).toBe(true);
      if (preset.startsWith('sac')) expect(last.metrics.alpha).toBeGreaterThan(0);
    }, 60_000);
  }
});

describe('on-policy continuous loop (Gaussian PPO)', () => {
  it('runs a few synchronous updates with zero policy lag and a learned σ', async () => {
    const { training, updates } = run('ppo-continuous-pendulum', { seed: 1, actors: 2, envsPerActor: 1, 'sampling.segmentLength': 256, 'model.hidden': 16, 'ppo-continuous.updateEpochs': 2, 'ppo-continuous.numMinibatches': 4, 'run.envSteps': 1_024 });
    const summary = await training.run();
    expect(summary.stopReason).toBe('budget');
    expect(updates().map((u) => u.envSteps)).toEqual([512, 1024]);
    expect(updates().every((u) => u.policyLags!.every((l) => l === 0))).toBe(true);
    // Two 256-step segments hold 2·256/200 → at least 2 finished 200-step episodes.
    expect(updates().flatMap((u) => u.lengths).every((l) => l === 200)).toBe(true);
    const m = updates().at(-1)!.metrics;
    for (const k of ['pgLoss', 'valueLoss', 'entropy', 'approxKl', 'logStd', 'actionStd']) expect(Number.isFinite(m[k]), k).toBe(true);
  }, 60_000);
});
