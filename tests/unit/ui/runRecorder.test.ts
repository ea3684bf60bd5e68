import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import type { CheckpointRecord, UpdateRecord } from '../../../src/runs/records';
import { RunStore } from '../../../src/runs/runStore';
import { startRecorder } from '../../../src/ui/session/runRecorder';

const stores: RunStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const update: UpdateRecord = {
  type: 'update', update: 1, envSteps: 100, episodes: 1, wallSeconds: 1, returns: [1], lengths: [1], meanReturn20: 1,
  stepsPerSecond: 100, metrics: { loss: 1 }, actorStepsPerSecond: [100], lostSegments: 0,
};
const checkpoint: CheckpointRecord = { type: 'checkpoint', update: 1, envSteps: 100, bytes: new Uint8Array([1, 2, 3]) };

describe('the run recorder', () => {
  it('saves the final weights when they arrive after the run was marked as ended', async () => {
    const db = await RunStore.open(`recorder-test-${Date.now()}`);
    stores.push(db);
    let saves = 0;
    const recorder = await startRecorder({ db, config: resolveExperiment('quickstart'), name: 'late weights', saveEveryMs: 60_000, onSaved: () => (saves += 1), warn: () => undefined });
    const id = recorder.runId;
    if (id === null) throw new Error('the run was not created');
    recorder.keep([update]);
    await recorder.finish('done');
    expect(await db.getWeights(id)).toBeUndefined();
    // The worker's last batch, after its reply.
    recorder.keep([checkpoint]);
    await expect.poll(async () => (await db.getWeights(id))?.bytes, { timeout: 2_000 }).toEqual(new Uint8Array([1, 2, 3]));
    expect((await db.list()).find((m) => m.id === id)?.weights).toBeTruthy();
    expect((await db.list()).find((m) => m.id === id)?.status).toBe('done');
    expect(saves).toBe(2);
  });
});
