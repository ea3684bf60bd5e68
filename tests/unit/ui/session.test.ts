import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentConfig } from '../../../src/config/config';
import { encodeCheckpoint } from '../../../src/core/checkpoint';
import type { BackendRecord, GreedyEpisodeRecord, RunRecord, SummaryRecord, UpdateRecord } from '../../../src/runs/records';
import { parseRunFile } from '../../../src/runs/runFile';
import { RunStore } from '../../../src/runs/runStore';
import { createSession, type LearnerClient, type Session, type StartLearner } from '../../../src/ui/session';
import { createPlaygroundStore } from '../../../src/ui/store';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const BACKEND: BackendRecord = { type: 'backend', name: 'wasm', reason: 'test', attempts: [] };

function update(n: number, ret: number): UpdateRecord {
  return {
    type: 'update', update: n, envSteps: 100 * n, episodes: n, wallSeconds: n, returns: [ret], lengths: [ret], meanReturn20: ret,
    stepsPerSecond: 100, metrics: { loss: 1 / n }, actorStepsPerSecond: [100], lostSegments: 0,
  };
}

function summary(updates: number, stopReason: SummaryRecord['stopReason'], finalMeanReturn20: number | null = null): SummaryRecord {
  return {
    type: 'summary', preset: 'quickstart', seed: 1, backend: 'wasm', updates, envSteps: 100 * updates, episodes: updates, wallSeconds: updates,
    finalMeanReturn20, solved: null, stopReason, lostSegments: 0, actorRespawns: 0,
  };
}

/**
 * Stands in for the learner worker: it keeps the worker's rules (one run at a time, a probe
 * answered from the backend) and lets the test say when the probe answers, what records the run
 * sends, and when and how the run ends or the worker crashes.
 */
class FakeLearner {
  readonly calls: string[] = [];
  terminated = false;
  private readonly probeGate: Deferred<void> | null;
  private run: { config: ExperimentConfig; onRecords: (records: RunRecord[]) => void | Promise<void>; end: Deferred<SummaryRecord> } | null = null;

  constructor(
    private readonly onCrash: (message: string) => void,
    holdProbe: boolean,
  ) {
    this.probeGate = holdProbe ? deferred<void>() : null;
  }

  readonly client: LearnerClient = {
    api: {
      probe: async () => {
        this.calls.push('probe');
        await this.probeGate?.promise;
        this.calls.push('probed');
        return BACKEND;
      },
      start: async (config, onRecords) => {
        if (this.run) throw new Error('a run is already in progress; stop it first');
        this.calls.push('start');
        const end = deferred<SummaryRecord>();
        this.run = { config, onRecords, end };
        try {
          return await end.promise;
        } finally {
          this.run = null;
        }
      },
      pause: async () => void this.calls.push('pause'),
      resume: async () => void this.calls.push('resume'),
      step: async () => void this.calls.push('step'),
      stop: async () => void this.calls.push('stop'),
      crashActor: async (index) => void this.calls.push(`crash ${index}`),
      change: async (key, value) => void this.calls.push(`change ${key}=${String(value)}`),
      watch: async (config): Promise<GreedyEpisodeRecord> => {
        this.calls.push('watch');
        return { type: 'greedyEpisode', update: 3, envId: config.settings['env.id'], keys: ['x'], frames: [0, 1], episodeReturn: 2, saved: true };
      },
    },
    proxy: (fn) => fn,
    terminate: () => {
      this.terminated = true;
    },
  };

  get running(): boolean {
    return this.run !== null;
  }

  releaseProbe(): void {
    this.probeGate?.resolve();
  }

  async emit(records: RunRecord[]): Promise<void> {
    if (!this.run) throw new Error('no run to emit from');
    await this.run.onRecords(records);
  }

  /** Ends the run as the worker does: the summary is the last record sent, then the start returns it. */
  async finish(record: SummaryRecord): Promise<void> {
    const run = this.run;
    if (!run) throw new Error('no run to finish');
    await run.onRecords([record]);
    run.end.resolve(record);
  }

  crash(message: string): void {
    this.onCrash(message);
  }
}

let dbCount = 0;
const opened: RunStore[] = [];

function setup({ holdProbe = false, dbName = `session-test-${++dbCount}` } = {}) {
  const learners: FakeLearner[] = [];
  const learner: StartLearner = (onCrash) => {
    const l = new FakeLearner(onCrash, holdProbe);
    learners.push(l);
    return l.client;
  };
  const store = createPlaygroundStore();
  const downloads: { name: string; blob: Blob }[] = [];
  const session: Session = createSession({
    learner,
    runStore: async (events) => {
      const db = await RunStore.open(dbName, events);
      opened.push(db);
      return db;
    },
    store,
    timing: { saveEveryMs: 10, ingestMs: 5, storeWaitMs: 2_000, releaseWaitMs: 2_000 },
    download: (name, blob) => downloads.push({ name, blob }),
  });
  return { session, store, learners, downloads, dbName };
}

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** Lets every pending promise and short timer run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('session: startRun and the races it guards against', () => {
  it('a Start while the backend probe measures does not wait for it (the worker stops the probe); the page probe shares the one learner', async () => {
    const { session, store, learners } = setup({ holdProbe: true });
    // The page's own probe, after the first paint, is still out when Start is pressed.
    const pageProbe = session.probeBackend();
    const run = session.startRun();
    expect(store.getState().status).toBe('starting');
    await vi.waitFor(() => expect(learners[0].running).toBe(true));
    expect(learners).toHaveLength(1);
    expect(learners[0].calls).toEqual(['probe', 'start']);

    learners[0].releaseProbe();
    await pageProbe;
    expect(store.getState().backend).toEqual(BACKEND);

    await learners[0].emit([update(1, 10)]);
    await vi.waitFor(() => expect(store.getState().status).toBe('running'));
    expect(store.getState().episodePoints.map((p) => p.ret)).toEqual([10]);
    await learners[0].finish(summary(1, 'budget'));
    await run;
    expect(store.getState().status).toBe('done');
    const saved = store.getState().runs;
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ status: 'done', updates: 1, envSteps: 100 });
    expect(store.getState().currentRunId).toBe(saved[0].id);
  });

  it('a second Start while a run is starting or running does nothing', async () => {
    const { session, store, learners } = setup({ holdProbe: true });
    const first = session.startRun();
    await session.startRun(); // returns at once
    await vi.waitFor(() => expect(learners).toHaveLength(1));
    learners[0].releaseProbe();
    await vi.waitFor(() => expect(learners[0].running).toBe(true));
    await learners[0].emit([update(1, 5)]);
    await vi.waitFor(() => expect(store.getState().status).toBe('running'));
    await session.startRun();

    expect(learners).toHaveLength(1);
    expect(learners[0].calls.filter((c) => c === 'start')).toHaveLength(1);
    await learners[0].finish(summary(1, 'budget'));
    await first;
    expect(store.getState().runs).toHaveLength(1);
    expect(store.getState().notices.filter((n) => n.level === 'error')).toEqual([]);
  });

  it('after a reload mid-run the run left marked running is listed as interrupted, and a Start trains a new one', async () => {
    const dbName = `session-test-${++dbCount}`;
    const before = await RunStore.open(dbName);
    const old = await before.create(createPlaygroundStore().getState().config, 'cut off by a reload');
    await before.append(old.id, [update(1, 7)]);
    before.close();

    // The new page: a fresh store (status idle) and a fresh learner; the old one is gone.
    const { session, store, learners } = setup({ dbName });
    await session.refreshRuns();
    expect(store.getState().runs.map((r) => [r.name, r.status])).toEqual([['cut off by a reload', 'interrupted']]);

    const run = session.startRun();
    await vi.waitFor(() => expect(learners[0]?.running).toBe(true));
    await learners[0].emit([update(1, 9), update(2, 11)]);
    await learners[0].finish(summary(2, 'budget', 11));
    await run;
    const runs = store.getState().runs;
    expect(runs).toHaveLength(2);
    const fresh = runs.find((r) => r.id !== old.id);
    expect(fresh).toMatchObject({ status: 'done', updates: 2, finalMeanReturn20: 11 });
    expect(runs.find((r) => r.id === old.id)).toMatchObject({ status: 'interrupted', updates: 1 });
  });

  it('a learner that crashes mid-run ends the run as an error; the next Start gets a new learner', async () => {
    const { session, store, learners } = setup();
    const first = session.startRun();
    await vi.waitFor(() => expect(learners[0]?.running).toBe(true));
    await learners[0].emit([update(1, 4)]);
    await vi.waitFor(() => expect(store.getState().status).toBe('running'));

    learners[0].crash('out of memory');
    await first; // settles although the dead worker never answers the start
    expect(learners[0].terminated).toBe(true);
    expect(store.getState().status).toBe('error');
    expect(store.getState().notices.map((n) => n.message)).toContainEqual(expect.stringContaining('The learner worker crashed: out of memory'));
    expect(store.getState().runs[0]).toMatchObject({ status: 'error', updates: 1 });

    const second = session.startRun();
    await vi.waitFor(() => expect(learners[1]?.running).toBe(true));
    // The crashed learner's run state stays behind with it: the new one trains from zero.
    expect(store.getState().episodePoints).toEqual([]);
    await learners[1].emit([update(1, 6)]);
    await learners[1].finish(summary(1, 'budget'));
    await second;
    expect(store.getState().status).toBe('done');
    expect(store.getState().runs.map((r) => r.status).sort()).toEqual(['done', 'error']);
  });

  it('a learner that crashes during the probe leaves the page able to start again', async () => {
    const { session, store, learners } = setup({ holdProbe: true });
    const first = session.startRun();
    await settle();
    learners[0].crash('script failed to load');
    await first;
    expect(store.getState().status).toBe('error');
    expect(learners[0].calls).toEqual(['probe']);

    const second = session.startRun();
    await vi.waitFor(() => expect(learners[1]?.calls).toEqual(['probe']));
    learners[1].releaseProbe();
    await vi.waitFor(() => expect(learners[1].running).toBe(true));
    await learners[1].finish(summary(0, 'budget'));
    await second;
    expect(store.getState().status).toBe('done');
  });

  it('a Reset while a run is starting cancels that start before the learner begins', async () => {
    const { session, store, learners } = setup({ holdProbe: true });
    const run = session.startRun();
    await settle();
    session.resetRun();
    expect(store.getState().status).toBe('idle');
    learners[0].releaseProbe();
    await run;
    expect(learners[0].calls).not.toContain('start');
    expect(store.getState().status).toBe('idle');
    // Nothing was saved for it either.
    await session.refreshRuns();
    expect(store.getState().runs).toEqual([]);
  });

  it('a Start after a Reset mid-run waits for the old run to let go of the learner; the old run never reaches the charts', async () => {
    const { session, store, learners } = setup();
    const first = session.startRun();
    await vi.waitFor(() => expect(learners[0]?.running).toBe(true));
    await learners[0].emit([update(1, 3)]);
    await vi.waitFor(() => expect(store.getState().episodePoints).toHaveLength(1));

    session.resetRun();
    expect(learners[0].calls).toContain('stop');
    expect(store.getState().episodePoints).toEqual([]);
    const second = session.startRun();
    await settle();
    // The worker is still finishing the old run, so the new one has not been sent.
    expect(learners[0].calls.filter((c) => c === 'start')).toHaveLength(1);
    await learners[0].emit([update(2, 99)]);
    await learners[0].finish(summary(2, 'stopped'));
    await first;

    await vi.waitFor(() => expect(learners[0].calls.filter((c) => c === 'start')).toHaveLength(2));
    await learners[0].emit([update(1, 8)]);
    await vi.waitFor(() => expect(store.getState().status).toBe('running'));
    expect(store.getState().episodePoints.map((p) => p.ret)).toEqual([8]);
    await learners[0].finish(summary(1, 'budget'));
    await second;
    expect(store.getState().notices.filter((n) => n.level === 'error')).toEqual([]);
    expect(store.getState().runs.map((r) => r.status).sort()).toEqual(['done', 'stopped']);
  });

  it('pause, resume, step, stop and crash an actor reach the running learner', async () => {
    const { session, store, learners } = setup();
    session.stepRun(); // no learner yet: nothing is started for it
    expect(learners).toHaveLength(0);
    const run = session.startRun();
    await vi.waitFor(() => expect(learners[0]?.running).toBe(true));
    session.pauseRun();
    expect(store.getState().status).toBe('pausing');
    await learners[0].emit([{ type: 'state', state: 'paused' }]);
    await vi.waitFor(() => expect(store.getState().status).toBe('paused'));
    session.stepRun();
    session.resumeRun();
    expect(store.getState().status).toBe('running');
    await session.crashActor(1);
    session.stopRun();
    expect(store.getState().status).toBe('stopping');
    // A 'running' from the loop after Stop does not undo it.
    await learners[0].emit([{ type: 'state', state: 'running' }]);
    await settle();
    expect(store.getState().status).toBe('stopping');
    await learners[0].finish(summary(0, 'stopped'));
    await run;
    expect(learners[0].calls.slice(3)).toEqual(['pause', 'step', 'resume', 'crash 1', 'stop']);
    expect(store.getState().status).toBe('done');
    expect(store.getState().runs[0].status).toBe('stopped');
  });
});

describe('session: saved runs', () => {
  async function trainedRun(ctx: ReturnType<typeof setup>, returns: number[]) {
    const run = ctx.session.startRun();
    await vi.waitFor(() => expect(ctx.learners[0]?.running).toBe(true));
    const l = ctx.learners[0];
    await l.emit(returns.map((r, i) => update(i + 1, r)));
    await l.emit([{ type: 'checkpoint', update: returns.length, envSteps: 100 * returns.length, bytes: WEIGHTS.slice() }]);
    await l.finish(summary(returns.length, 'budget'));
    await run;
    await settle();
    return ctx.store.getState().runs[0].id;
  }

  const WEIGHTS = encodeCheckpoint({ weights: [new Float32Array([0.5, -1])], shapes: [[2]], meta: { update: 2 } });

  it('open, overlay, rename, export, import and delete', async () => {
    const ctx = setup();
    const { session, store, downloads } = ctx;
    const id = await trainedRun(ctx, [2, 4]);
    expect(store.getState().runs[0].weights).toEqual({ update: 2, envSteps: 200, size: WEIGHTS.byteLength });

    session.resetRun();
    await session.openRun(id);
    expect(store.getState().episodePoints.map((p) => p.ret)).toEqual([2, 4]);
    expect(store.getState().currentRunId).toBe(id);
    expect(store.getState().status).toBe('done');

    await session.toggleOverlay(id);
    expect(store.getState().overlays).toEqual([{ id, name: store.getState().runs[0].name, points: [{ envSteps: 100, mean: 2 }, { envSteps: 200, mean: 4 }] }]);
    await session.renameRun(id, 'renamed');
    expect(store.getState().runs[0].name).toBe('renamed');
    expect(store.getState().overlays[0].name).toBe('renamed');

    await session.exportRun(id);
    await session.exportWeights(id);
    expect(downloads.map((d) => d.name)).toEqual(['renamed.json', 'renamed_update_2.parlckpt']);
    expect(new Uint8Array(await downloads[1].blob.arrayBuffer())).toEqual(WEIGHTS);
    const text = await downloads[0].blob.text();
    expect(parseRunFile(text).ok).toBe(true);

    // The same file again is kept beside the first, under a new id.
    await session.importRunFile(new File([text], 'renamed.json'));
    expect(store.getState().runs).toHaveLength(2);
    await session.importRunFile(new File(['{"not":"a run"}'], 'bad.json'));
    expect(store.getState().runs).toHaveLength(2);
    expect(store.getState().notices.at(-1)?.message).toMatch(/^Refused bad\.json: /);

    await session.deleteRun(id);
    expect(store.getState().runs.map((r) => r.id)).not.toContain(id);
    expect(store.getState().overlays).toEqual([]);
    expect(store.getState().currentRunId).toBeNull();
  });

  it('Watch opens the run and plays its weights; a saved run does not open while one trains', async () => {
    const ctx = setup();
    const id = await trainedRun(ctx, [5]);
    await ctx.session.watchRun(id);
    expect(ctx.learners[0].calls.at(-1)).toBe('watch');
    expect(ctx.store.getState().greedyEpisode).toMatchObject({ type: 'greedyEpisode', saved: true });

    const run = ctx.session.startRun();
    await vi.waitFor(() => expect(ctx.learners[0].running).toBe(true));
    await ctx.session.openRun(id);
    expect(ctx.store.getState().notices.at(-1)?.message).toBe('Stop the current run before opening another.');
    expect(ctx.store.getState().currentRunId).not.toBe(id);
    await ctx.learners[0].finish(summary(0, 'budget'));
    await run;
  });
});
