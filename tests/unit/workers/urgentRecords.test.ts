import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/runs/records';
import { urgentRecords } from '../../../src/workers/urgentRecords';

const update = (n: number, meanReturn20: number | null, episodes = 20 * n): RunRecord => ({
  type: 'update',
  update: n,
  envSteps: n * 100,
  episodes,
  wallSeconds: n / 10,
  returns: [],
  lengths: [],
  meanReturn20,
  stepsPerSecond: 1000,
  metrics: {},
  actorStepsPerSecond: [],
  lostSegments: 0,
});
const actors: RunRecord = { type: 'actors', actors: [{ index: 0, name: 'RolloutActor#0', state: 'idle', respawns: 0, lastError: null }] };
const notice: RunRecord = { type: 'notice', level: 'info', message: 'hi' };
const summary: RunRecord = {
  type: 'summary',
  preset: 'quickstart',
  seed: 1,
  backend: 'wasm',
  updates: 5,
  envSteps: 500,
  episodes: 5,
  wallSeconds: 0.5,
  finalMeanReturn20: 200,
  solved: null,
  stopReason: 'target',
  lostSegments: 0,
  actorRespawns: 0,
};

describe('urgentRecords', () => {
  it('marks the first actors and update records, the update that first reaches the target, and the summary', () => {
    const isUrgent = urgentRecords(195);
    const run = [notice, actors, update(1, null), actors, update(2, 20), update(3, 194.9), update(4, 195), update(5, 200), actors, summary];
    expect(run.map((r) => isUrgent(r))).toEqual([false, true, true, false, false, false, true, false, false, true]);
  });

  it('waits for 20 episodes behind the mean, as the learner judges the target', () => {
    // An offline run's evaluations: 5 greedy episodes each, the first ones already above the target.
    const isUrgent = urgentRecords(-200, { firstUpdate: false });
    const run = [update(1, -150, 5), update(2, -180, 10), update(3, -190, 15), update(4, -195, 20), update(5, -170, 25)];
    expect(run.map((r) => isUrgent(r))).toEqual([false, false, false, true, false]);
  });

  it("leaves the first update to the page's batching when asked to", () => {
    const isUrgent = urgentRecords(195, { firstUpdate: false });
    const run = [actors, update(1, null), update(2, 100), update(3, 196), summary];
    expect(run.map((r) => isUrgent(r))).toEqual([true, false, false, true, true]);
  });

  it('keeps each run apart: a new predicate starts afresh', () => {
    const first = urgentRecords(10);
    expect(first(update(1, 50))).toBe(true);
    expect(first(update(2, 60))).toBe(false);
    const second = urgentRecords(10);
    expect(second(update(1, 5))).toBe(true);
    expect(second(update(2, 10))).toBe(true);
  });
});
