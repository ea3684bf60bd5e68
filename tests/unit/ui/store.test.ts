import { describe, expect, it } from 'vitest';
import type { ActorStatusRecord, GreedyEpisodeRecord, NoticeRecord, SwarmEpisodeStats, UpdateRecord } from '../../../src/runs/records';
import { resolveExperiment } from '../../../src/config/config';
import { presetActorsAreLight } from '../../../src/ui/store/slices';
import { applyRecords, browserPresetActors, createPlaygroundStore, emptyMetrics, MAX_NOTICES, MAX_POINTS, type IngestedRecord, type RecordsState, type SavedSwarmEpisode } from '../../../src/ui/store';

function state(over: Partial<RecordsState> = {}): RecordsState {
  return { ...emptyMetrics(), status: 'running', backend: null, notices: [], nextNoticeId: 1, ...over };
}

function update(over: Partial<UpdateRecord>): UpdateRecord {
  return {
    type: 'update', update: 1, envSteps: 0, episodes: 0, wallSeconds: 0, returns: [], lengths: [], meanReturn20: null, stepsPerSecond: 0,
    metrics: {}, actorStepsPerSecond: [], lostSegments: 0, ...over,
  };
}

/** An episode as saved before the records carried the shaped terms. */
function oldEpisode(over: Partial<SavedSwarmEpisode>): SavedSwarmEpisode {
  return {
    criticalSteps: 100, totalSteps: 120, serialBaseline: 90, lowerBound: null, avgParallelism: 0, maxParallelism: 0, finishRate: 0,
    rPerf: 0.8, rParallel: 0, rFinish: 0, lambda1: 0.5, lambda2: 0.5, total: 0.8, ...over,
  };
}

/** Freezes the state and everything in it, so a test fails if applyRecords writes into its input. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const apply = (s: RecordsState, records: IngestedRecord[]): RecordsState => ({ ...s, ...applyRecords(deepFreeze(s), records) });

describe('applyRecords (pure: state, records -> patch)', () => {
  it('numbers the episodes of each update from its running count and keeps the update points', () => {
    // Update 1 ends episodes 1 and 2; update 2 ends episodes 3..5 (episodes counts all so far).
    const s1 = apply(state(), [update({ update: 1, envSteps: 200, episodes: 2, returns: [10, 20], lengths: [10, 20], meanReturn20: 15 })]);
    const s2 = apply(s1, [update({ update: 2, envSteps: 400, episodes: 5, returns: [30, 40, 50], lengths: [30, 40, 50], meanReturn20: 30, wallSeconds: 4, stepsPerSecond: 50 })]);
    expect(s2.episodePoints).toEqual([
      { episode: 1, envSteps: 200, ret: 10, length: 10 },
      { episode: 2, envSteps: 200, ret: 20, length: 20 },
      { episode: 3, envSteps: 400, ret: 30, length: 30 },
      { episode: 4, envSteps: 400, ret: 40, length: 40 },
      { episode: 5, envSteps: 400, ret: 50, length: 50 },
    ]);
    expect(s2.updatePoints.map((p) => [p.update, p.envSteps, p.meanReturn20])).toEqual([[1, 200, 15], [2, 400, 30]]);
    expect([s2.envSteps, s2.episodes, s2.updates, s2.wallSeconds, s2.stepsPerSecond]).toEqual([400, 5, 2, 4, 50]);
  });

  it('collects metric keys (finite values only), the policy-lag histogram, per-actor segments and lost segments', () => {
    const s = apply(state(), [
      update({ metrics: { loss: 1, entropy: Number.NaN }, policyLags: [0, 1, 1], actorStepsPerSecond: [100, 0], lostSegments: 1 }),
      update({ update: 2, metrics: { loss: 2, entropy: 0.5 }, policyLags: [1, 3], actorStepsPerSecond: [80, 60], lostSegments: 2 }),
    ]);
    expect(s.metricKeys).toEqual(['loss', 'entropy']);
    expect(s.lagHistogram).toEqual({ 0: 1, 1: 3, 3: 1 });
    // Actor 0 worked in both updates, actor 1 only in the second; the newest rate is shown.
    expect(s.actorStats).toEqual([{ stepsPerSecond: 80, segments: 2 }, { stepsPerSecond: 60, segments: 1 }]);
    expect(s.lostSegments).toBe(3);
  });

  it('leaves the state it is given untouched and returns only what changed', () => {
    const s0 = state({ metricKeys: ['loss'] });
    const patch = applyRecords(deepFreeze(s0), [update({ metrics: { loss: 1 } })]);
    expect(Object.keys(patch).sort()).toEqual(['actorStats', 'envSteps', 'episodes', 'stepsPerSecond', 'updatePoints', 'updates', 'wallSeconds']);
    expect(applyRecords(s0, [])).toEqual({});
  });

  it('draws the shaped swarm terms the records carry, and computes λ1·r_parallel, λ2·r_finish only for old saved runs', () => {
    const carried: SwarmEpisodeStats = { ...oldEpisode({ rParallel: 0.5, rFinish: 1, lambda1: 0.4, lambda2: 0.2 }), shapedParallel: 0.2, shapedFinish: 0.2 };
    // A record's own terms win even where they disagree with λ·r (the reward, not the UI, defines them).
    const odd: SwarmEpisodeStats = { ...carried, shapedParallel: 0.7, shapedFinish: 0 };
    const s = apply(state(), [
      { type: 'swarm', update: 1, trainSteps: 10, episodes: [carried, odd] },
      { type: 'swarm', update: 2, trainSteps: 20, episodes: [oldEpisode({ rParallel: 0.5, rFinish: 1, lambda1: 0.3, lambda2: 0.1 })] },
    ]);
    expect(s.swarmPoints.map((p) => [p.episode, p.trainSteps, p.shapedParallel, p.shapedFinish])).toEqual([
      [1, 10, 0.2, 0.2],
      [2, 10, 0.7, 0],
      [3, 20, 0.3 * 0.5, 0.1 * 1],
    ]);
    // The trend line is the mean over the update's episodes: (0.2 + 0.7) / 2 and (0.2 + 0) / 2.
    expect(s.swarmPoints[0].updateMean.shapedParallel).toBeCloseTo(0.45, 12);
    expect(s.swarmPoints[1].updateMean.shapedFinish).toBeCloseTo(0.1, 12);
    expect(s.lambdaPoints).toEqual([{ trainSteps: 10, lambda1: 0.4, lambda2: 0.2 }, { trainSteps: 20, lambda1: 0.3, lambda2: 0.1 }]);
  });

  it("a loop's 'running' or 'paused' does not undo a Stop", () => {
    expect(apply(state({ status: 'pausing' }), [{ type: 'state', state: 'paused' }]).status).toBe('paused');
    expect(apply(state({ status: 'stopping' }), [{ type: 'state', state: 'running' }]).status).toBe('stopping');
  });

  it('keeps the newest trace, a greedy episode only when it has frames, the summary, actors and backend', () => {
    const episode: GreedyEpisodeRecord = { type: 'greedyEpisode', update: 1, envId: 'CartPole-v1', keys: ['x'], frames: [0.1], episodeReturn: 1 };
    const empty: GreedyEpisodeRecord = { ...episode, update: 2, frames: [] };
    const actors: ActorStatusRecord['actors'] = [{ index: 0, name: 'actor-0', state: 'busy', respawns: 0, lastError: null }];
    const s = apply(state(), [episode, empty, { type: 'actors', actors }, { type: 'backend', name: 'cpu', reason: 'r', attempts: [] }]);
    expect(s.greedyEpisode).toEqual(episode);
    expect(s.actors).toEqual(actors);
    expect(s.backend?.name).toBe('cpu');
  });

  it('gives notices from records ids after the newest and keeps the newest MAX_NOTICES', () => {
    const notice = (i: number): NoticeRecord => ({ type: 'notice', level: 'info', message: `n${i}` });
    const s = apply(state({ notices: [{ id: 4, level: 'warning', message: 'old' }], nextNoticeId: 5 }), Array.from({ length: MAX_NOTICES }, (_, i) => notice(i)));
    expect(s.notices.map((n) => n.id)).toEqual([5, 6, 7, 8, 9]);
    expect(s.notices.map((n) => n.message)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    expect(s.nextNoticeId).toBe(5 + MAX_NOTICES);
  });

  it('halves a series once it passes MAX_POINTS, keeping the lowest and highest of every four episodes', () => {
    const n = 3 * MAX_POINTS;
    // Four consecutive i % 7 are distinct, so each run of four keeps exactly two points: n / 2 in all.
    const returns = Array.from({ length: n }, (_, i) => (i === 1234 ? 1e6 : i === 4321 ? -1e6 : i % 7));
    const s = apply(state(), [update({ episodes: n, returns, lengths: returns.map(() => 1) })]);
    expect(s.episodePoints).toHaveLength(n / 2);
    const kept = s.episodePoints.map((p) => p.episode);
    for (const episode of [1235, 4322]) expect(kept).toContain(episode);
    // Episodes 1..4 have returns 0, 1, 2, 3: the lowest and the highest stay.
    expect(kept.slice(0, 2)).toEqual([1, 4]);
  });
});

describe('the store built from its slices', () => {
  it('each store is its own: a setting, a notice or a run in one does not reach another', () => {
    const a = createPlaygroundStore();
    const b = createPlaygroundStore();
    a.getState().setSetting('seed', 42);
    a.getState().notify('info', 'hello');
    a.getState().ingest([update({ episodes: 1, returns: [3], lengths: [3] })]);
    expect(a.getState().config.settings.seed).toBe(42);
    expect(b.getState().config.settings.seed).not.toBe(42);
    expect(b.getState().notices).toEqual([]);
    expect(b.getState().episodePoints).toEqual([]);
  });

  it('ingest applies records, and clearMetrics empties them without touching settings, runs or notices', () => {
    const store = createPlaygroundStore();
    const s = store.getState();
    s.setSetting('seed', 9);
    s.setOverlays([{ id: 'r', name: 'r', points: [] }]);
    s.ingest([update({ episodes: 2, returns: [1, 2], lengths: [1, 2], actorStepsPerSecond: [5] }), { type: 'notice', level: 'warning', message: 'slow' }]);
    expect(store.getState().episodePoints).toHaveLength(2);
    store.getState().clearMetrics();
    const after = store.getState();
    expect(after.episodePoints).toEqual([]);
    expect(after.actorStats).toEqual([]);
    expect(after.config.settings.seed).toBe(9);
    expect(after.overlays).toHaveLength(1);
    expect(after.notices.map((n) => n.message)).toEqual(['slow']);
  });

  it('notify and record notices share one id sequence; dismiss removes only its own', () => {
    const store = createPlaygroundStore();
    store.getState().notify('info', 'first');
    store.getState().ingest([{ type: 'notice', level: 'error', message: 'second' }]);
    store.getState().notify('warning', 'third', ['detail']);
    const ids = store.getState().notices.map((n) => n.id);
    expect(new Set(ids).size).toBe(3);
    store.getState().dismiss(ids[1]);
    expect(store.getState().notices.map((n) => n.message)).toEqual(['first', 'third']);
    expect(store.getState().notices[1].details).toEqual(['detail']);
  });

  it('a preset replaces the experiment; a setting change is resolved against the preset', () => {
    const store = createPlaygroundStore();
    store.getState().setPreset('ppo-cartpole');
    expect(store.getState().config.preset).toBe('ppo-cartpole');
    expect(store.getState().config.settings.algorithm).toBe('ppo');
  });

  it("a preset with light actors keeps its own actor count, so the page runs its bench row's experiment", () => {
    const store = createPlaygroundStore();
    const cores = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    // A 2-core browser: one spare core, so a preset with network-running actors gets one actor.
    Object.defineProperty(globalThis, 'navigator', { value: { hardwareConcurrency: 2 }, configurable: true });
    try {
      store.getState().setPreset('ppo-cartpole');
      expect(store.getState().config.settings.actors).toBe(1);
      expect(presetActorsAreLight('ppo-cartpole')).toBe(false);
      expect(presetActorsAreLight('swarm-scale')).toBe(true);
      for (const name of ['swarm-annealed', 'swarm-no-shaping', 'swarm-constant-lambda1']) {
        store.getState().setPreset(name);
        expect(store.getState().config.settings.actors).toBe(resolveExperiment(name).settings.actors);
        expect(store.getState().config.settings.actors).toBeGreaterThan(1);
        expect(browserPresetActors(name)).toBe(resolveExperiment(name).settings.actors);
      }
    } finally {
      if (cores) Object.defineProperty(globalThis, 'navigator', cores);
      else Reflect.deleteProperty(globalThis, 'navigator');
    }
  });
});
