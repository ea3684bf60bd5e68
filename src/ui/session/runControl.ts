/**
 * Running a run: start, pause, resume, step, stop, reset, crash an actor, and watch a saved run's
 * weights. `startRun` guards against the races the page can make:
 * - a Start before the first paint: the backend probe has not run yet; the run starts it and waits
 *   for it (the page's own probe after the paint shares it), so the two never race in the worker;
 * - a second Start while a run is starting or running: it does nothing;
 * - a Reset while a run is starting: that start gives up before the learner begins; a Start
 *   after a Reset mid-run waits for the old run to let go of the learner (it takes one at a time);
 * - a learner that crashes, during the probe or mid-run: the run ends as 'error' (saved so) and
 *   the next Start gets a new learner. (A run a reload cut off is marked 'interrupted' by the
 *   database when it opens; the new page starts from a fresh learner.)
 * Records of a run that a Reset or a newer run has replaced never reach the charts.
 */
import type { StoreApi } from 'zustand';
import type { ChangeRecord, RunRecord } from '../../runs/records';
import type { RunStatusKind } from '../../runs/runFile';
import { getPreset } from '../../config/presets';
import type { LiveChange, LiveValue } from '../../config/liveSettings';
import { experimentChanges } from '../store/liveChanges';
import type { PlaygroundState } from '../store';
import { isAtRest, message, type SessionTiming } from './deps';
import type { Generations } from './generations';
import { createIngestBuffer } from './ingestBuffer';
import { urgentRecords } from '../../workers/urgentRecords';
import type { LearnerLink } from './learnerLink';
import { startRecorder, type RunRecorder } from './runRecorder';
import type { RunStoreLink } from './runStoreLink';

export interface RunControl {
  probeBackend(): Promise<void>;
  /** Start the experiment in the store; resolves when the run has ended and is saved. */
  startRun(): Promise<void>;
  pauseRun(): void;
  resumeRun(): void;
  stepRun(): void;
  stopRun(): void;
  /** Stop whatever runs and clear the charts; the settings stay. */
  resetRun(): void;
  crashActor(index: number): Promise<void>;
  /**
   * Change a setting of the running experiment (one that can change live): the learner applies it
   * before its next update and says so with a 'change' record; a refusal becomes a notice.
   */
  changeSetting(key: string, value: LiveValue): Promise<void>;
  /** Open a saved run and play one greedy episode of its newest weights in the environment view. */
  watchRun(id: string): Promise<void>;
}

export interface RunControlParts {
  store: StoreApi<PlaygroundState>;
  learner: LearnerLink;
  runs: RunStoreLink;
  generations: Generations;
  timing: SessionTiming;
  openRun(id: string): Promise<void>;
}

function runName(preset: string, seed: number): string {
  const time = new Date().toLocaleTimeString('en-GB', { hour12: false });
  return `${getPreset(preset)?.name ?? preset} · seed ${seed} · ${time}`;
}

export function createRunControl({ store, learner, runs, generations, timing, openRun }: RunControlParts): RunControl {
  /** Settles when the newest run has let go of the learner. */
  let lastRun: Promise<void> = Promise.resolve();

  const startRun = async (): Promise<void> => {
    const s = store.getState();
    if (!isAtRest(s.status)) return;
    const gen = generations.next();
    const config = s.config;
    // The experiment is its config and its timed changes (a link's, or those a run applied): Start replays them.
    const changes = s.changes;
    s.clearMetrics();
    s.setStatus('starting');
    // Anything that took the status off 'starting' meanwhile (a Reset, a crashed learner) cancels this start.
    const stillStarting = () => generations.isCurrent(gen) && store.getState().status === 'starting';
    let released!: () => void;
    const previous = lastRun;
    lastRun = new Promise<void>((resolve) => (released = resolve));
    try {
      // A run stopped by a Reset may still be finishing in the worker, which takes one run at a time;
      // past a while, the worker says itself whether it is still busy.
      await Promise.race([previous, new Promise((resolve) => setTimeout(resolve, timing.releaseWaitMs))]);
      await learner.ready();
      if (!stillStarting()) return;
      // Training never waits long on IndexedDB (another tab can hold it open): past that, it runs unsaved.
      const opened = await runs.within(timing.storeWaitMs);
      if (opened === 'late') store.getState().notify('warning', `This run will not be saved: the saved-runs database did not open within ${timing.storeWaitMs / 1000} s.`);
      const recorder = await startRecorder({
        db: opened === 'late' ? null : opened,
        config,
        name: runName(config.preset, config.settings.seed),
        saveEveryMs: timing.saveEveryMs,
        onSaved: () => void runs.refresh(),
        warn: (text) => store.getState().notify('warning', text),
      });
      if (!stillStarting()) {
        await recorder.finish('stopped');
        await runs.refresh();
        return;
      }
      if (recorder.runId) {
        store.getState().setCurrentRun(recorder.runId);
        void runs.refresh();
      }
      await train(gen, config, recorder, changes);
    } finally {
      released();
    }
  };

  /** Runs `config` on the learner to its end, feeding the charts and the recorder; never throws. */
  const train = async (gen: number, config: PlaygroundState['config'], recorder: RunRecorder, changes: LiveChange[]): Promise<void> => {
    const current = () => generations.isCurrent(gen);
    const buffer = createIngestBuffer(timing.ingestMs, (batch) => {
      if (!current()) return;
      const st = store.getState();
      st.ingest(batch);
      keepChanges(config, batch);
      if (st.status === 'starting' && batch.some((r) => r.type === 'update' || r.type === 'actors')) st.setStatus('running');
    });
    const isUrgent = urgentRecords(config.settings['run.targetReturn'], { firstUpdate: false });
    const onRecords = (records: RunRecord[]) => {
      if (!current()) return;
      recorder.keep(records);
      let urgent = false;
      for (const r of records) if (isUrgent(r)) urgent = true;
      // Weights go to the saved run only (the newest replaces older ones), never to the charts.
      buffer.push(records.filter((r) => r.type !== 'checkpoint'), urgent);
    };
    let final: RunStatusKind = 'error';
    try {
      const client = learner.get();
      const outcome = await learner.whileAlive(client, client.api.start(config, client.proxy(onRecords), { changes }));
      buffer.flush();
      // A crash has been said, and the status set, by the learner link.
      if (outcome.ok) {
        const summary = outcome.value;
        final = summary.stopReason === 'error' ? 'error' : summary.stopReason === 'stopped' ? 'stopped' : 'done';
        if (current()) {
          const st = store.getState();
          st.setStatus(summary.stopReason === 'error' ? 'error' : 'done');
          if (summary.error) st.notify('error', summary.error);
        }
      }
    } catch (err) {
      buffer.flush();
      if (current()) {
        const st = store.getState();
        st.setStatus('error');
        st.notify('error', `Training failed: ${message(err)}`);
      }
    } finally {
      await recorder.finish(final);
      await runs.refresh();
    }
  };

  /** The changes a run applied become part of the experiment (its link, the next Start). */
  const keepChanges = (config: PlaygroundState['config'], records: readonly RunRecord[]): void => {
    const applied = records.filter((r): r is ChangeRecord => r.type === 'change');
    if (applied.length === 0) return;
    const st = store.getState();
    st.setChanges(experimentChanges(config, st.changes, applied));
  };

  const resetRun = (): void => {
    const s = store.getState();
    if (!isAtRest(s.status)) void learner.current()?.api.stop();
    generations.next();
    s.clearMetrics();
    s.setCurrentRun(null);
    s.setStatus('idle');
  };

  const crashActor = async (index: number): Promise<void> => {
    const s = store.getState();
    const client = learner.current();
    if (!client) return;
    try {
      s.notify('info', `Crashing actor ${index} on purpose: watch the pool replace it while training goes on.`);
      await learner.whileAlive(client, client.api.crashActor(index));
    } catch (err) {
      s.notify('warning', `Could not crash actor ${index}: ${message(err)}`);
    }
  };

  const changeSetting = async (key: string, value: LiveValue): Promise<void> => {
    const client = learner.current();
    if (!client || isAtRest(store.getState().status)) return;
    try {
      await learner.whileAlive(client, client.api.change(key, value));
    } catch (err) {
      store.getState().notify('warning', `Could not change this while training: ${message(err)}`);
    }
  };

  const watchRun = async (id: string): Promise<void> => {
    const db = await runs.get();
    const weights = await db?.getWeights(id);
    if (!weights) return;
    await openRun(id);
    const s = store.getState();
    if (s.currentRunId !== id) return; // openRun refused (a run is in progress) and said why
    const gen = generations.current();
    try {
      const client = learner.get();
      // s.config is the run's own now. The bytes are a fresh copy from IndexedDB; sending them moves them.
      const episode = await learner.whileAlive(client, client.api.watch(s.config, weights.bytes));
      // A run started (or reset) meanwhile owns the view now.
      if (episode.ok && generations.isCurrent(gen)) store.getState().ingest([episode.value]);
    } catch (err) {
      store.getState().notify('warning', `Could not play the saved weights: ${message(err)}`);
    }
  };

  return {
    probeBackend: learner.probe,
    startRun,
    pauseRun: () => {
      void learner.current()?.api.pause();
      // 'paused' comes from the learner once the update in flight has finished.
      store.getState().setStatus('pausing');
    },
    resumeRun: () => {
      void learner.current()?.api.resume();
      store.getState().setStatus('running');
    },
    stepRun: () => void learner.current()?.api.step(),
    stopRun: () => {
      void learner.current()?.api.stop();
      store.getState().setStatus('stopping');
    },
    resetRun,
    crashActor,
    changeSetting,
    watchRun,
  };
}
