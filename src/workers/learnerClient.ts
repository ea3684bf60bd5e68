/** The page's handle on the learner Web Worker (comlink only: the page never loads tfjs). */
import * as Comlink from 'comlink';
import { registerTransferHandlers } from '../core/remote/transfer';
import { learnerWorkerName, type LearnerApi } from './learnerProtocol';

// The worker sends typed arrays (checkpoint bytes) through comlink's typed-array handler; the page
// must know the handler to take them.
registerTransferHandlers();

export interface LearnerHandle {
  api: Comlink.Remote<LearnerApi>;
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
  return {
    api: Comlink.wrap<LearnerApi>(worker),
    proxy: (fn) => Comlink.proxy(fn),
    terminate: () => worker.terminate(),
  };
}
