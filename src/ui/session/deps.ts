/** What a session is built from: the learner worker's client, the saved-runs database and the store. */
import type { StoreApi } from 'zustand';
import type { LearnerApi } from '../../workers/learnerProtocol';
import type { LearnerHandle } from '../../workers/learnerClient';
import type { RunStore } from '../../runs/runStore';
import type { PlaygroundState } from '../store';

/** LearnerApi as the page sees it across the worker boundary: every call returns a promise. */
export type RemoteLearnerApi = { [K in keyof LearnerApi]: (...args: Parameters<LearnerApi[K]>) => Promise<Awaited<ReturnType<LearnerApi[K]>>> };

/** The part of a LearnerHandle (workers/learnerClient.ts) a session uses; a LearnerHandle is one. */
export interface LearnerClient {
  api: RemoteLearnerApi;
  proxy: LearnerHandle['proxy'];
  terminate(): void;
}

/**
 * Starts the learner worker's client (`createLearner` in the page). Called on first use, and again
 * after the worker crashed; `onCrash` is how the worker says it has gone.
 */
export type StartLearner = (onCrash: (message: string) => void) => LearnerClient;

export interface RunStoreEvents {
  /** A tab with an older version holds the database open, and the open waits for it. */
  blocked(): void;
  /** A newer version opened in another tab and this connection closed; the next use opens again. */
  closed(): void;
}

/** Opens the saved-runs database (`RunStore.open`); null where the browser has no IndexedDB. */
export type OpenRunStore = (events: RunStoreEvents) => Promise<RunStore | null>;

export interface SessionTiming {
  /** How often a running run's new records are written to the database. */
  saveEveryMs: number;
  /** How long a Start waits for the saved-runs database before training unsaved. */
  storeWaitMs: number;
  /**
   * The learner sends batches about 10 times a second; the charts take them at most every
   * `ingestMs` (each ingest re-renders every chart on screen, and on a busy machine that is what
   * makes the page stutter).
   */
  ingestMs: number;
  /** How long a Start waits for a run stopped by a Reset to let go of the learner. */
  releaseWaitMs: number;
}

export const DEFAULT_TIMING: SessionTiming = { saveEveryMs: 1_000, storeWaitMs: 3_000, ingestMs: 250, releaseWaitMs: 10_000 };

export interface SessionDeps {
  learner: StartLearner;
  runStore: OpenRunStore;
  store: StoreApi<PlaygroundState>;
  timing?: Partial<SessionTiming>;
  /** Hands a file to the user (a download link in the page). */
  download?: (name: string, blob: Blob) => void;
}

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The statuses in which nothing is training, so a run can start or a saved one open. */
export function isAtRest(status: PlaygroundState['status']): boolean {
  return status === 'idle' || status === 'done' || status === 'error';
}
