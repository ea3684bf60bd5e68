import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { Rng } from '../../../src/core/rng';
import type { SummaryRecord, UpdateRecord } from '../../../src/runs/records';
import { createPlaygroundStore, progressView, startingLine } from '../../../src/ui/store';
import { secondsToBudget } from '../../../src/ui/store/progress';
import { randomCaption } from '../../../src/ui/components/EnvView';
import { gradientStepsAt } from '../../../src/ui/components/ProgressPanel';

/** A page clock the test moves by hand (ms). */
function fakeClock() {
  let t = 1_000_000;
  return { now: () => t, advance: (seconds: number) => (t += seconds * 1000) };
}

function update(over: Partial<UpdateRecord>): UpdateRecord {
  return {
    type: 'update', update: 1, envSteps: 0, episodes: 0, wallSeconds: 0, returns: [], lengths: [], meanReturn20: null, stepsPerSecond: 0,
    metrics: {}, actorStepsPerSecond: [], lostSegments: 0, ...over,
  };
}

function summary(over: Partial<SummaryRecord>): SummaryRecord {
  return {
    type: 'summary', preset: 'quickstart', seed: 1, backend: 'wasm', updates: 1, envSteps: 0, episodes: 0, wallSeconds: 0,
    finalMeanReturn20: null, solved: null, stopReason: 'budget', lostSegments: 0, actorRespawns: 0, ...over,
  };
}

interface Simulated {
  /** Page seconds from Start until the learner's clock starts (backend probe, worker). */
  beforeLearner: number;
  /** Learner seconds before the first update starts (actors spawning). */
  spawn: number;
  /** Seconds each update takes, and the budget units it adds. */
  updates: { seconds: number; units: number }[];
}

/**
 * Plays a simulated run into a store on a fake clock and asks, at the first update at or past
 * half the budget, how long the run has left; returns that estimate and the true time left.
 */
function estimateAtMidRun(preset: string, overrides: Record<string, unknown>, unit: 'envSteps' | 'updates', sim: Simulated) {
  const clock = fakeClock();
  const store = createPlaygroundStore(clock.now);
  store.getState().replaceConfig(resolveExperiment(preset, overrides));
  store.getState().setStatus('starting');
  clock.advance(sim.beforeLearner + sim.spawn);
  let wall = sim.spawn;
  let done = 0;
  const budget = sim.updates.reduce((a, u) => a + u.units, 0);
  let estimate: number | null = null;
  let askedAtWall = 0;
  sim.updates.forEach((u, i) => {
    clock.advance(u.seconds);
    wall += u.seconds;
    done += u.units;
    store.getState().ingest([update({ update: i + 1, envSteps: unit === 'envSteps' ? done : done * 100, wallSeconds: wall })]);
    if (i === 0) store.getState().setStatus('running');
    if (estimate === null && done >= budget / 2) {
      // Asked a moment after the update arrived: the estimate counts down meanwhile.
      estimate = progressView(store.getState(), clock.now() + 200).left;
      askedAtWall = wall + 0.2;
    }
  });
  return { estimate: estimate as number | null, truth: wall - askedAtWall, budget };
}

describe('time left: from the run’s own measured rate, within 25 % by mid-run (simulated runs, fake clock)', () => {
  it('a steady run after a slow start: 9 s of backend probe, 3 s of workers, a 4 s first update', () => {
    const rng = new Rng(7);
    const updates = [{ seconds: 4, units: 2_048 }];
    for (let i = 1; i < 98; i++) updates.push({ seconds: 0.5 * (0.8 + 0.4 * rng.uniform()), units: 2_048 });
    const total = updates.reduce((a, u) => a + u.units, 0);
    const { estimate, truth } = estimateAtMidRun('quickstart', { 'run.envSteps': total }, 'envSteps', { beforeLearner: 9, spawn: 3, updates });
    expect(estimate).not.toBeNull();
    expect(Math.abs(estimate! - truth) / truth).toBeLessThanOrEqual(0.25);
  });

  it('a swarm whose updates grow slower as it learns to delegate (1 s to 5 s each)', () => {
    const rng = new Rng(11);
    const updates = Array.from({ length: 60 }, (_, u) => ({ seconds: (1 + (4 * u) / 60) * (0.9 + 0.2 * rng.uniform()), units: 1 }));
    const { estimate, truth } = estimateAtMidRun('swarm-annealed', { 'swarm.updates': 60 }, 'updates', { beforeLearner: 2, spawn: 20, updates });
    expect(estimate).not.toBeNull();
    expect(Math.abs(estimate! - truth) / truth).toBeLessThanOrEqual(0.25);
  });

  it('a replay run whose updates turn dearer once learning starts (a tenth of the budget at 0.2 s, then 1 s)', () => {
    const updates = Array.from({ length: 100 }, (_, u) => ({ seconds: u < 10 ? 0.2 : 1, units: 1_000 }));
    const { estimate, truth } = estimateAtMidRun('quickstart', { 'run.envSteps': 100_000 }, 'envSteps', { beforeLearner: 1, spawn: 1, updates });
    expect(Math.abs(estimate! - truth) / truth).toBeLessThanOrEqual(0.25);
  });

  it('needs a measured update, and reads a run at its budget as done', () => {
    expect(secondsToBudget([], 100)).toBeNull();
    expect(secondsToBudget([{ wallSeconds: 4, done: 10 }], 100)).toBeCloseTo(36);
    expect(secondsToBudget([{ wallSeconds: 4, done: 10 }, { wallSeconds: 5, done: 100 }], 100)).toBe(0);
  });
});

describe('elapsed time: from Start, to the end', () => {
  it('counts from the press of Start, not from the first update, and ticks between updates', () => {
    const clock = fakeClock();
    const store = createPlaygroundStore(clock.now);
    store.getState().setStatus('starting');
    clock.advance(21);
    // The learner's first update after its own 0.1 s.
    store.getState().ingest([update({ update: 1, envSteps: 512, wallSeconds: 0.1 })]);
    store.getState().setStatus('running');
    expect(progressView(store.getState(), clock.now()).elapsed).toBeCloseTo(21);
    expect(progressView(store.getState(), clock.now() + 3_000).elapsed).toBeCloseTo(24);
  });

  it('a finished run says how long it took from Start to its end, not its last update', () => {
    const clock = fakeClock();
    const store = createPlaygroundStore(clock.now);
    store.getState().setStatus('starting');
    clock.advance(9);
    store.getState().ingest([update({ update: 1, envSteps: 512, wallSeconds: 1 })]);
    store.getState().setStatus('running');
    clock.advance(3);
    store.getState().ingest([update({ update: 2, envSteps: 1_024, wallSeconds: 2.5 }), summary({ wallSeconds: 3.4, envSteps: 1_024 })]);
    store.getState().setStatus('done');
    const later = progressView(store.getState(), clock.now() + 60_000);
    expect(later.finished).toBe(true);
    expect(later.elapsed).toBeCloseTo(12);
    expect(later.left).toBeNull();
  });

  it('a saved run opened from the list shows its own run time', () => {
    const store = createPlaygroundStore(fakeClock().now);
    store.getState().ingest([update({ update: 1, envSteps: 512, wallSeconds: 2.5 }), summary({ wallSeconds: 7.5 })]);
    store.getState().setStatus('done');
    expect(progressView(store.getState(), 0).elapsed).toBe(7.5);
  });

  it('the time left counts down between updates, and stands still while paused', () => {
    const clock = fakeClock();
    const store = createPlaygroundStore(clock.now);
    store.getState().replaceConfig(resolveExperiment('quickstart', { 'run.envSteps': 10_000 }));
    store.getState().setStatus('starting');
    clock.advance(2);
    store.getState().ingest([update({ update: 1, envSteps: 1_000, wallSeconds: 1 })]);
    store.getState().setStatus('running');
    clock.advance(1);
    store.getState().ingest([update({ update: 2, envSteps: 2_000, wallSeconds: 2 })]);
    expect(progressView(store.getState(), clock.now()).left).toBeCloseTo(8);
    expect(progressView(store.getState(), clock.now() + 3_000).left).toBeCloseTo(5);
    store.getState().setStatus('paused');
    expect(progressView(store.getState(), clock.now() + 3_000).left).toBeCloseTo(8);
  });
});

describe('offline runs count gradient steps', () => {
  it('their budget, their progress and their rate are in gradient steps', () => {
    const clock = fakeClock();
    const store = createPlaygroundStore(clock.now);
    store.getState().replaceConfig(resolveExperiment('cql-pendulum'));
    store.getState().setStatus('starting');
    clock.advance(10);
    store.getState().ingest([update({ update: 1, envSteps: 0, wallSeconds: 10, metrics: { gradientSteps: 1_000 }, returns: [-900], lengths: [200], episodes: 1 })]);
    store.getState().setStatus('running');
    clock.advance(10);
    store.getState().ingest([update({ update: 2, envSteps: 0, wallSeconds: 20, metrics: { gradientSteps: 2_000 }, returns: [-700], lengths: [200], episodes: 2 })]);
    const view = progressView(store.getState(), clock.now());
    expect(view).toMatchObject({ unit: 'gradientSteps', label: 'gradient steps', budget: 5_000, done: 2_000, fraction: 0.4 });
    expect(view.rate).toBeCloseTo(100);
    expect(view.left).toBeCloseTo(30);
  });

  it('their return curve and change markers sit at their gradient steps', () => {
    const store = createPlaygroundStore(fakeClock().now);
    store.getState().ingest([
      update({ update: 1, metrics: { gradientSteps: 1_000 }, meanReturn20: -900, returns: [-900], lengths: [200], episodes: 1 }),
      { type: 'change', update: 2, key: 'cql.actorLr', from: 0.001, to: 0.002 },
    ]);
    expect(store.getState().gradientSteps).toBe(1_000);
    expect(store.getState().changeMarks[0]).toMatchObject({ gradientSteps: 1_000, envSteps: 0 });
  });
});

describe('the page never waits without a word', () => {
  it('says what a starting run is doing from the press of Start to its first update', () => {
    const store = createPlaygroundStore(fakeClock().now);
    expect(startingLine(store.getState())).toBeNull();
    store.getState().setStatus('starting');
    expect(startingLine(store.getState())).toMatch(/measuring which learner backend/);
    store.getState().setBackend({ type: 'backend', name: 'wasm', reason: 'wasm: fastest', attempts: [] });
    expect(startingLine(store.getState())).toMatch(/^Starting the learner on wasm and \d actors?…/);
    store.getState().ingest([{ type: 'actors', actors: [{ index: 0, name: 'RolloutActor', state: 'busy', respawns: 0, lastError: null }] }]);
    store.getState().setStatus('running');
    expect(startingLine(store.getState())).toMatch(/collecting the first update/);
    store.getState().ingest([update({ update: 1, envSteps: 512, wallSeconds: 1 })]);
    expect(startingLine(store.getState())).toBeNull();
  });

  it('the live view says random actions last until the first update only while there is none', () => {
    expect(randomCaption(0)).toMatch(/until the first update/);
    expect(randomCaption(3)).not.toMatch(/until the first update/);
    expect(randomCaption(3)).toMatch(/first demo episode.*3 updates so far/);
  });
});

describe('an offline run that reaches its target says after how many gradient steps', () => {
  it('reads them from the update that reached it', () => {
    const points = [1, 2, 3].map((u) => ({ update: u, envSteps: 0, episodes: 5 * u, wallSeconds: u * 10, meanReturn20: -300 + u * 50, stepsPerSecond: 0, metrics: { gradientSteps: u * 1_000 } }));
    expect(gradientStepsAt(points, 20)).toBe(2_000);
    expect(gradientStepsAt(points, 99)).toBe(3_000);
    expect(gradientStepsAt([], 5)).toBe(0);
  });
});
