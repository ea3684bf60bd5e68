import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import type { UpdateRecord } from '../../../src/runs/records';
import { RunStore } from '../../../src/runs/runStore';
import { createPlaygroundStore } from '../../../src/ui/store';
import { createGenerations } from '../../../src/ui/session/generations';
import { createRunStoreLink } from '../../../src/ui/session/runStoreLink';
import { createSavedRuns } from '../../../src/ui/session/savedRuns';

let dbCount = 0;
const stores: RunStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const update = (n: number): UpdateRecord => ({
  type: 'update', update: n, envSteps: 100 * n, episodes: n, wallSeconds: n, returns: [n * 10], lengths: [n * 10], meanReturn20: n * 10,
  stepsPerSecond: 100, metrics: { loss: 1 / n }, actorStepsPerSecond: [100], lostSegments: 0,
});

async function setup() {
  const db = await RunStore.open(`undo-test-${++dbCount}`);
  stores.push(db);
  const store = createPlaygroundStore();
  const runs = createRunStoreLink(async () => db, store);
  const saved = createSavedRuns({ store, runs, generations: createGenerations(), download: () => undefined });
  const meta = await db.create(resolveExperiment('quickstart', { seed: 7 }), 'keep me');
  await db.append(meta.id, [update(1), update(2)]);
  await db.append(meta.id, [update(3)]);
  await db.saveWeights(meta.id, { update: 3, envSteps: 300, bytes: new Uint8Array([9, 8, 7]) });
  await db.setStatus(meta.id, 'done');
  await runs.refresh();
  return { db, store, saved, id: meta.id };
}

describe('Delete with undo', () => {
  it('Undo brings the run back whole: same id, name, config, records and weights, overlaid again', async () => {
    const { db, store, saved, id } = await setup();
    const before = await db.get(id);
    await saved.toggleOverlay(id);
    store.getState().setCurrentRun(id);

    await saved.deleteRun(id);
    expect(await db.get(id)).toBeUndefined();
    expect(store.getState().runs).toEqual([]);
    expect(store.getState().overlays).toEqual([]);
    const notice = store.getState().notices.at(-1);
    expect(notice?.message).toBe('Deleted "keep me".');
    expect(notice?.action?.label).toBe('Undo');

    notice?.action?.run();
    await expect.poll(async () => (await db.get(id)) !== undefined).toBe(true);
    expect(await db.get(id)).toEqual(before);
    await expect.poll(() => store.getState().runs.map((r) => r.id)).toEqual([id]);
    expect(store.getState().runs[0]).toMatchObject({ name: 'keep me', status: 'done', envSteps: 300, updates: 3, weights: { update: 3 } });
    expect(store.getState().overlays.map((o) => o.id)).toEqual([id]);
    expect(store.getState().currentRunId).toBe(id);
  });

  it('without Undo the run stays deleted', async () => {
    const { db, store, saved, id } = await setup();
    await saved.deleteRun(id);
    store.getState().dismiss(store.getState().notices.at(-1)?.id ?? -1);
    expect(await db.get(id)).toBeUndefined();
    expect(store.getState().notices).toEqual([]);
  });
});
