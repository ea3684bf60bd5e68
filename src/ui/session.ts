/**
 * Connects the store to the learner worker and to the saved runs: run control in, batched
 * records out, and every run written to IndexedDB as it goes. The worker is started once with
 * the page and probes its backend right away, so the page can say which backend training will
 * use before anything starts.
 */
import { createLearner, type LearnerHandle } from '../workers/learnerClient';
import type { CheckpointRecord, RunRecord } from '../runs/records';
import { exportRunFile, isPersisted, metricsCsv, parseRunFile, type PersistedRecord, type RunStatusKind } from '../runs/runFile';
import { RunStore } from '../runs/runStore';
import { getPreset } from '../config/presets';
import { meanReturnCurve, usePlayground } from './store';

let learner: LearnerHandle | null = null;
let storePromise: Promise<RunStore | null> | null = null;
/** Bumped on every start and reset, so records from an older run never reach the charts. */
let generation = 0;

const SAVE_EVERY_MS = 1_000;
/** How long a Start waits for the saved-runs database before training unsaved. */
const STORE_WAIT_MS = 3_000;
/**
 * The learner sends batches about 10 times a second; the charts take them at most 4 times a
 * second (each ingest re-renders every chart on screen, and on a busy machine that is what
 * makes the page stutter).
 */
const INGEST_MS = 250;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function handle(): LearnerHandle {
  if (!learner) {
    learner = createLearner((msg) => {
      const s = usePlayground.getState();
      s.notify('error', `The learner worker crashed: ${msg}. Your settings are kept; press Start to try again.`);
      s.setStatus('error');
      learner?.terminate();
      learner = null;
    });
  }
  return learner;
}

/** The saved-runs database, or null where this browser has no IndexedDB (runs are then not kept). */
export function runStore(): Promise<RunStore | null> {
  if (!storePromise) {
    const events = {
      blocked: () => usePlayground.getState().notify('warning', 'Saved runs are waiting for another tab of PARL Playground (an older version) to close or reload.'),
      closed: () => {
        storePromise = null;
        usePlayground.getState().notify('warning', 'A newer version of PARL Playground opened in another tab; reload this tab to keep saving runs.');
      },
    };
    storePromise = (typeof indexedDB === 'undefined' ? Promise.resolve(null) : RunStore.open(undefined, events)).catch((err: unknown) => {
      usePlayground.getState().notify('warning', `Runs will not be saved: IndexedDB is not available (${message(err)}).`);
      return null;
    });
  }
  return storePromise;
}

export async function refreshRuns(): Promise<void> {
  const store = await runStore();
  if (store) usePlayground.getState().setRuns(await store.list());
}

let probing: Promise<void> | null = null;

/** Asks the learner which backend it will use; one probe per page (later calls share it). */
export function probeBackend(): Promise<void> {
  if (probing) return probing;
  const s = usePlayground.getState();
  probing = (async () => {
    try {
      s.setBackend(await handle().api.probe(s.config.settings.backend));
    } catch (err) {
      s.notify('error', `Could not start tfjs: ${message(err)}`);
    }
  })();
  return probing;
}

function runName(preset: string, seed: number): string {
  const time = new Date().toLocaleTimeString('en-GB', { hour12: false });
  return `${getPreset(preset)?.name ?? preset} · seed ${seed} · ${time}`;
}

export async function startRun(): Promise<void> {
  const s = usePlayground.getState();
  if (!['idle', 'done', 'error'].includes(s.status)) return;
  const gen = ++generation;
  const config = s.config;
  s.clearMetrics();
  s.setStatus('starting');
  // A Start pressed before the first paint starts the probe itself; the run waits for it.
  await probeBackend();

  // Training never waits long on IndexedDB (another tab can hold it open): past that, it runs unsaved.
  const opened = await Promise.race([runStore(), new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), STORE_WAIT_MS))]);
  if (opened === 'late') usePlayground.getState().notify('warning', `This run will not be saved: the saved-runs database did not open within ${STORE_WAIT_MS / 1000} s.`);
  const store = opened === 'late' ? null : opened;
  let runId: string | null = null;
  let pending: PersistedRecord[] = [];
  let pendingWeights: CheckpointRecord | null = null;
  let saving = Promise.resolve();
  let saveFailed = false;
  const save = () => {
    if (!store || !runId || saveFailed || (pending.length === 0 && !pendingWeights)) return saving;
    const batch = pending;
    const weights = pendingWeights;
    const id = runId;
    pending = [];
    pendingWeights = null;
    saving = saving
      .then(async () => {
        if (batch.length > 0) await store.append(id, batch);
        if (weights) await store.saveWeights(id, { update: weights.update, envSteps: weights.envSteps, bytes: weights.bytes });
      })
      .then(refreshRuns)
      .catch((err: unknown) => {
        // Say it once; the run goes on, and the charts keep everything until the page closes.
        saveFailed = true;
        usePlayground.getState().notify('warning', `Could not save the run, so it is no longer being saved: ${message(err)}`);
      });
    return saving;
  };
  if (store) {
    try {
      runId = (await store.create(config, runName(config.preset, config.settings.seed))).id;
      usePlayground.getState().setCurrentRun(runId);
      void refreshRuns();
    } catch (err) {
      usePlayground.getState().notify('warning', `This run will not be saved: ${message(err)}`);
    }
  }
  const timer = setInterval(() => void save(), SAVE_EVERY_MS);

  let buffered: RunRecord[] = [];
  let ingestTimer: ReturnType<typeof setTimeout> | null = null;
  const ingest = () => {
    if (ingestTimer !== null) clearTimeout(ingestTimer);
    ingestTimer = null;
    const batch = buffered;
    buffered = [];
    if (gen !== generation || batch.length === 0) return;
    const st = usePlayground.getState();
    st.ingest(batch);
    if (st.status === 'starting' && batch.some((r) => r.type === 'update' || r.type === 'actors')) st.setStatus('running');
  };

  const h = handle();
  const onRecords = h.proxy((records: RunRecord[]) => {
    if (gen !== generation) return;
    for (const r of records) {
      // Weights go to the saved run only (the newest replaces older ones), never to the charts.
      if (r.type === 'checkpoint') pendingWeights = r;
      else {
        if (isPersisted(r)) pending.push(r);
        buffered.push(r);
      }
    }
    if (ingestTimer === null) ingestTimer = setTimeout(ingest, INGEST_MS);
  });
  let final: RunStatusKind = 'done';
  try {
    const summary = await h.api.start(config, onRecords);
    ingest();
    final = summary.stopReason === 'error' ? 'error' : summary.stopReason === 'stopped' ? 'stopped' : 'done';
    if (gen === generation) {
      const st = usePlayground.getState();
      st.setStatus(summary.stopReason === 'error' ? 'error' : 'done');
      if (summary.error) st.notify('error', summary.error);
    }
  } catch (err) {
    ingest();
    final = 'error';
    if (gen === generation) {
      const st = usePlayground.getState();
      st.setStatus('error');
      st.notify('error', `Training failed: ${message(err)}`);
    }
  } finally {
    clearInterval(timer);
    await save();
    if (store && runId) await store.setStatus(runId, final).catch(() => undefined);
    void refreshRuns();
  }
}

export function pauseRun(): void {
  void learner?.api.pause();
  // 'paused' comes from the learner once the update in flight has finished.
  usePlayground.getState().setStatus('pausing');
}

export function resumeRun(): void {
  void learner?.api.resume();
  usePlayground.getState().setStatus('running');
}

export function stepRun(): void {
  void learner?.api.step();
}

export function stopRun(): void {
  void learner?.api.stop();
  usePlayground.getState().setStatus('stopping');
}

/** Stop whatever runs and clear the charts; the settings stay. */
export function resetRun(): void {
  const s = usePlayground.getState();
  if (!['idle', 'done', 'error'].includes(s.status)) void learner?.api.stop();
  generation++;
  s.clearMetrics();
  s.setCurrentRun(null);
  s.setStatus('idle');
}

export async function crashActor(index: number): Promise<void> {
  const s = usePlayground.getState();
  if (!learner) return;
  try {
    s.notify('info', `Crashing actor ${index} on purpose: watch the pool replace it while training goes on.`);
    await learner.api.crashActor(index);
  } catch (err) {
    s.notify('warning', `Could not crash actor ${index}: ${message(err)}`);
  }
}

// ---- saved runs -------------------------------------------------------------------------------

function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadBlob(name: string, blob: Blob): void {
  download(name, blob);
}

function fileName(name: string, ext: string): string {
  return `${name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'run'}.${ext}`;
}

/** Show a saved run in the charts (when nothing is training). */
export async function openRun(id: string): Promise<void> {
  const s = usePlayground.getState();
  if (!['idle', 'done', 'error'].includes(s.status)) {
    s.notify('info', 'Stop the current run before opening another.');
    return;
  }
  const store = await runStore();
  const run = await store?.get(id);
  if (!run) return;
  generation++;
  s.clearMetrics();
  s.replaceConfig(run.config);
  s.ingest(run.records);
  s.setCurrentRun(id);
  s.setStatus(run.records.some((r) => r.type === 'summary') ? 'done' : 'idle');
}

export async function renameRun(id: string, name: string): Promise<void> {
  const store = await runStore();
  await store?.rename(id, name);
  await refreshRuns();
  const s = usePlayground.getState();
  s.setOverlays(s.overlays.map((o) => (o.id === id ? { ...o, name } : o)));
}

export async function deleteRun(id: string): Promise<void> {
  const store = await runStore();
  await store?.delete(id);
  const s = usePlayground.getState();
  s.setOverlays(s.overlays.filter((o) => o.id !== id));
  if (s.currentRunId === id) s.setCurrentRun(null);
  await refreshRuns();
}

export async function toggleOverlay(id: string): Promise<void> {
  const s = usePlayground.getState();
  if (s.overlays.some((o) => o.id === id)) {
    s.setOverlays(s.overlays.filter((o) => o.id !== id));
    return;
  }
  const store = await runStore();
  const run = await store?.get(id);
  if (!run) return;
  const now = usePlayground.getState();
  now.setOverlays([...now.overlays, { id, name: run.name, points: meanReturnCurve(run.records) }]);
}

export async function exportRun(id: string): Promise<void> {
  const store = await runStore();
  const run = await store?.get(id);
  if (run) download(fileName(run.name, 'json'), new Blob([exportRunFile(run)], { type: 'application/json' }));
}

/** Open a saved run and play one greedy episode of its newest weights in the environment view. */
export async function watchRun(id: string): Promise<void> {
  const store = await runStore();
  const weights = await store?.getWeights(id);
  if (!weights) return;
  await openRun(id);
  const s = usePlayground.getState();
  if (s.currentRunId !== id) return; // openRun refused (a run is in progress) and said why
  const gen = generation;
  try {
    // s.config is the run's own now. The bytes are a fresh copy from IndexedDB; sending them moves them.
    const demo = await handle().api.watch(s.config, weights.bytes);
    // A run started (or reset) meanwhile owns the view now.
    if (gen === generation) usePlayground.getState().ingest([demo]);
  } catch (err) {
    usePlayground.getState().notify('warning', `Could not play the saved weights: ${message(err)}`);
  }
}

/** Download a run's newest weights as a PARLCKPT file (loads with Agent.restore or loadCheckpointFile). */
export async function exportWeights(id: string): Promise<void> {
  const store = await runStore();
  const weights = await store?.getWeights(id);
  if (!weights) return;
  const name = usePlayground.getState().runs.find((r) => r.id === id)?.name ?? 'run';
  // Copy into a plain ArrayBuffer-backed array: a Blob takes that type only.
  download(fileName(`${name} update ${weights.update}`, 'parlckpt'), new Blob([new Uint8Array(weights.bytes)], { type: 'application/octet-stream' }));
}

export async function exportCsv(id: string): Promise<void> {
  const store = await runStore();
  const run = await store?.get(id);
  if (run) download(fileName(run.name, 'csv'), new Blob([metricsCsv(run)], { type: 'text/csv' }));
}

/** Import a run file; a bad one is refused with the reason and nothing is written. */
export async function importRunFile(file: File): Promise<void> {
  const s = usePlayground.getState();
  const parsed = parseRunFile(await file.text());
  if (!parsed.ok) {
    s.notify('error', `Refused ${file.name}: ${parsed.reason}`);
    return;
  }
  const store = await runStore();
  if (!store) {
    s.notify('error', 'Cannot import: this browser has no IndexedDB.');
    return;
  }
  const meta = await store.importRun(parsed.run);
  await refreshRuns();
  s.notify('info', `Imported "${meta.name}".`);
}
