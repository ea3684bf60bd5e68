/** The page's handle on the learner Web Worker (comlink only: the page never loads tfjs). */
import * as Comlink from 'comlink';
import { registerTransferHandlers } from '../core/remote/transfer';
import { learnerWorkerName, type ClusterLearnerApi, type LearnerApi } from './learnerProtocol';

// The worker sends typed arrays (checkpoint bytes) through comlink's typed-array handler; the page
// must know the handler to take them.
registerTransferHandlers();

export interface LearnerHandle {
  api: Comlink.Remote<LearnerApi>;
  /** The same worker's cluster side (the Cluster panel's). */
  cluster: Comlink.Remote<ClusterLearnerApi>;
  /** Records callback, wrapped so it can cross into the worker. */
  proxy<T extends (...args: never[]) => unknown>(fn: T): T;
  terminate(): void;
}

export function createLearner(onCrash: (message: string) => void): LearnerHandle {
  const worker = new Worker(new URL('./learner.worker.ts', import.meta.url), { type: 'module', name: learnerWorkerName(location.search) });
  worker.addEventListener('error', (ev) => {
    ev.preventDefault();
    onCrash(ev.message || 'the learner worker stopped unexpectedly');
  });
  const handle: LearnerHandle = {
    api: Comlink.wrap<LearnerApi>(worker),
    // A second comlink proxy on the same worker: answers are matched by id, so the two never mix.
    cluster: Comlink.wrap<ClusterLearnerApi>(worker),
    proxy: (fn) => Comlink.proxy(fn),
    terminate: () => worker.terminate(),
  };
  latest = handle;
  for (const w of [...watchers]) w(handle);
  return handle;
}

let latest: LearnerHandle | null = null;
const watchers = new Set<(handle: LearnerHandle) => void>();

/**
 * Calls `watch` with the page's learner worker now (when one is running) and with every one
 * started later (the session starts the first after the first paint, and a new one after a
 * crash), so the Cluster panel can set up the cluster link on it again. Returns the unsubscribe.
 */
export function watchLearners(watch: (handle: LearnerHandle) => void): () => void {
  watchers.add(watch);
  if (latest) watch(latest);
  return () => watchers.delete(watch);
}
