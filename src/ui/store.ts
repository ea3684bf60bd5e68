/**
 * The page's state, in zustand slices: the experiment being edited, the run's status, the
 * metrics the charts read through selectors, the actors and the notices. Training data arrives
 * in batches from the learner worker (`ingest`), at most about 10 times a second.
 */
import { create } from 'zustand';
import { resolveExperiment, type ExperimentConfig } from '../experiments/config';
import { decimateKeepingExtremes } from '../experiments/decimate';
import type { ActorStatusRecord, BackendRecord, RunRecord, SummaryRecord } from '../experiments/records';
import type { ExperimentSettings } from '../experiments/settings';

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

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
}

interface ExperimentSlice {
  config: ExperimentConfig;
  setPreset(name: string): void;
  setSetting<K extends keyof ExperimentSettings>(key: K, value: ExperimentSettings[K]): void;
  replaceConfig(config: ExperimentConfig): void;
}

interface RunSlice {
  status: RunStatus;
  backend: BackendRecord | null;
  summary: SummaryRecord | null;
  envSteps: number;
  episodes: number;
  wallSeconds: number;
  stepsPerSecond: number;
  setStatus(status: RunStatus): void;
  setBackend(backend: BackendRecord): void;
}

interface MetricsSlice {
  episodePoints: EpisodePoint[];
  updatePoints: UpdatePoint[];
  clearMetrics(): void;
}

interface ActorsSlice {
  actors: ActorStatusRecord['actors'];
}

interface NoticesSlice {
  notices: Notice[];
  notify(level: Notice['level'], message: string): void;
  dismiss(id: number): void;
}

export type PlaygroundState = ExperimentSlice & RunSlice & MetricsSlice & ActorsSlice & NoticesSlice & {
  ingest(records: RunRecord[]): void;
};

const MAX_POINTS = 2_000;
let noticeId = 0;

export const usePlayground = create<PlaygroundState>()((set) => ({
  // experiment
  config: resolveExperiment('quickstart'),
  setPreset: (name) => set({ config: resolveExperiment(name) }),
  setSetting: (key, value) =>
    set((s) => ({ config: resolveExperiment(s.config.preset, { ...s.config.settings, [key]: value }) })),
  replaceConfig: (config) => set({ config }),

  // run
  status: 'idle',
  backend: null,
  summary: null,
  envSteps: 0,
  episodes: 0,
  wallSeconds: 0,
  stepsPerSecond: 0,
  setStatus: (status) => set({ status }),
  setBackend: (backend) => set({ backend }),

  // metrics
  episodePoints: [],
  updatePoints: [],
  clearMetrics: () => set({ episodePoints: [], updatePoints: [], summary: null, envSteps: 0, episodes: 0, wallSeconds: 0, stepsPerSecond: 0, actors: [] }),

  // actors
  actors: [],

  // notices
  notices: [],
  notify: (level, message) => set((s) => ({ notices: [...s.notices.slice(-4), { id: ++noticeId, level, message }] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),

  ingest: (records) =>
    set((s) => {
      let episodePoints = s.episodePoints;
      let updatePoints = s.updatePoints;
      const patch: Partial<PlaygroundState> = {};
      const notices = [...s.notices];
      for (const r of records) {
        switch (r.type) {
          case 'update': {
            const first = r.episodes - r.returns.length;
            episodePoints = episodePoints.concat(
              r.returns.map((ret, i) => ({ episode: first + i + 1, envSteps: r.envSteps, ret, length: r.lengths[i] })),
            );
            updatePoints = updatePoints.concat({
              update: r.update,
              envSteps: r.envSteps,
              wallSeconds: r.wallSeconds,
              meanReturn20: r.meanReturn20,
              stepsPerSecond: r.stepsPerSecond,
              metrics: r.metrics,
            });
            Object.assign(patch, { envSteps: r.envSteps, episodes: r.episodes, wallSeconds: r.wallSeconds, stepsPerSecond: r.stepsPerSecond });
            break;
          }
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
      episodePoints = decimateKeepingExtremes(episodePoints, (p) => p.ret, MAX_POINTS);
      updatePoints = decimateKeepingExtremes(updatePoints, (p) => p.meanReturn20 ?? 0, MAX_POINTS);
      return { ...patch, episodePoints, updatePoints, notices: notices.slice(-5) };
    }),
}));
