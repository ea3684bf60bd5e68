/**
 * Pluggable worker spawning. The remote layer asks the current {@link ActorSpawner} for a fresh
 * worker per actor. The platform installs one with {@link setActorSpawner} and names the worker's
 * files: in Node `nodeActorSpawner` (src/cli/nodePlatform.ts, worker_threads, built with
 * {@link nodeWorkerSpawner}), in the browser `browserSpawner` (src/workers/browserSpawner.ts).
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

// Kept as a variable (not a literal) so bundlers neither resolve it nor emit it as a browser asset.
const WORKER_THREADS = 'node:worker_threads';

/** Where a Node actor worker starts: a plain .mjs bootstrap and the host module it imports. */
export interface NodeWorkerFiles {
  /** The worker file (e.g. src/workers/actorHost.node.mjs): it must import `workerData.entry`. */
  host: URL;
  /** The actor host module (e.g. src/workers/actor.node.ts), as a file URL. */
  entry: URL;
}

/**
 * Spawns each actor in a Node `worker_threads` Worker started from `files.host`, which imports
 * `files.entry` (passed as `workerData.entry`). The platform names the files
 * (src/cli/nodePlatform.ts); core knows no path.
 */
export function nodeWorkerSpawner(files: NodeWorkerFiles): ActorSpawner {
  return {
    kind: 'node-worker_threads',
    async spawn({ name }) {
      const wt = (await import(/* @vite-ignore */ WORKER_THREADS)) as typeof import('node:worker_threads');
      const worker = new wt.Worker(files.host, { name, workerData: { entry: files.entry.href } });
      const { end, onExit } = firstExit();
      worker.on('error', (error: Error) => end({ reason: 'error', error }));
      worker.on('messageerror', (error: Error) => end({ reason: 'messageerror', error }));
      worker.on('exit', (exitCode: number) => end({ reason: 'exit', exitCode }));
      return {
        endpoint: nodeEndpoint(worker),
        onExit,
        async terminate() {
          await worker.terminate();
        },
      };
    },
  };
}

/** A worker's first exit, told to every listener, also to one added after it (later exits are ignored). */
export function firstExit(): { end(exit: WorkerExit): void; onExit(listener: (exit: WorkerExit) => void): void } {
  const listeners: Array<(exit: WorkerExit) => void> = [];
  let ended: WorkerExit | undefined;
  return {
    end(exit) {
      if (ended) return;
      ended = exit;
      for (const l of listeners) l(exit);
    },
    onExit(listener) {
      if (ended) listener(ended);
      else listeners.push(listener);
    },
  };
}

let current: ActorSpawner | undefined;

/** Installs the spawner used by every later `create()` (e.g. `browserSpawner` in the app). */
export function setActorSpawner(spawner: ActorSpawner | undefined): void {
  current = spawner;
}

/** The installed spawner (the platform installs one: src/cli/nodePlatform.ts, src/workers/learner.worker.ts). */
export function getActorSpawner(): ActorSpawner {
  if (current) return current;
  throw new Error(
    isNodeRuntime()
      ? "no ActorSpawner installed: import 'src/cli/nodePlatform' (it installs nodeActorSpawner) or call setActorSpawner(nodeWorkerSpawner({ host, entry }))"
      : "no ActorSpawner installed: call setActorSpawner(browserSpawner) from 'src/workers/browserSpawner' first",
  );
}
