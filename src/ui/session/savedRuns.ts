/**
 * Managing saved runs: list, open in the charts, rename, delete, overlay, export (JSON, CSV,
 * weights) and import. Works on the database the session opened; where there is none, each
 * action does nothing (import says why).
 */
import type { StoreApi } from 'zustand';
import { exportRunFile, metricsCsv, parseRunFile } from '../../runs/runFile';
import { RunImportError } from '../../runs/runStore';
import type { ChangeRecord } from '../../runs/records';
import type { RunWeights } from '../../runs/runFile';
import { experimentChanges } from '../store/liveChanges';
import { meanReturnCurve, type PlaygroundState } from '../store';
import { isAtRest, message } from './deps';
import { fileName } from './download';
import type { Generations } from './generations';
import type { RunStoreLink } from './runStoreLink';

export interface SavedRuns {
  /** Reload the saved-runs list. */
  refreshRuns(): Promise<void>;
  /** Show a saved run in the charts (when nothing is training). */
  openRun(id: string): Promise<void>;
  renameRun(id: string, name: string): Promise<void>;
  /** Delete a run; a notice offers Undo for some seconds. */
  deleteRun(id: string): Promise<void>;
  /** Draw a saved run's mean return over the live chart, or stop drawing it. */
  toggleOverlay(id: string): Promise<void>;
  exportRun(id: string): Promise<void>;
  exportCsv(id: string): Promise<void>;
  /** Download a run's newest weights as a PARLCKPT file (loads with Agent.restore or loadCheckpointFile). */
  exportWeights(id: string): Promise<void>;
  /** A run's newest weights as stored (a fresh copy), or undefined when it has none. */
  savedWeights(id: string): Promise<RunWeights | undefined>;
  /** Import a run file; a bad one is refused with the reason and nothing is written. */
  importRunFile(file: File): Promise<void>;
}

export interface SavedRunsParts {
  store: StoreApi<PlaygroundState>;
  runs: RunStoreLink;
  generations: Generations;
  download(name: string, blob: Blob): void;
}

export function createSavedRuns({ store, runs, generations, download }: SavedRunsParts): SavedRuns {
  const openRun = async (id: string): Promise<void> => {
    const s = store.getState();
    if (!isAtRest(s.status)) {
      s.notify('info', 'Stop the current run before opening another.');
      return;
    }
    const run = await (await runs.get())?.get(id);
    if (!run) return;
    generations.next();
    s.clearMetrics();
    s.replaceConfig(run.config);
    s.ingest(run.records);
    // A saved run's live changes are part of its experiment: its link and a new Start replay them.
    s.setChanges(experimentChanges(run.config, [], run.records.filter((r): r is ChangeRecord => r.type === 'change')));
    s.setCurrentRun(id);
    s.setStatus(run.records.some((r) => r.type === 'summary') ? 'done' : 'idle');
  };

  const renameRun = async (id: string, name: string): Promise<void> => {
    await (await runs.get())?.rename(id, name);
    await runs.refresh();
    const s = store.getState();
    s.setOverlays(s.overlays.map((o) => (o.id === id ? { ...o, name } : o)));
  };

  /**
   * Delete a run, keeping it whole in memory (records, weights, name, config) while a notice
   * offers Undo; Undo writes it back under its own id, overlaid again if it was.
   */
  const deleteRun = async (id: string): Promise<void> => {
    const db = await runs.get();
    if (!db) return;
    const kept = await db.get(id);
    await db.delete(id);
    const s = store.getState();
    const overlaid = s.overlays.find((o) => o.id === id);
    const wasCurrent = s.currentRunId === id;
    s.setOverlays(s.overlays.filter((o) => o.id !== id));
    if (s.currentRunId === id) s.setCurrentRun(null);
    await runs.refresh();
    if (!kept) return;
    const undo = async () => {
      try {
        await db.importRun(kept);
      } catch (err) {
        store.getState().notify('error', `Could not bring back "${kept.name}": ${message(err)}`);
        return;
      }
      await runs.refresh();
      const now = store.getState();
      if (overlaid && !now.overlays.some((o) => o.id === id)) now.setOverlays([...now.overlays, overlaid]);
      if (wasCurrent && now.currentRunId === null && isAtRest(now.status)) now.setCurrentRun(id);
    };
    s.notify('info', `Deleted "${kept.name}".`, undefined, { label: 'Undo', run: () => void undo() });
  };

  const toggleOverlay = async (id: string): Promise<void> => {
    const s = store.getState();
    if (s.overlays.some((o) => o.id === id)) {
      s.setOverlays(s.overlays.filter((o) => o.id !== id));
      return;
    }
    const run = await (await runs.get())?.get(id);
    if (!run) return;
    const now = store.getState();
    now.setOverlays([...now.overlays, { id, name: run.name, points: meanReturnCurve(run.records) }]);
  };

  const exportRun = async (id: string): Promise<void> => {
    const run = await (await runs.get())?.get(id);
    if (run) download(fileName(run.name, 'json'), new Blob([exportRunFile(run)], { type: 'application/json' }));
  };

  const exportCsv = async (id: string): Promise<void> => {
    const run = await (await runs.get())?.get(id);
    if (run) download(fileName(run.name, 'csv'), new Blob([metricsCsv(run)], { type: 'text/csv' }));
  };

  const exportWeights = async (id: string): Promise<void> => {
    const weights = await (await runs.get())?.getWeights(id);
    if (!weights) return;
    const name = store.getState().runs.find((r) => r.id === id)?.name ?? 'run';
    // Copy into a plain ArrayBuffer-backed array: a Blob takes that type only.
    download(fileName(`${name} update ${weights.update}`, 'parlckpt'), new Blob([new Uint8Array(weights.bytes)], { type: 'application/octet-stream' }));
  };

  const importRunFile = async (file: File): Promise<void> => {
    const s = store.getState();
    const parsed = parseRunFile(await file.text());
    if (!parsed.ok) {
      s.notify('error', `Refused ${file.name}: ${parsed.reason}`);
      return;
    }
    const db = await runs.get();
    if (!db) {
      s.notify('error', 'Cannot import: this browser has no IndexedDB.');
      return;
    }
    try {
      const meta = await db.importRun(parsed.run);
      const left = (parsed.ignored ?? []).map((p) => `${p.field} (${p.reason})`);
      s.notify('info', `Imported "${meta.name}".${left.length > 0 ? ` Ignored: ${left.join('; ')}.` : ''}`);
    } catch (err) {
      // importRun is all or nothing: nothing was written, every other saved run is as it was.
      s.notify('error', err instanceof RunImportError ? err.message : `Could not import ${file.name}: ${message(err)}`);
    }
    await runs.refresh();
  };

  return { refreshRuns: runs.refresh, openRun, renameRun, deleteRun, toggleOverlay, exportRun, exportCsv, exportWeights, savedWeights: async (id) => (await runs.get())?.getWeights(id), importRunFile };
}
