/**
 * One zustand slice creator per concern (zustand's slices pattern); `createPlaygroundStore`
 * combines them. Each creator sets only its own fields, except `ingest`, whose records also move
 * the run's status and backend, and add notices (see applyRecords).
 */
import type { StateCreator } from 'zustand';
import { resolveExperiment, type ExperimentConfig } from '../../config/config';
import { withMatchingEnv } from '../../config/actionSpace';
import { descriptorOf } from '../../config/registry';
import { applyRecords } from './applyRecords';
import { changesThatApply } from './liveChanges';
import { MAX_NOTICES, type ExperimentSlice, type MetricsData, type MetricsSlice, type NoticesSlice, type PlaygroundState, type RunSlice, type RunsSlice, type ViewSlice } from './types';

type SliceCreator<Slice> = StateCreator<PlaygroundState, [], [], Slice>;

/**
 * In the browser a preset starts with one actor per spare core (the page and the learner keep
 * one), at most 4. A shared link carries the number it was made with, so it still reproduces.
 */
export function browserDefaultActors(): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores - 1));
}

/** Whether a preset's actors run no network, so that the page keeps its own count (AlgorithmDescriptor.lightActors). */
export function presetActorsAreLight(name: string): boolean {
  return descriptorOf(resolveExperiment(name).settings.algorithm).lightActors === true;
}

/** The actors a preset starts with in this browser: its own count where its actors are light, else one per spare core. */
export function browserPresetActors(name: string): number {
  return presetActorsAreLight(name) ? resolveExperiment(name).settings.actors : browserDefaultActors();
}

function presetForThisBrowser(name: string): ExperimentConfig {
  return resolveExperiment(name, { ...resolveExperiment(name).settings, actors: browserPresetActors(name) });
}

export const createExperimentSlice: SliceCreator<ExperimentSlice> = (set) => ({
  config: presetForThisBrowser('quickstart'),
  changes: [],
  setPreset: (name) => set({ config: presetForThisBrowser(name), changes: [] }),
  setSetting: (key, value) =>
    set((s) => {
      const next = { ...s.config.settings, [key]: value };
      // Switching between a discrete and a Box-action algorithm also switches to an env it can run on.
      const config = resolveExperiment(s.config.preset, key === 'algorithm' ? withMatchingEnv(next, descriptorOf(next.algorithm)) : next);
      // Timed changes that no longer apply (another algorithm) leave the experiment.
      return { config, changes: changesThatApply(config, s.changes) };
    }),
  replaceConfig: (config) => set({ config, changes: [] }),
  setChanges: (changes) => set({ changes }),
});

export const createViewSlice: SliceCreator<ViewSlice> = (set) => ({
  view: { autostart: false, hide: [] },
  setView: (view) => set({ view }),
});

/** The page's clock, in ms (performance.now in the page; tests pass their own). */
export type PageClock = () => number;

const pageClock: PageClock = () => performance.now();

/**
 * The run's status; Start ('starting') starts the run's clock and coming to rest ('done',
 * 'error') stops it, so the elapsed time counts from the press of Start (the backend probe and
 * the workers' start included) to the end.
 */
export const createRunSlice =
  (now: PageClock = pageClock): SliceCreator<RunSlice> =>
  (set) => ({
    status: 'idle',
    backend: null,
    currentRunId: null,
    setStatus: (status) =>
      set((s) => {
        if (status === 'starting') return { status, startedAt: now(), endedAt: null, lastUpdateAt: null };
        const resting = status === 'done' || status === 'error' || status === 'idle';
        if (resting && s.startedAt !== null && s.endedAt === null) return { status, endedAt: now() };
        return { status };
      }),
    setBackend: (backend) => set({ backend }),
    setCurrentRun: (currentRunId) => set({ currentRunId }),
  });

/** A fresh object each time, so no two runs ever share an array. */
export function emptyMetrics(): MetricsData {
  return {
    summary: null,
    envSteps: 0,
    episodes: 0,
    updates: 0,
    gradientSteps: 0,
    wallSeconds: 0,
    startedAt: null,
    endedAt: null,
    lastUpdateAt: null,
    stepsPerSecond: 0,
    episodePoints: [],
    updatePoints: [],
    metricKeys: [],
    swarmPoints: [],
    lambdaPoints: [],
    lagHistogram: {},
    lostSegments: 0,
    swarmTrace: null,
    greedyEpisode: null,
    actors: [],
    actorStats: [],
    changeMarks: [],
    liveValues: {},
    inspect: null,
  };
}

export const createMetricsSlice =
  (now: PageClock = pageClock): SliceCreator<MetricsSlice> =>
  (set) => ({
    ...emptyMetrics(),
    clearMetrics: () => set(emptyMetrics()),
    ingest: (records) =>
      set((s) => {
        const patch = applyRecords(s, records);
        // When the newest update arrived: the time left counts down from it between updates.
        return records.some((r) => r.type === 'update') ? { ...patch, lastUpdateAt: now() } : patch;
      }),
  });

export const createRunsSlice: SliceCreator<RunsSlice> = (set) => ({
  runs: [],
  overlays: [],
  setRuns: (runs) => set({ runs }),
  setOverlays: (overlays) => set({ overlays }),
});

export const createNoticesSlice: SliceCreator<NoticesSlice> = (set) => ({
  notices: [],
  nextNoticeId: 1,
  notify: (level, message, details, action) =>
    set((s) => ({
      notices: [...s.notices.slice(-(MAX_NOTICES - 1)), { id: s.nextNoticeId, level, message, ...(details ? { details } : {}), ...(action ? { action } : {}) }],
      nextNoticeId: s.nextNoticeId + 1,
    })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
});
