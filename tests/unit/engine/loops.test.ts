import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import type { CheckpointRecord, RunRecord, UpdateRecord } from '../../../src/runs/records';
import { decodeCheckpoint } from '../../../src/core/checkpoint';
import { TrainingRun } from '../../../src/engine/trainer';
import type { TrainerPlatform } from '../../../src/engine/loops/types';

function start(preset: string, overrides: Record<string, unknown>, platform: TrainerPlatform = nodePlatform(), onRecord?: (r: RunRecord) => void) {
  const records: RunRecord[] = [];
  const run = new TrainingRun(resolveExperiment(preset, { backend: 'wasm', ...overrides }), (r) => {
    records.push(r);
    onRecord?.(r);
  }, platform);
  const updates = () => records.filter((r): r is UpdateRecord => r.type === 'update');
  const notices = () => records.flatMap((r) => (r.type === 'notice' ? [r.message] : []));
  return { run, records, updates, notices };
}

describe('parallel engine loops (learner in Node, actors in worker threads)', () => {
  it('PPO (synchronous) learns CartPole in a short fixed-seed run', async () => {
    const { run, updates } = start('ppo-cartpole', { seed: 1, 'run.envSteps': 24_000, 'ppo.updateEpochs': 10 });
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    expect(updates()[0].meanReturn20 ?? 0).toBeLessThan(60);
    expect(summary.finalMeanReturn20!).toBeGreaterThan(100);
    expect(updates().every((u) => u.policyLags!.every((l) => l === 0))).toBe(true);
    expect(updates().at(-1)!.metrics).toHaveProperty('approxKl');
  });

  it('IMPALA (asynchronous, V-trace) learns CartPole and records the policy lag of each batch', async () => {
    const { run, updates } = start('impala-cartpole', { seed: 2, 'run.envSteps': 80_000 });
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.finalMeanReturn20!).toBeGreaterThan(120);
    const lags = updates().flatMap((u) => u.policyLags!);
    expect(lags.length).toBe(updates().length * 2);
    expect(lags.every((l) => Number.isInteger(l) && l >= 0)).toBe(true);
    // Actors keep sampling while the learner trains, so some batches are stale.
    expect(lags.some((l) => l > 0)).toBe(true);
  });

  it('learner-side inference makes one batched forward pass per step for all actors', async () => {
    const { run, updates } = start('ppo-cartpole-central', { seed: 3, actors: 3, 'run.envSteps': 3 * 4 * 32 * 4, 'ppo.updateEpochs': 1 });
    const summary = await run.run();
    expect(summary.updates).toBe(4);
    // T = 32 steps per update, 3 actors: 32 forward passes per update, not 96.
    expect(updates().map((u) => u.metrics.forwardCalls)).toEqual([32, 64, 96, 128]);
  });

  it('rejects malformed segments with a message, counts them, and keeps training', async () => {
    const platform: TrainerPlatform = {
      actorModules: { RolloutActor: { module: new URL('./fixtures/faultyActor.ts', import.meta.url).href, key: 'FaultyRolloutActor' } },
    };
    const { run, updates, notices } = start('ppo-cartpole', { seed: 4, 'run.envSteps': 6_000, 'ppo.updateEpochs': 1 }, platform);
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.lostSegments).toBeGreaterThan(0);
    expect(summary.lostSegments).toBe(updates().reduce((n, u) => n + u.lostSegments, 0));
    expect(notices().some((m) => /Rejected a segment from actor \d: rewards\[0\] is not finite/.test(m))).toBe(true);
    expect(notices().some((m) => /actions has \d+ values, expected \d+/.test(m))).toBe(true);
  });

  it('DQN and ES run end to end', async () => {
    const dqn = start('dqn-cartpole', { seed: 5, 'run.envSteps': 1_500, 'dqn.learningStarts': 500, 'dqn.trainFrequency': 4 });
    const d = await dqn.run.run();
    expect(d.stopReason).toBe('budget');
    // 6 updates of 256 steps; learning starts with the update that crosses 500 steps (the 2nd),
    // so 5 × 256 = 1,280 steps count, at one gradient step per 4.
    expect(dqn.updates().at(-1)!.metrics.gradientSteps).toBe(320);
    const es = start('es-cartpole', { seed: 5, 'run.envSteps': 3_000, 'es.numPairs': 4 });
    const e = await es.run.run();
    expect(e.stopReason).toBe('budget');
    expect(es.updates()[0].returns).toHaveLength(8);
    // Both end with a checkpoint of the final weights (for ES, θ).
    for (const [x, summary] of [[dqn, d], [es, e]] as const) {
      const ckpts = x.records.filter((r): r is CheckpointRecord => r.type === 'checkpoint');
      expect(ckpts.at(-1)!.update).toBe(summary.updates);
      expect(decodeCheckpoint(ckpts.at(-1)!.bytes).weights.length).toBeGreaterThan(0);
    }
  }, 120_000);

  it('keeps the number of live tensors flat over 2,000 updates', async () => {
    const counts: number[] = [];
    const { run } = start('a2c-cartpole', { seed: 6, actors: 1, envsPerActor: 1, 'sampling.segmentLength': 4, 'run.envSteps': 8_000 }, nodePlatform(), (r) => {
      if (r.type === 'update') counts.push(tf.memory().numTensors);
    });
    const summary = await run.run();
    expect(summary.updates).toBe(2_000);
    expect(counts[1_999]).toBe(counts[9]);
  });
});
