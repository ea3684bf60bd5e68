/** The shapes of the page's state: what the charts plot, and one interface per store slice. */
import type { ExperimentConfig } from '../../config/config';
import type { ExperimentSettings } from '../../config/settings';
import type { ActorStatusRecord, BackendRecord, SwarmTraceRecord, GreedyEpisodeRecord, InspectRecord, RunRecord, SummaryRecord, SwarmEpisodeStats, SwarmUpdateRecord } from '../../runs/records';
import type { LiveChange, LiveValue } from '../../config/liveSettings';
import type { RunMeta } from '../../runs/runStore';

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
  /** Episodes finished by this update (an offline run's: its evaluation episodes). */
  episodes: number;
  wallSeconds: number;
  meanReturn20: number | null;
  stepsPerSecond: number;
  metrics: Record<string, number>;
}

export const SMOOTHED_KEYS = ['rPerf', 'shapedParallel', 'shapedFinish', 'criticalSteps', 'totalSteps', 'avgParallelism', 'finishRate'] as const;
export type SmoothedKey = (typeof SMOOTHED_KEYS)[number];

/** A swarm episode as runs saved before the records carried the shaped terms have it. */
export type SavedSwarmEpisode = Omit<SwarmEpisodeStats, 'shapedParallel' | 'shapedFinish'> & { shapedParallel?: number; shapedFinish?: number };

/** What the store takes in: the learner's records, and saved runs' records (old ones included). */
export type IngestedRecord = RunRecord | (Omit<SwarmUpdateRecord, 'episodes'> & { episodes: SavedSwarmEpisode[] });

export interface SwarmPoint extends SwarmEpisodeStats {
  episode: number;
  trainSteps: number;
  /** λ1·r_parallel, as the record carries it. */
  shapedParallel: number;
  /** λ2·r_finish, as the record carries it. */
  shapedFinish: number;
  /** Means over the episodes of the same update: the trend line drawn over the per-episode noise. */
  updateMean: Record<SmoothedKey, number>;
}

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
  points: { envSteps: number; mean: number; gradientSteps?: number }[];
}

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** Longer detail, shown under the message (for example what a link lost). */
  details?: string[];
  /** A button on the notice (Undo after a delete); pressing it runs `run` and dismisses the notice. */
  action?: NoticeAction;
}

export interface NoticeAction {
  label: string;
  run(): void;
}

export interface ViewOptions {
  autostart: boolean;
  hide: string[];
}

/** A live change as the charts mark it: where the run was when it applied. */
export interface ChangeMark {
  update: number;
  key: string;
  from: LiveValue;
  to: LiveValue;
  /** Env steps, gradient steps and finished episodes before the update it applied to (the x of its marker). */
  envSteps: number;
  gradientSteps: number;
  episode: number;
}

export interface ExperimentSlice {
  config: ExperimentConfig;
  /** Timed changes that are part of the experiment (a link's), replayed by Start at their updates. */
  changes: LiveChange[];
  setChanges(changes: LiveChange[]): void;
  setPreset(name: string): void;
  setSetting<K extends keyof ExperimentSettings>(key: K, value: ExperimentSettings[K]): void;
  replaceConfig(config: ExperimentConfig): void;
}

export interface ViewSlice {
  view: ViewOptions;
  setView(view: ViewOptions): void;
}

export interface RunSlice {
  status: RunStatus;
  backend: BackendRecord | null;
  /** The saved run the charts show (the live one, or one opened from the list). */
  currentRunId: string | null;
  setStatus(status: RunStatus): void;
  setBackend(backend: BackendRecord): void;
  setCurrentRun(id: string | null): void;
}

/** Everything a run's records fill in; `clearMetrics` empties all of it for the next run. */
export interface MetricsData {
  summary: SummaryRecord | null;
  envSteps: number;
  episodes: number;
  /** Updates so far (what a swarm run's budget counts). */
  updates: number;
  /** Gradient steps so far, where the run reports them (what an offline run's budget counts). */
  gradientSteps: number;
  /** Seconds since the learner began the run, at the newest update (the learner's clock). */
  wallSeconds: number;
  /** The page's clock (ms) when Start was pressed; null for a saved run opened from the list. */
  startedAt: number | null;
  /** The page's clock (ms) when the run came to rest; null while it runs. */
  endedAt: number | null;
  /** The page's clock (ms) when the newest update record arrived. */
  lastUpdateAt: number | null;
  stepsPerSecond: number;
  episodePoints: EpisodePoint[];
  updatePoints: UpdatePoint[];
  metricKeys: string[];
  swarmPoints: SwarmPoint[];
  lambdaPoints: LambdaPoint[];
  lagHistogram: Record<number, number>;
  lostSegments: number;
  /** The newest swarm episode trace (subagent kinds, checks, retries). */
  swarmTrace: SwarmTraceRecord | null;
  /** The newest greedy episode (actor 0, recent weights), for the live environment view. */
  greedyEpisode: GreedyEpisodeRecord | null;
  actors: ActorStatusRecord['actors'];
  actorStats: ActorStats[];
  /** The live changes this run applied, in order. */
  changeMarks: ChangeMark[];
  /** The value each changed setting has now in this run (the config keeps the start values). */
  liveValues: Record<string, LiveValue>;
  /** The newest look inside the learner's network. */
  inspect: InspectRecord | null;
}

export interface MetricsSlice extends MetricsData {
  clearMetrics(): void;
  /** Apply a batch of records from the learner or a saved run (see applyRecords). */
  ingest(records: readonly IngestedRecord[]): void;
}

export interface RunsSlice {
  runs: RunMeta[];
  overlays: Overlay[];
  setRuns(runs: RunMeta[]): void;
  setOverlays(overlays: Overlay[]): void;
}

export interface NoticesSlice {
  notices: Notice[];
  /** The id the next notice gets (ids are never reused, so a dismiss never hits a newer notice). */
  nextNoticeId: number;
  notify(level: Notice['level'], message: string, details?: string[], action?: NoticeAction): void;
  dismiss(id: number): void;
}

export type PlaygroundState = ExperimentSlice & ViewSlice & RunSlice & MetricsSlice & RunsSlice & NoticesSlice;

export const MAX_POINTS = 2_000;
export const MAX_NOTICES = 5;
