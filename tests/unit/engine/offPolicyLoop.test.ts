import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { decodeCheckpoint } from '../../../src/core/checkpoint';
import { TrainingRun } from '../../../src/engine/trainer';
import type { TrainerPlatform } from '../../../src/engine/loops/types';
import type { CheckpointRecord, RunRecord, UpdateRecord } from '../../../src/runs/records';

function run(preset: string, overrides: Record<string, unknown>, platform: TrainerPlatform = nodePlatform(), onRecord: (r: RunRecord) => void = () => {}) {
  const records: RunRecord[] = [];
  const training = new TrainingRun(
    resolveExperiment(preset, { backend: 'wasm', ...overrides }),
    (r) => {
      records.push(r);
      onRecord(r);
    },
    platform,
  );
  const updates = () => records.filter((r): r is UpdateRecord => r.type === 'update');
  return { training, records, updates };
}

/** Clock-based metrics (msPerGradientStep): the only figures two runs of one seed may differ in. */
const CLOCK = /^ms|seconds|persecond/i;

/** What the update records say about the run, without the clock-based figures. */
function numbers(updates: UpdateRecord[]) {
  return updates.map(({ update, envSteps, episodes, returns, lengths, meanReturn20, metrics, lostSegments, policyLags }) => ({
    update,
    envSteps,
    episodes,
    returns,
    lengths,
    meanReturn20,
    metrics: Object.fromEntries(Object.entries(metrics).filter(([key]) => !CLOCK.test(key))),
    lostSegments,
    policyLags,
  }));
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

describe('off-policy loop: lock-step rounds', () => {
  // Two actors whose replies can come in either order, a short warm-up, a few gradient steps an update.
  const SMALL = {
    seed: 3,
    actors: 2,
    'sampling.segmentLength': 16,
    'sampling.updateToData': 1,
    'model.hidden': 16,
    'sac.learningStarts': 64,
    'sac.batchSize': 16,
    'run.envSteps': 384,
  };

  it('gives the same numbers whatever the actors’ reply times and however often the learner lets the event loop turn', async () => {
    const plain = run('sac-pendulum', SMALL);
    await plain.training.run();
    const uneven: TrainerPlatform = {
      ...nodePlatform(),
      actorModules: { ContinuousRolloutActor: { module: new URL('./fixtures/unevenContinuousActor.ts', import.meta.url).href, key: 'UnevenContinuousRolloutActor' } },
      // A turn of the event loop before every gradient step and every update.
      sliceMs: 0,
    };
    const other = run('sac-pendulum', SMALL, uneven);
    await other.training.run();
    expect(numbers(other.updates())).toEqual(numbers(plain.updates()));
    // 384 steps in rounds of 2 × 16; learning from step 64 on, so the later updates took gradient steps.
    expect(plain.updates()).toHaveLength(12);
    expect(plain.updates().at(-1)!.metrics.gradientSteps).toBe(384 - 64);
  }, 120_000);

  it('a stop that comes while an update takes its gradient steps ends the run without finishing that update, its checkpoint that of the update before', async () => {
    // Update 1: 512 uniformly random steps, no gradient step. Update 2, the last in the budget: 8 · 512 = 4,096 gradient steps.
    let stopAsked: number | null = null;
    const overrides = { seed: 1, actors: 1, 'sampling.segmentLength': 512, 'sampling.updateToData': 8, 'model.hidden': 16, 'sac.learningStarts': 512, 'sac.batchSize': 32, 'run.envSteps': 1_024 };
    const { training, records, updates } = run('sac-pendulum', overrides, nodePlatform(), (r) => {
      // Stop a moment after update 1, once update 2 is under way, as Ctrl-C would: from a timer.
      if (r.type === 'update' && r.update === 1)
        setTimeout(() => {
          stopAsked = updates().length;
          training.stop();
        }, 100);
    });
    const summary = await training.run();
    expect(stopAsked).toBe(1);
    expect(summary.stopReason).toBe('stopped');
    expect(summary.updates).toBe(1);
    expect(updates().map((u) => u.update)).toEqual([1]);
    const last = records.filter((r): r is CheckpointRecord => r.type === 'checkpoint').at(-1)!;
    expect(last.update).toBe(1);
    expect(decodeCheckpoint(last.bytes).meta.update).toBe(1);
  }, 120_000);
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
