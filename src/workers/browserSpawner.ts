// Spawns remote actors as module Web Workers. Install once in the app:
//   setActorSpawner(browserSpawner)
import type { ActorSpawner, SpawnedWorker, WorkerExit } from '../core/remote/spawner';
import { dedupingEndpoint } from '../core/remote/endpoint';

export const browserSpawner: ActorSpawner = {
  kind: 'web-worker',
  spawn(): SpawnedWorker {
    // Keep this exact literal form: Vite detects it and bundles actor.worker.ts as a worker.
    const worker = new Worker(new URL('./actor.worker.ts', import.meta.url), { type: 'module' });
    const listeners: Array<(exit: WorkerExit) => void> = [];
    let ended: WorkerExit | undefined;
    const end = (exit: WorkerExit): void => {
      if (ended) return;
      ended = exit;
      for (const l of listeners) l(exit);
    };
    worker.addEventListener('error', (ev: ErrorEvent) => {
      ev.preventDefault();
      const where = ev.filename ? ` (${ev.filename}:${ev.lineno}:${ev.colno})` : '';
      const error = ev.error instanceof Error ? ev.error : new Error(`${ev.message || 'uncaught error in actor worker'}${where}`);
      end({ reason: 'error', error });
    });
    worker.addEventListener('messageerror', () => end({ reason: 'messageerror', error: new Error('actor worker message could not be deserialized') }));
    return {
      endpoint: dedupingEndpoint(worker),
      onExit(listener) {
        if (ended) listener(ended);
        else listeners.push(listener);
      },
      terminate() {
        worker.terminate();
        return Promise.resolve();
      },
    };
  },
};
