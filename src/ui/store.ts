/**
 * The page's state, in zustand slices: the experiment being edited, the view options a link can
 * set, the run's status, the metrics the charts read through selectors, the actors, the saved
 * runs and the notices. Training data arrives in batches from the learner worker (`ingest`), at
 * most about 10 times a second; every series is decimated to about 2,000 points.
 */
import { create } from 'zustand';
import { resolveExperiment, type ExperimentConfig } from '../config/config';
import { decimateKeepingExtremes } from '../runs/decimate';
import type { ActorStatusRecord, BackendRecord, DemoRecord, RunRecord, SummaryRecord, SwarmEpisodeStats, TraceRecord } from '../runs/records';
import type { RunMeta } from '../runs/runStore';
import type { ExperimentSettings } from '../config/settings';

export type RunStatus = 'idle' | 'starting' | 'running' | 'pausing' | 'paused' | 'stopping' | 'done' | 'error';

export interface EpisodePoint {
  episode: number;
  envSteps: number;
  ret: number;
  length: number;
}

export interface UpdatePoint {
  update: number;
  envSteps: number;
  wallSeconds: number;
  meanReturn20: number | null;
  stepsPerSecond: number;
  metrics: Record<string, number>;
}

export interface SwarmPoint extends SwarmEpisodeStats {
  episode: number;
  trainSteps: number;
  shapedParallel: number;
  shapedFinish: number;
  /** Means over the episodes of the same update: the trend line drawn over the per-episode noise. */
  updateMean: Record<SmoothedKey, number>;
}

export const SMOOTHED_KEYS = ['rPerf', 'shapedParallel', 'shapedFinish', 'criticalSteps', 'totalSteps', 'avgParallelism', 'finishRate'] as const;
export type SmoothedKey = (typeof SMOOTHED_KEYS)[number];

export interface LambdaPoint {
  trainSteps: number;
  lambda1: number;
  lambda2: number;
}

/** What the actors panel shows beyond the pool's own status. */
export interface ActorStats {
  stepsPerSecond: number;
  /** Updates this actor's segments went into. */
  segments: number;
}

export interface Overlay {
  id: string;
  name: string;
  points: { envSteps: number; mean: number }[];
}

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** Longer detail, shown under the message (for example what a link lost). */
  details?: string[];
}

export interface ViewOptions {
  autostart: boolean;
  hide: string[];
}

interface ExperimentSlice {
  config: ExperimentConfig;
  setPreset(name: string): void;
  setSetting<K extends keyof ExperimentSettings>(key: K, value: ExperimentSettings[K]): void;
  replaceConfig(config: ExperimentConfig): void;
}

interface ViewSlice {
  view: ViewOptions;
  setView(view: ViewOptions): void;
}

interface RunSlice {
  status: RunStatus;
  backend: BackendRecord | null;
  summary: SummaryRecord | null;
  envSteps: number;
  episodes: number;
  /** Updates so far (what a swarm run's budget counts). */
  updates: number;
  wallSeconds: number;
  stepsPerSecond: number;
  /** The saved run the charts show (the live one, or one opened from the list). */
  currentRunId: string | null;
  setStatus(status: RunStatus): void;
  setBackend(backend: BackendRecord): void;
  setCurrentRun(id: string | null): void;
}

interface MetricsSlice {
  episodePoints: EpisodePoint[];
  updatePoints: UpdatePoint[];
  metricKeys: string[];
  swarmPoints: SwarmPoint[];
  lambdaPoints: LambdaPoint[];
  lagHistogram: Record<number, number>;
  lostSegments: number;
  trace: TraceRecord | null;
  /** The newest greedy demo episode (actor 0, recent weights), for the live environment view. */
  demo: DemoRecord | null;
  clearMetrics(): void;
}

interface ActorsSlice {
  actors: ActorStatusRecord['actors'];
  actorStats: ActorStats[];
}

interface RunsSlice {
  runs: RunMeta[];
  overlays: Overlay[];
  setRuns(runs: RunMeta[]): void;
  setOverlays(overlays: Overlay[]): void;
}

interface NoticesSlice {
  notices: Notice[];
  notify(level: Notice['level'], message: string, details?: string[]): void;
  dismiss(id: number): void;
}

export type PlaygroundState = ExperimentSlice & ViewSlice & RunSlice & MetricsSlice & ActorsSlice & RunsSlice & NoticesSlice & {
  ingest(records: readonly RunRecord[]): void;
};

export const MAX_POINTS = 2_000;
const MAX_NOTICES = 5;
let noticeId = 0;

const emptyMetrics = {
  episodePoints: [] as EpisodePoint[],
  updatePoints: [] as UpdatePoint[],
  metricKeys: [] as string[],
  swarmPoints: [] as SwarmPoint[],
  lambdaPoints: [] as LambdaPoint[],
  lagHistogram: {} as Record<number, number>,
  lostSegments: 0,
  trace: null as TraceRecord | null,
  demo: null as DemoRecord | null,
  summary: null as SummaryRecord | null,
  envSteps: 0,
  episodes: 0,
  updates: 0,
  wallSeconds: 0,
  stepsPerSecond: 0,
  actors: [] as ActorStatusRecord['actors'],
  actorStats: [] as ActorStats[],
};

/**
 * In the browser a preset starts with one actor per spare core (the page and the learner keep
 * one), at most 4. A shared link carries the number it was made with, so it still reproduces.
 */
export function browserDefaultActors(): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores - 1));
}

function presetForThisBrowser(name: string): ExperimentConfig {
  return resolveExperiment(name, { ...resolveExperiment(name).settings, actors: browserDefaultActors() });
}

export const usePlayground = create<PlaygroundState>()((set) => ({
  config: presetForThisBrowser('quickstart'),
  setPreset: (name) => set({ config: presetForThisBrowser(name) }),
  setSetting: (key, value) =>
    set((s) => ({ config: resolveExperiment(s.config.preset, { ...s.config.settings, [key]: value }) })),
  replaceConfig: (config) => set({ config }),

  view: { autostart: false, hide: [] },
  setView: (view) => set({ view }),

  status: 'idle',
  backend: null,
  currentRunId: null,
  setStatus: (status) => set({ status }),
  setBackend: (backend) => set({ backend }),
  setCurrentRun: (currentRunId) => set({ currentRunId }),

  ...emptyMetrics,
  clearMetrics: () => set({ ...emptyMetrics }),

  runs: [],
  overlays: [],
  setRuns: (runs) => set({ runs }),
  setOverlays: (overlays) => set({ overlays }),

  notices: [],
  notify: (level, message, details) =>
    set((s) => ({ notices: [...s.notices.slice(-(MAX_NOTICES - 1)), { id: ++noticeId, level, message, ...(details ? { details } : {}) }] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),

  ingest: (records) => set((s) => applyRecords(s, records)),
}));

/** The state change a batch of records makes (pure, so a saved run replays the same way). */
export function applyRecords(s: PlaygroundState, records: readonly RunRecord[]): Partial<PlaygroundState> {
  const patch: Partial<PlaygroundState> = {};
  const newEpisodes: EpisodePoint[] = [];
  const newUpdates: UpdatePoint[] = [];
  const newSwarm: SwarmPoint[] = [];
  const newLambdas: LambdaPoint[] = [];
  let metricKeys = s.metricKeys;
  let lagHistogram = s.lagHistogram;
  let actorStats = s.actorStats;
  let lostSegments = s.lostSegments;
  let swarmEpisodes = s.swarmPoints.length > 0 ? s.swarmPoints[s.swarmPoints.length - 1].episode : 0;
  const notices = [...s.notices];

  for (const r of records) {
    switch (r.type) {
      case 'update': {
        const first = r.episodes - r.returns.length;
        r.returns.forEach((ret, i) => newEpisodes.push({ episode: first + i + 1, envSteps: r.envSteps, ret, length: r.lengths[i] }));
        newUpdates.push({ update: r.update, envSteps: r.envSteps, wallSeconds: r.wallSeconds, meanReturn20: r.meanReturn20, stepsPerSecond: r.stepsPerSecond, metrics: r.metrics });
        const keys = Object.keys(r.metrics).filter((k) => Number.isFinite(r.metrics[k]));
        if (keys.some((k) => !metricKeys.includes(k))) metricKeys = [...new Set([...metricKeys, ...keys])];
        if (r.policyLags && r.policyLags.length > 0) {
          lagHistogram = { ...lagHistogram };
          for (const lag of r.policyLags) lagHistogram[lag] = (lagHistogram[lag] ?? 0) + 1;
        }
        actorStats = r.actorStepsPerSecond.map((sps, i) => ({
          stepsPerSecond: sps,
          segments: (actorStats[i]?.segments ?? 0) + (sps > 0 ? 1 : 0),
        }));
        lostSegments += r.lostSegments;
        Object.assign(patch, { envSteps: r.envSteps, episodes: r.episodes, updates: r.update, wallSeconds: r.wallSeconds, stepsPerSecond: r.stepsPerSecond });
        break;
      }
      case 'swarm': {
        const points = r.episodes.map((e) => ({ ...e, shapedParallel: e.lambda1 * e.rParallel, shapedFinish: e.lambda2 * e.rFinish }));
        const updateMean = {} as Record<SmoothedKey, number>;
        for (const k of SMOOTHED_KEYS) updateMean[k] = points.reduce((a, p) => a + p[k], 0) / Math.max(1, points.length);
        for (const p of points) {
          swarmEpisodes += 1;
          newSwarm.push({ ...p, episode: swarmEpisodes, trainSteps: r.trainSteps, updateMean });
        }
        if (r.episodes.length > 0) newLambdas.push({ trainSteps: r.trainSteps, lambda1: r.episodes[0].lambda1, lambda2: r.episodes[0].lambda2 });
        break;
      }
      case 'trace':
        patch.trace = r;
        break;
      case 'demo':
        if (r.frames.length > 0 && r.keys.length > 0) patch.demo = r;
        break;
      case 'summary':
        patch.summary = r;
        break;
      case 'actors':
        patch.actors = r.actors;
        break;
      case 'backend':
        patch.backend = r;
        break;
      case 'state':
        if (s.status !== 'stopping') patch.status = r.state;
        break;
      case 'notice':
        notices.push({ id: ++noticeId, level: r.level, message: r.message });
        break;
    }
  }
  if (newEpisodes.length > 0) patch.episodePoints = decimateKeepingExtremes(s.episodePoints.concat(newEpisodes), (p) => p.ret, MAX_POINTS);
  if (newUpdates.length > 0) patch.updatePoints = decimateKeepingExtremes(s.updatePoints.concat(newUpdates), (p) => p.meanReturn20 ?? 0, MAX_POINTS);
  if (newSwarm.length > 0) patch.swarmPoints = decimateKeepingExtremes(s.swarmPoints.concat(newSwarm), (p) => p.total, MAX_POINTS);
  if (newLambdas.length > 0) patch.lambdaPoints = decimateKeepingExtremes(s.lambdaPoints.concat(newLambdas), (p) => p.lambda1, MAX_POINTS);
  if (metricKeys !== s.metricKeys) patch.metricKeys = metricKeys;
  if (lagHistogram !== s.lagHistogram) patch.lagHistogram = lagHistogram;
  if (actorStats !== s.actorStats) patch.actorStats = actorStats;
  if (lostSegments !== s.lostSegments) patch.lostSegments = lostSegments;
  if (notices.length !== s.notices.length) patch.notices = notices.slice(-MAX_NOTICES);
  return patch;
}

/** The mean-return curve of a saved run, for overlays. */
export function meanReturnCurve(records: readonly RunRecord[]): Overlay['points'] {
  const out: Overlay['points'] = [];
  for (const r of records) if (r.type === 'update' && r.meanReturn20 !== null) out.push({ envSteps: r.envSteps, mean: r.meanReturn20 });
  return decimateKeepingExtremes(out, (p) => p.mean, MAX_POINTS);
}
