/**
 * Keeps a running run in the saved-runs database as it goes: its records in append-only chunks
 * about once a second, and the learner's newest weights (a newer checkpoint replaces one not yet
 * written). Saving never holds up training: a failed write is said once, and the run goes on
 * unsaved, with the charts keeping everything until the page closes.
 */
import type { CheckpointRecord, RunRecord } from '../../runs/records';
import { isPersisted, type PersistedRecord, type RunStatusKind } from '../../runs/runFile';
import type { RunStore } from '../../runs/runStore';
import type { ExperimentConfig } from '../../config/config';
import { message } from './deps';

export interface RunRecorder {
  /** The saved run's id, or null when this run is not being saved. */
  readonly runId: string | null;
  /** Queue a batch from the learner for the next write. */
  keep(records: readonly RunRecord[]): void;
  /** Write what is queued (after the writes already under way). */
  save(): Promise<void>;
  /** Write the rest and mark the saved run with how it ended (records kept after this are written at once). */
  finish(status: RunStatusKind): Promise<void>;
}

export interface RecorderOptions {
  db: RunStore | null;
  config: ExperimentConfig;
  name: string;
  saveEveryMs: number;
  /** After each write (the run list shows the new progress). */
  onSaved(): void;
  warn(text: string): void;
}

/** Creates the saved run (when there is a database) and starts writing to it every `saveEveryMs`. */
export async function startRecorder({ db, config, name, saveEveryMs, onSaved, warn }: RecorderOptions): Promise<RunRecorder> {
  let runId: string | null = null;
  if (db) {
    try {
      runId = (await db.create(config, name)).id;
    } catch (err) {
      warn(`This run will not be saved: ${message(err)}`);
    }
  }
  let pending: PersistedRecord[] = [];
  let pendingWeights: CheckpointRecord | null = null;
  let saving = Promise.resolve();
  let failed = false;
  let finished = false;

  const save = (): Promise<void> => {
    if (!db || !runId || failed || (pending.length === 0 && !pendingWeights)) return saving;
    const batch = pending;
    const weights = pendingWeights;
    const id = runId;
    pending = [];
    pendingWeights = null;
    saving = saving
      .then(async () => {
        if (batch.length > 0) await db.append(id, batch);
        if (weights) await db.saveWeights(id, { update: weights.update, envSteps: weights.envSteps, bytes: weights.bytes });
      })
      .then(onSaved)
      .catch((err: unknown) => {
        failed = true;
        warn(`Could not save the run, so it is no longer being saved: ${message(err)}`);
      });
    return saving;
  };
  const timer = runId ? setInterval(() => void save(), saveEveryMs) : undefined;

  return {
    runId,
    keep(records) {
      for (const r of records) {
        if (r.type === 'checkpoint') pendingWeights = r;
        else if (isPersisted(r)) pending.push(r);
      }
      // The worker's last records travel on their own port and can come after its reply that the
      // run is over (a page too busy to take them within the worker's wait): saved at once.
      if (finished) void save();
    },
    save,
    async finish(status) {
      clearInterval(timer);
      finished = true;
      await save();
      if (db && runId) await db.setStatus(runId, status).catch(() => undefined);
    },
  };
}
