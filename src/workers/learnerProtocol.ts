/**
 * What the page can ask of the learner Web Worker. The learner (tfjs on WebGPU when the browser
 * has it) and its actor workers run off the main thread; the page only renders.
 */
import type { ExperimentConfig } from '../config/config';
import type { LiveChange } from '../config/liveSettings';
import type { BackendRecord, GreedyEpisodeRecord, RunRecord, SummaryRecord } from '../runs/records';
import type { ClusterLearnerStatus, ClusterLearnOptions } from '../cluster/tabLearner';

export type { ClusterLearnerStatus, ClusterLearnOptions };

export interface StartOptions {
  /** Live changes to replay at their updates (a link's). */
  changes?: LiveChange[];
}

export interface LearnerApi {
  /**
   * Pick the learner's tfjs backend now (the page shows which and why). `actors`: how many actor
   * workers to start ahead of the next run (the page's experiment's; default: the QuickStart preset's).
   * `config`: the experiment whose learner "auto" measures (the page's; default: QuickStart with `actors`).
   */
  probe(preferred: ExperimentConfig['settings']['backend'], actors?: number, config?: ExperimentConfig): Promise<BackendRecord>;
  /**
   * Run an experiment to its end. Records arrive in batches, at most about 10 times a second;
   * the last batch has arrived when the returned promise settles.
   */
  start(config: ExperimentConfig, onRecords: (records: RunRecord[]) => void | Promise<void>, options?: StartOptions): Promise<SummaryRecord>;
  /**
   * Change a setting of the running experiment, applied before its next update (a 'change'
   * record follows). Rejects with the reason when it cannot change live or the value is out of range.
   */
  change(key: string, value: number | string | boolean): Promise<void>;
  pause(): void;
  resume(): void;
  step(): void;
  stop(): void;
  /** Crash actor `index`'s worker on purpose; the pool replaces it and the run goes on. */
  crashActor(index: number): Promise<void>;
  /** One greedy episode of a saved run's weights (a PARLCKPT file), for the environment view. */
  watch(config: ExperimentConfig, checkpoint: Uint8Array): Promise<GreedyEpisodeRecord>;
}

/**
 * The learner worker's cluster side (beside {@link LearnerApi}, on the same worker): the page's
 * Cluster panel reaches it through the learner handle's `cluster`.
 */
export interface ClusterLearnerApi {
  /**
   * Train the next runs with the cluster's actors (classroom mode's teacher): connects to the
   * cluster's WebSocket listener with the token, and every actor a run starts comes from the
   * cluster's hosts (other tabs, Node actor hosts). `onReport` gets what the cluster panel shows,
   * about once a second. Rejects while a run is in progress, or when the connection fails.
   */
  clusterLearn(options: ClusterLearnOptions, onReport: (report: ClusterLearnerStatus) => void): Promise<void>;
  /** Back to this tab's own Web Worker actors for the next runs; closes the cluster connection. */
  clusterLeave(): Promise<void>;
}

/**
 * Memory debug hook. A page opened with `?debug=memory` names its learner worker with
 * MEMORY_DEBUG_FLAG; that worker then answers 'memory?' (or 'memory after gc?', which collects
 * garbage first where Chromium runs with --js-flags=--expose-gc) on the BroadcastChannel
 * MEMORY_DEBUG_CHANNEL with a MemoryDebugRecord (`npm run bench -- soak` asks every 10 s).
 */
export const MEMORY_DEBUG_CHANNEL = 'parl-debug-memory';
export const MEMORY_DEBUG_FLAG = 'debug=memory';

/** The learner worker's name for a page whose query string is `search`. */
export function learnerWorkerName(search: string): string {
  return new URLSearchParams(search).get('debug') === 'memory' ? `learner ${MEMORY_DEBUG_FLAG}` : 'learner';
}

export interface MemoryDebugRecord {
  type: 'memory';
  /** performance.now() in the worker. */
  at: number;
  backend: string;
  /** tf.memory(): tensors and bytes tfjs tracks (numBytesInGPU etc. on webgpu). */
  tensors: number;
  dataBuffers: number;
  bytes: number;
  /** The webgpu backend's buffer manager and pipeline cache; null on other backends. */
  webgpu: {
    numUsedBuffers: number;
    numFreeBuffers: number;
    numBytesUsed: number;
    numBytesAllocated: number;
    /** Distinct buffer sizes the free pool holds (one pool per size and usage). */
    freePoolKeys: number;
    pipelines: number;
  } | null;
}
