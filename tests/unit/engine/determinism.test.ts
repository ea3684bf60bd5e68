import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { migrateSettingKeys } from '../../../src/config/migrations';
import { TrainingRun } from '../../../src/engine/trainer';
import type { RunRecord } from '../../../src/runs/records';

interface Captured {
  overrides: Record<string, unknown>;
  updates: { envSteps: number; episodes: number; meanReturn20: number | null; metrics: Record<string, number> }[];
}
// Update records of short fixed-seed runs (cpu backend, one actor) captured from the code before
// the Agent became the data bridge in every loop (git 6ee9355): the redesign must not move a number.
const before = (JSON.parse(readFileSync(new URL('./fixtures/determinism-before-descriptors.json', import.meta.url), 'utf8')) as { runs: Record<string, Captured> }).runs;

describe('the redesign keeps every figure', () => {
  it.each(Object.keys(before))('%s gives the same update records as before', async (preset) => {
    const { overrides, updates } = before[preset];
    const records: RunRecord[] = [];
    const run = new TrainingRun(resolveExperiment(preset, { backend: 'cpu', ...migrateSettingKeys(overrides) }), (r) => records.push(r), nodePlatform());
    await run.run();
    const now = records.flatMap((r) => (r.type === 'update' ? [{ envSteps: r.envSteps, episodes: r.episodes, meanReturn20: r.meanReturn20, metrics: r.metrics }] : []));
    expect(now).toEqual(updates);
  });
});
