/**
 * A session connects the store to the learner worker and to the saved runs: run control in,
 * batched records out, and every run written to IndexedDB as it goes. It has two halves:
 * running a run (session/runControl.ts) and managing saved runs (session/savedRuns.ts).
 *
 * The page makes one at start-up (main.tsx) and components reach it with `useSession()`. The
 * learner worker starts after the first paint and probes its backend right away, so the page can
 * say which backend training will use before anything starts. Tests build their own session
 * from a fake learner, a database in fake-indexeddb and a fresh store.
 */
import { RunStore } from '../runs/runStore';
import { DEFAULT_TIMING, type RunStoreEvents, type SessionDeps } from './session/deps';
import { downloadBlob } from './session/download';
import { createGenerations } from './session/generations';
import { createLearnerLink } from './session/learnerLink';
import { createRunControl, type RunControl } from './session/runControl';
import { createRunStoreLink } from './session/runStoreLink';
import { createSavedRuns, type SavedRuns } from './session/savedRuns';

export type Session = RunControl & SavedRuns;
export type { LearnerClient, OpenRunStore, SessionDeps, SessionTiming, StartLearner } from './session/deps';
export { SessionContext, useSession } from './session/context';

export function createSession({ learner, runStore, store, timing, download = downloadBlob }: SessionDeps): Session {
  const generations = createGenerations();
  const runs = createRunStoreLink(runStore, store);
  const saved = createSavedRuns({ store, runs, generations, download });
  const control = createRunControl({
    store,
    learner: createLearnerLink(learner, store),
    runs,
    generations,
    timing: { ...DEFAULT_TIMING, ...timing },
    openRun: saved.openRun,
  });
  return { ...control, ...saved };
}

/** The browser's saved-runs database, or null where this browser has no IndexedDB. */
export function openBrowserRunStore(events: RunStoreEvents): Promise<RunStore | null> {
  // Without IndexedDB, RunStore.open rejects with RunStoreUnavailableError; the run-store link says so once.
  return RunStore.open(undefined, events);
}
