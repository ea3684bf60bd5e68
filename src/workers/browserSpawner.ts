// Spawns remote actors as module Web Workers. Install once in the app:
//   setActorSpawner(browserSpawner)
// The learner worker also keeps a few started ahead of a run (`warmActorWorkers`): `spawn` hands
// out one of those first, so a run's actors need not wait for a worker's script and wasm.
import { firstExit, type ActorSpawner, type SpawnedWorker } from '../core/remote/spawner';
import { dedupingEndpoint } from '../core/remote/endpoint';
import { isWarmReply, type WarmRequest } from './actorWarmup';
import { WarmWorkerPool, type WarmingWorker } from './warmWorkerPool';

function spawnActorWorker(): { spawned: SpawnedWorker; worker: Worker } {
  // Keep this exact literal form: Vite detects it and bundles actor.worker.ts as a worker.
  const worker = new Worker(new URL('./actor.worker.ts', import.meta.url), { type: 'module' });
  const { end, onExit } = firstExit();
  worker.addEventListener('error', (ev: ErrorEvent) => {
    ev.preventDefault();
    const where = ev.filename ? ` (${ev.filename}:${ev.lineno}:${ev.colno})` : '';
    const error = ev.error instanceof Error ? ev.error : new Error(`${ev.message || 'uncaught error in actor worker'}${where}`);
    end({ reason: 'error', error });
  });
  worker.addEventListener('messageerror', () => end({ reason: 'messageerror', error: new Error('actor worker message could not be deserialized') }));
  const spawned: SpawnedWorker = {
    endpoint: dedupingEndpoint(worker),
    onExit,
    terminate() {
      worker.terminate();
      return Promise.resolve();
    },
  };
  return { spawned, worker };
}

/** Spawns a worker and asks it to set up the actors' backend; `warm` resolves with its answer, or rejects when it dies first. */
function spawnWarming(request: WarmRequest): WarmingWorker {
  const { spawned, worker } = spawnActorWorker();
  const warm = new Promise<void>((resolve, reject) => {
    const onMessage = (ev: MessageEvent): void => {
      if (!isWarmReply(ev.data)) return;
      worker.removeEventListener('message', onMessage);
      if (ev.data.ok) resolve();
      else reject(new Error(ev.data.detail));
    };
    worker.addEventListener('message', onMessage);
    spawned.onExit((exit) => reject(exit.error ?? new Error(`actor worker ended (${exit.reason})`)));
  });
  warm.catch(() => undefined);
  worker.postMessage(request);
  return { worker: spawned, warm };
}

let warmPool: WarmWorkerPool | null = null;
let warmRequest: WarmRequest = { __parlWarm: 'backend', backend: 'wasm' };

/**
 * Keeps `count` actor workers started and their tfjs backend (wasm, as the actors use in the
 * browser) set up, for the next run to take (bounded by the core count and 8). Call it when
 * nothing trains: the pool never refills while a run takes its workers.
 */
export function warmActorWorkers(count: number, wasmPaths: string | undefined): void {
  if (typeof Worker === 'undefined') return;
  warmRequest = { __parlWarm: 'backend', backend: 'wasm', ...(wasmPaths !== undefined ? { wasmPaths } : {}) };
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 8;
  warmPool ??= new WarmWorkerPool({ spawn: () => spawnWarming(warmRequest), maxIdle: Math.min(8, cores) });
  warmPool.fill(count);
}

/** Terminates the warm actor workers beyond `count` (0: all of them). */
export function coolActorWorkers(count = 0): void {
  warmPool?.shrink(count);
}

export const browserSpawner: ActorSpawner = {
  kind: 'web-worker',
  spawn(): SpawnedWorker {
    return warmPool?.take() ?? spawnActorWorker().spawned;
  },
};
