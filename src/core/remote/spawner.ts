/**
 * Pluggable worker spawning. The remote layer asks the current {@link ActorSpawner} for a fresh
 * worker per actor. In Node the default is {@link nodeSpawner} (worker_threads); a browser app
 * installs `browserSpawner` from `src/workers/browserSpawner.ts` with {@link setActorSpawner}.
 *
 * Nothing here imports a `node:` module at top level, so the browser bundle can load this file.
 */
import type { Endpoint } from 'comlink';
import { nodeEndpoint } from './endpoint';

/** How a worker ended, as its platform reported it. */
export interface WorkerExit {
  reason: 'exit' | 'error' | 'messageerror';
  exitCode?: number;
  error?: Error;
}

/** One spawned worker, running the actor host. */
export interface SpawnedWorker {
  /** The caller's end of the worker's message channel. */
  readonly endpoint: Endpoint;
  /** Registers a listener for the worker's end (exit, uncaught error, messageerror). */
  onExit(listener: (exit: WorkerExit) => void): void;
  /** Stops the worker. Resolves once it is gone (Node) or at once (browser). */
  terminate(): Promise<void>;
}

export interface ActorSpawner {
  /** A short label, e.g. 'node-worker_threads' or 'web-worker'. */
  readonly kind: string;
  spawn(options: { name: string }): SpawnedWorker | Promise<SpawnedWorker>;
}

/** True when running under Node (main thread or a worker thread), false in browsers and Web Workers. */
export function isNodeRuntime(): boolean {
  return typeof process !== 'undefined' && typeof process.versions === 'object' && process.versions !== null && typeof process.versions.node === 'string';
}

// Kept as variables (not literals) so bundlers neither resolve them nor emit them as browser assets.
const WORKER_THREADS = 'node:worker_threads';
const HOST_FILE = '../../workers/actorHost.node.mjs';
const ENTRY_FILE = '../../workers/actor.node.ts';

/**
 * Spawns each actor in a Node `worker_threads` Worker. The worker file is a plain .mjs bootstrap
 * that registers tsx and then imports the TypeScript host (`src/workers/actor.node.ts`).
 */
export const nodeSpawner: ActorSpawner = {
  kind: 'node-worker_threads',
  async spawn({ name }) {
    const wt = (await import(/* @vite-ignore */ WORKER_THREADS)) as typeof import('node:worker_threads');
    const worker = new wt.Worker(new URL(HOST_FILE, import.meta.url), {
      name,
      workerData: { entry: new URL(ENTRY_FILE, import.meta.url).href },
    });
    const listeners: Array<(exit: WorkerExit) => void> = [];
    let ended: WorkerExit | undefined;
    const end = (exit: WorkerExit): void => {
      if (ended) return;
      ended = exit;
      for (const l of listeners) l(exit);
    };
    worker.on('error', (error: Error) => end({ reason: 'error', error }));
    worker.on('messageerror', (error: Error) => end({ reason: 'messageerror', error }));
    worker.on('exit', (exitCode: number) => end({ reason: 'exit', exitCode }));
    return {
      endpoint: nodeEndpoint(worker),
      onExit(listener) {
        if (ended) listener(ended);
        else listeners.push(listener);
      },
      async terminate() {
        await worker.terminate();
      },
    };
  },
};

let current: ActorSpawner | undefined;

/** Installs the spawner used by every later `create()` (e.g. `browserSpawner` in the app). */
export function setActorSpawner(spawner: ActorSpawner | undefined): void {
  current = spawner;
}

/** The installed spawner; in Node, {@link nodeSpawner} when none was installed. */
export function getActorSpawner(): ActorSpawner {
  if (current) return current;
  if (isNodeRuntime()) return nodeSpawner;
  throw new Error("no ActorSpawner installed: in the browser call setActorSpawner(browserSpawner) from 'src/workers/browserSpawner' first");
}
