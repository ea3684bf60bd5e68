/**
 * Runs saved in IndexedDB as they go, so a run survives a page reload. A run is one small meta
 * row (for the run list) plus its records in append-only chunks, so saving never rewrites the
 * whole run. A run still marked running when the store opens was cut off by a reload or a
 * crash: it becomes 'interrupted', with every chunk written before that kept. The learner's
 * newest weights (a PARLCKPT checkpoint) are kept beside the run, one per run.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { ExperimentConfigSchema, type ExperimentConfig } from '../config/config';
import { reviveConfig } from '../config/migrations';
import { LINK_VERSION } from '../config/urlState';
import { renameOldRecords, type PersistedRecord, type RunStatusKind, type RunWeights, type SavedRun } from './runFile';

export interface RunMeta {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  status: RunStatusKind;
  config: ExperimentConfig;
  /** Chunks written so far (the next chunk's sequence number). */
  chunks: number;
  envSteps: number;
  updates: number;
  finalMeanReturn20: number | null;
  /** The kept weights, if any: the update they are from and the file's size in bytes. */
  weights?: { update: number; envSteps: number; size: number };
  /** The link version whose names the config uses; absent in runs saved before version 4 (then 1: as old as can be). */
  linkVersion?: number;
}

interface Chunk {
  runId: string;
  seq: number;
  records: PersistedRecord[];
}

interface RunsDb extends DBSchema {
  runs: { key: string; value: RunMeta };
  chunks: { key: [string, number]; value: Chunk; indexes: { runId: string } };
  weights: { key: string; value: RunWeights & { runId: string } };
}

export const RUNS_DB_NAME = 'parl-playground-runs';

/**
 * This browser keeps no runs: it has no IndexedDB (some private modes, some embedded views), or
 * opening it failed. The page should say that runs will not be saved rather than promise to.
 */
export class RunStoreUnavailableError extends Error {
  constructor(detail: string) {
    super(`Runs will not be saved in this browser: ${detail}.`);
    this.name = 'RunStoreUnavailableError';
  }
}

/** Null where runs can be saved here, or why they cannot (for the runs panel's notice). */
export function runStoreUnavailable(): RunStoreUnavailableError | null {
  return typeof indexedDB === 'undefined' ? new RunStoreUnavailableError('IndexedDB is not available') : null;
}

/** An imported run could not be saved; nothing was written. */
export class RunImportError extends Error {
  constructor(name: string, cause: unknown) {
    super(`Could not save the imported run "${name.slice(0, 80)}" (nothing was written): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RunImportError';
  }
}

function newId(): string {
  // crypto.randomUUID is only in secure contexts; the fallback is unique enough for local ids.
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function progressOf(records: readonly PersistedRecord[], meta: Pick<RunMeta, 'envSteps' | 'updates' | 'finalMeanReturn20'>) {
  const out = { envSteps: meta.envSteps, updates: meta.updates, finalMeanReturn20: meta.finalMeanReturn20 };
  for (const r of records) {
    if (r.type === 'update') {
      out.envSteps = r.envSteps;
      out.updates = r.update;
      if (r.meanReturn20 !== null) out.finalMeanReturn20 = r.meanReturn20;
    } else if (r.type === 'summary') {
      out.envSteps = r.envSteps;
      out.updates = r.updates;
      out.finalMeanReturn20 = r.finalMeanReturn20;
    }
  }
  return out;
}

type RunsTransaction = IDBPTransaction<RunsDb, ['runs', 'chunks', 'weights'], 'readwrite'>;

function weightsSummary(w: RunWeights): NonNullable<RunMeta['weights']> {
  return { update: w.update, envSteps: w.envSteps, size: w.bytes.byteLength };
}

export class RunStore {
  private constructor(private readonly db: IDBPDatabase<RunsDb>) {}

  /**
   * Open (or create) the store, marking runs cut off by a reload as interrupted. `blocked`: a tab
   * with an older version holds the database open, and this open waits for it. `closed`: a newer
   * version opened in another tab, and this connection has closed to let it upgrade.
   */
  static async open(name = RUNS_DB_NAME, events: { blocked?: () => void; closed?: () => void } = {}): Promise<RunStore> {
    const unavailable = runStoreUnavailable();
    if (unavailable) throw unavailable;
    const db = await openDB<RunsDb>(name, 2, {
      upgrade(d, oldVersion) {
        if (oldVersion < 1) {
          d.createObjectStore('runs', { keyPath: 'id' });
          const chunks = d.createObjectStore('chunks', { keyPath: ['runId', 'seq'] });
          chunks.createIndex('runId', 'runId');
        }
        // Version 2 keeps each run's newest weights; runs saved before it simply have none.
        if (oldVersion < 2) d.createObjectStore('weights', { keyPath: 'runId' });
      },
      blocked() {
        events.blocked?.();
      },
      blocking() {
        db.close();
        events.closed?.();
      },
      terminated() {
        events.closed?.();
      },
    });
    const store = new RunStore(db);
    const tx = db.transaction('runs', 'readwrite');
    for (const meta of await tx.store.getAll()) {
      if (meta.status === 'running') await tx.store.put({ ...meta, status: 'interrupted' });
    }
    await tx.done;
    return store;
  }

  close(): void {
    this.db.close();
  }

  /** Start a new run record. */
  async create(config: ExperimentConfig, name: string, now = Date.now()): Promise<RunMeta> {
    const meta: RunMeta = { id: newId(), name, createdAt: now, updatedAt: now, status: 'running', config, chunks: 0, envSteps: 0, updates: 0, finalMeanReturn20: null, linkVersion: LINK_VERSION };
    await this.db.put('runs', meta);
    return meta;
  }

  /** Append records to a run (one chunk) and update its progress in the list. */
  async append(runId: string, records: PersistedRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.changeRun(runId, async (meta, tx) => {
      await tx.objectStore('chunks').put({ runId, seq: meta.chunks, records });
      return { ...meta, ...progressOf(records, meta), chunks: meta.chunks + 1, updatedAt: Date.now() };
    });
  }

  /** Keep a run's newest weights (replacing older ones) and note them in the run list. */
  async saveWeights(runId: string, weights: RunWeights): Promise<void> {
    await this.changeRun(runId, async (meta, tx) => {
      await tx.objectStore('weights').put({ runId, ...weights });
      return { ...meta, weights: weightsSummary(weights) };
    });
  }

  /** Write beside a run and update its list row, in one transaction; throws for an unknown run. */
  private async changeRun(runId: string, change: (meta: RunMeta, tx: RunsTransaction) => Promise<RunMeta>): Promise<void> {
    const tx = this.db.transaction(['runs', 'chunks', 'weights'], 'readwrite');
    const runs = tx.objectStore('runs');
    const meta = await runs.get(runId);
    if (!meta) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new Error(`no run ${runId}`);
    }
    await runs.put(await change(meta, tx));
    await tx.done;
  }

  /** A run's newest weights, or undefined when it has none. */
  async getWeights(runId: string): Promise<RunWeights | undefined> {
    const row = await this.db.get('weights', runId);
    return row && { update: row.update, envSteps: row.envSteps, bytes: row.bytes };
  }

  // Both read and write the row in one transaction, so a save landing in between is never undone.
  async setStatus(runId: string, status: RunStatusKind): Promise<void> {
    await this.changeRun(runId, async (meta) => ({ ...meta, status, updatedAt: Date.now() }));
  }

  async rename(runId: string, name: string): Promise<void> {
    await this.changeRun(runId, async (meta) => ({ ...meta, name: name.slice(0, 200) }));
  }

  async delete(runId: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'chunks', 'weights'], 'readwrite');
    await tx.objectStore('runs').delete(runId);
    await tx.objectStore('weights').delete(runId);
    const chunks = tx.objectStore('chunks');
    for (const key of await chunks.index('runId').getAllKeys(runId)) await chunks.delete(key);
    await tx.done;
  }

  /** Every run, newest first. */
  async list(): Promise<RunMeta[]> {
    const all = await this.db.getAll('runs');
    return all.map(revived).sort((a, b) => b.createdAt - a.createdAt);
  }

  /** A run with all its records, in the order they were written, and its weights if kept. */
  async get(runId: string): Promise<SavedRun | undefined> {
    const stored = await this.db.get('runs', runId);
    if (!stored) return undefined;
    const meta = revived(stored);
    const chunks = await this.db.getAllFromIndex('chunks', 'runId', runId);
    chunks.sort((a, b) => a.seq - b.seq);
    const weights = await this.getWeights(runId);
    return {
      id: meta.id,
      name: meta.name,
      createdAt: meta.createdAt,
      status: meta.status,
      config: meta.config,
      records: renameOldRecords(chunks.flatMap((c) => c.records)),
      ...(weights ? { weights } : {}),
    };
  }

  /**
   * Save an imported run, all or nothing: one transaction, aborted on any failure (a record the
   * browser cannot store, a full disk), so no half-saved run is ever listed and nothing else in
   * the store changes; the failure is a RunImportError saying so. The run gets a new id when one
   * with its id exists, so nothing is overwritten.
   */
  async importRun(run: SavedRun): Promise<RunMeta> {
    const tx = this.db.transaction(['runs', 'chunks', 'weights'], 'readwrite');
    try {
      const meta = await this.writeImport(run, tx);
      await tx.done;
      return meta;
    } catch (err) {
      try {
        tx.abort();
      } catch {
        // Already finished or aborted by the failure itself.
      }
      await tx.done.catch(() => undefined);
      throw new RunImportError(run.name, err);
    }
  }

  private async writeImport(run: SavedRun, tx: RunsTransaction): Promise<RunMeta> {
    const taken = await tx.objectStore('runs').get(run.id);
    const id = taken ? newId() : run.id;
    const status: RunStatusKind = run.status === 'running' ? 'interrupted' : run.status;
    const meta: RunMeta = {
      id,
      name: run.name,
      createdAt: run.createdAt,
      updatedAt: Date.now(),
      status,
      config: run.config,
      chunks: 1,
      ...progressOf(run.records, { envSteps: 0, updates: 0, finalMeanReturn20: null }),
      ...(run.weights ? { weights: weightsSummary(run.weights) } : {}),
      // An imported run's config was revived to today's names when its file was read.
      linkVersion: LINK_VERSION,
    };
    // Records first: they are what can fail to clone, and then no row was even attempted.
    await tx.objectStore('chunks').put({ runId: id, seq: 0, records: run.records });
    if (run.weights) await tx.objectStore('weights').put({ runId: id, ...run.weights });
    await tx.objectStore('runs').put(meta);
    return meta;
  }
}

/**
 * A run saved by an older version, with its config made whole (renamed keys, settings added since);
 * one whose config cannot be revived keeps what it had, for the page to show and refuse to run.
 */
function revived(meta: RunMeta): RunMeta {
  const parsed = ExperimentConfigSchema.safeParse(reviveConfig(meta.config, [], meta.linkVersion ?? 1));
  // The schema has just checked every setting against its kind and range.
  return parsed.success ? { ...meta, config: parsed.data as ExperimentConfig, linkVersion: LINK_VERSION } : meta;
}
