import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { TrainingRun } from '../../../src/engine/trainer';
import type { RunRecord, UpdateRecord } from '../../../src/runs/records';

function start(preset: string, overrides: Record<string, unknown>) {
  const records: RunRecord[] = [];
  const run = new TrainingRun(resolveExperiment(preset, { backend: 'wasm', ...overrides }), (r) => records.push(r), nodePlatform());
  return { run, records, updates: () => records.filter((r): r is UpdateRecord => r.type === 'update') };
}

describe('offline loop (shipped dataset public/datasets/pendulum-mixed.json)', () => {
  it('CQL trains from the file without an environment, then evaluates greedy episodes in it', async () => {
    const { run, updates, records } = start('cql-pendulum', { seed: 1, 'model.hidden': 16, 'cql.batchSize': 32, 'cql.numSampledActions': 2, 'cql.gradientSteps': 100, 'cql.evalEvery': 50, 'cql.evalEpisodes': 1 });
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    expect(updates().map((u) => u.metrics.gradientSteps)).toEqual([50, 100]);
    // The live view shows the agent, not random actions: the evaluating actor plays a greedy episode after the first update
    // (it answers it before the second evaluation).
    const demos = records.filter((r) => r.type === 'greedyEpisode');
    expect(demos.length).toBeGreaterThan(0);
    expect(demos[0]).toMatchObject({ update: 1, envId: 'Pendulum-v1' });
    for (const u of updates()) {
      // One evaluation episode of Pendulum: 200 steps, return in [−16.27·200, 0].
      expect(u.returns).toHaveLength(1);
      expect(u.lengths).toEqual([200]);
      expect(u.metrics.evalReturn).toBe(u.returns[0]);
      expect(u.returns[0]).toBeLessThanOrEqual(0);
      expect(Number.isFinite(u.metrics.cqlGap)).toBe(true);
    }
  }, 120_000);

  it('refuses a dataset of another environment with a message naming both', async () => {
    const { run, records } = start('bc-pendulum', { 'env.id': 'MountainCarContinuous-v0', 'bc.gradientSteps': 100 });
    const summary = await run.run();
    expect(summary.stopReason).toBe('error');
    const notices = records.flatMap((r) => (r.type === 'notice' ? [r.message] : []));
    expect(notices.join('\n')).toMatch(/made on "Pendulum-v1", but this run trains on MountainCarContinuous-v0/);
  }, 60_000);
});
