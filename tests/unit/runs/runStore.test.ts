import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { LINK_VERSION } from '../../../src/config/urlState';
import type { UpdateRecord } from '../../../src/runs/records';
import type { SavedRun } from '../../../src/runs/runFile';
import { RunImportError, RunStore, RunStoreUnavailableError, runStoreUnavailable } from '../../../src/runs/runStore';

let dbCount = 0;
const stores: RunStore[] = [];
async function open(name?: string): Promise<RunStore> {
  const s = await RunStore.open(name ?? `runs-test-${++dbCount}`);
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const update = (i: number): UpdateRecord => ({
  type: 'update', update: i, envSteps: i * 100, episodes: i, wallSeconds: i, returns: [i], lengths: [i], meanReturn20: i,
  stepsPerSecond: 100, metrics: { loss: i }, actorStepsPerSecond: [100], lostSegments: 0,
});

describe('RunStore', () => {
  it('appends chunks in order and reads the run back', async () => {
    const store = await open();
    const meta = await store.create(resolveExperiment('quickstart'), 'a');
    await store.append(meta.id, [update(1), update(2)]);
    await store.append(meta.id, [update(3)]);
    const run = await store.get(meta.id);
    expect(run?.records.map((r) => (r as UpdateRecord).update)).toEqual([1, 2, 3]);
    const [listed] = await store.list();
    expect(listed).toMatchObject({ id: meta.id, chunks: 2, envSteps: 300, updates: 3, finalMeanReturn20: 3, status: 'running' });
  });

  it('marks runs cut off by a reload as interrupted, keeping their records', async () => {
    const name = `runs-reload-${++dbCount}`;
    const first = await open(name);
    const meta = await first.create(resolveExperiment('quickstart'), 'cut off');
    await first.append(meta.id, [update(1)]);
    first.close();
    const second = await open(name);
    const [listed] = await second.list();
    expect(listed.status).toBe('interrupted');
    expect((await second.get(meta.id))?.records).toHaveLength(1);
  });

  it('renames, deletes (with its chunks), lists newest first', async () => {
    const store = await open();
    const a = await store.create(resolveExperiment('quickstart'), 'a', 1);
    const b = await store.create(resolveExperiment('quickstart'), 'b', 2);
    await store.append(a.id, [update(1)]);
    await store.rename(a.id, 'renamed');
    expect((await store.list()).map((m) => m.name)).toEqual(['b', 'renamed']);
    await store.delete(a.id);
    expect((await store.list()).map((m) => m.id)).toEqual([b.id]);
    expect(await store.get(a.id)).toBeUndefined();
  });

  it('imports a run without overwriting one with the same id', async () => {
    const store = await open();
    const a = await store.create(resolveExperiment('quickstart'), 'a');
    await store.append(a.id, [update(1)]);
    const saved = await store.get(a.id);
    const imported = await store.importRun({ ...saved!, name: 'copy' });
    expect(imported.id).not.toBe(a.id);
    expect(imported.status).toBe('interrupted');
    expect((await store.get(imported.id))?.records).toEqual(saved?.records);
    expect((await store.get(a.id))?.name).toBe('a');
  });

  it('keeps the newest weights of a run, lists them, imports them with a copy, and deletes them with the run', async () => {
    const store = await open();
    const a = await store.create(resolveExperiment('quickstart'), 'a');
    await store.saveWeights(a.id, { update: 3, envSteps: 300, bytes: new Uint8Array([1, 2, 3]) });
    await store.saveWeights(a.id, { update: 5, envSteps: 500, bytes: new Uint8Array([4, 5, 6, 7]) });
    expect(await store.getWeights(a.id)).toEqual({ update: 5, envSteps: 500, bytes: new Uint8Array([4, 5, 6, 7]) });
    expect((await store.list())[0].weights).toEqual({ update: 5, envSteps: 500, size: 4 });
    const saved = await store.get(a.id);
    expect(saved?.weights?.update).toBe(5);
    const copy = await store.importRun({ ...saved!, name: 'copy' });
    expect(copy.weights).toEqual({ update: 5, envSteps: 500, size: 4 });
    expect((await store.getWeights(copy.id))?.bytes).toEqual(new Uint8Array([4, 5, 6, 7]));
    await store.delete(a.id);
    expect(await store.getWeights(a.id)).toBeUndefined();
    expect(await store.getWeights(copy.id)).toBeDefined();
    await expect(store.saveWeights('no-such-run', { update: 1, envSteps: 1, bytes: new Uint8Array(1) })).rejects.toThrow('no run no-such-run');
  });

  it('a rename or status change while the run saves never undoes the save', async () => {
    const store = await open();
    const a = await store.create(resolveExperiment('quickstart'), 'a');
    for (let i = 1; i <= 5; i++) {
      await Promise.all([store.rename(a.id, `name ${i}`), store.append(a.id, [update(i)]), store.saveWeights(a.id, { update: i, envSteps: i, bytes: new Uint8Array(i) }), store.setStatus(a.id, 'running')]);
    }
    const [listed] = await store.list();
    expect(listed).toMatchObject({ name: 'name 5', chunks: 5, updates: 5, weights: { update: 5, envSteps: 5, size: 5 } });
    expect((await store.get(a.id))?.records.map((r) => (r as UpdateRecord).update)).toEqual([1, 2, 3, 4, 5]);
  });

  it('opens a database saved by version 1 of the app (no weights store) and keeps its runs', async () => {
    const name = `runs-v1-${++dbCount}`;
    const v1 = await openDB(name, 1, {
      upgrade(d) {
        d.createObjectStore('runs', { keyPath: 'id' });
        d.createObjectStore('chunks', { keyPath: ['runId', 'seq'] }).createIndex('runId', 'runId');
      },
    });
    const config = resolveExperiment('quickstart');
    await v1.put('runs', { id: 'old', name: 'old run', createdAt: 1, updatedAt: 1, status: 'done', config, chunks: 1, envSteps: 100, updates: 1, finalMeanReturn20: 1 });
    await v1.put('chunks', { runId: 'old', seq: 0, records: [update(1)] });
    v1.close();
    const store = await open(name);
    expect((await store.get('old'))?.records).toEqual([update(1)]);
    expect(await store.getWeights('old')).toBeUndefined();
    await store.saveWeights('old', { update: 1, envSteps: 100, bytes: new Uint8Array([9]) });
    expect((await store.list())[0].weights?.size).toBe(1);
  });

  it('revives a swarm run saved before link version 4 under the new names, and keeps what it saves with its version', async () => {
    const name = `runs-swarm-${++dbCount}`;
    const store = await open(name);
    const now = await store.create(resolveExperiment('swarm-annealed', { 'swarm.lambda1': 0.05 }), 'today');
    store.close();
    const db = await openDB(name);
    // A row as an older version wrote it: no link version, the swarm's old names, a first-swarm setting.
    const config = { preset: 'swarm-v2-scale', settings: { algorithm: 'swarm-v2', 'swarm2.lambda1': 0.2, 'swarm.items': 16 } };
    await db.put('runs', { id: 'old', name: 'old swarm run', createdAt: 1, updatedAt: 1, status: 'done', config, chunks: 1, envSteps: 0, updates: 0, finalMeanReturn20: null });
    await db.put('chunks', { runId: 'old', seq: 0, records: [update(1), { type: 'decompTrace', update: 1, trace: { stages: [] } }] });
    db.close();
    const again = await open(name);
    // Its swarm trace had the type of then.
    expect((await again.get('old'))?.records).toEqual([update(1), { type: 'swarmTrace', update: 1, trace: { stages: [] } }]);
    expect((await again.get('old'))?.config).toEqual(resolveExperiment('swarm-scale', { 'swarm.lambda1': 0.2 }));
    expect((await again.get(now.id))?.config).toEqual(resolveExperiment('swarm-annealed', { 'swarm.lambda1': 0.05 }));
    expect((await again.list()).map((m) => [m.name, m.config.preset, m.linkVersion])).toEqual([
      ['today', 'swarm-annealed', LINK_VERSION],
      ['old swarm run', 'swarm-scale', LINK_VERSION],
    ]);
  });

  // Issue 15, item 2: the store could not clone the records, and the run row was committed anyway.
  it('imports all or nothing: a run the store cannot save leaves every saved run as it was, with a clear error', async () => {
    const store = await open();
    const a = await store.create(resolveExperiment('quickstart'), 'a');
    await store.append(a.id, [update(1)]);
    await store.saveWeights(a.id, { update: 1, envSteps: 100, bytes: new Uint8Array([1, 2]) });
    const listBefore = await store.list();
    const runBefore = await store.get(a.id);

    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const trace = { note: deep } as unknown as Extract<SavedRun['records'][number], { type: 'swarmTrace' }>['trace'];
    const bad: SavedRun = { ...runBefore!, id: 'imported', name: 'hostile', status: 'done', records: [update(1), { type: 'swarmTrace', update: 1, trace }] };
    const err = await store.importRun(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunImportError);
    expect((err as Error).message).toMatch(/^Could not save the imported run "hostile" \(nothing was written\): /);

    expect(await store.list()).toEqual(listBefore);
    expect(await store.get('imported')).toBeUndefined();
    expect(await store.getWeights('imported')).toBeUndefined();
    expect(await store.get(a.id)).toEqual(runBefore);
    // The store still works after the aborted transaction.
    const ok = await store.importRun({ ...runBefore!, id: 'second', name: 'fine' });
    expect((await store.list()).map((m) => m.id).sort()).toEqual([a.id, ok.id].sort());
  });

  // Issue 15, item 8: the page must know that runs will not be kept.
  it('says runs will not be saved where there is no IndexedDB', async () => {
    expect(runStoreUnavailable()).toBeNull();
    const saved = globalThis.indexedDB;
    // @ts-expect-error: removed to stand for a browser without IndexedDB, put back below.
    delete globalThis.indexedDB;
    try {
      expect(runStoreUnavailable()).toBeInstanceOf(RunStoreUnavailableError);
      await expect(RunStore.open('no-idb')).rejects.toThrow(/^Runs will not be saved in this browser: IndexedDB is not available\.$/);
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
