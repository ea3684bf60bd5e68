/**
 * The warm-up of an actor worker started ahead of a run (see warmWorkerPool.ts): the caller asks
 * for the backend the actors will use, the worker sets it up and answers. Actor hosts ignore
 * these messages (they carry no `__parl` key), and comlink ignores them (no `id`).
 * Setting the backend up twice is harmless: the actor's own `chooseBackend` finds it active.
 */
import { activateBackend } from '../core/backend';

export interface WarmRequest {
  __parlWarm: 'backend';
  backend: 'wasm' | 'cpu';
  /** Where the app serves the tfjs wasm binaries (the learner's `wasmPaths`). */
  wasmPaths?: string;
}

export interface WarmReply {
  __parlWarm: 'ready';
  ok: boolean;
  detail: string;
}

export function isWarmRequest(data: unknown): data is WarmRequest {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Partial<WarmRequest>;
  return d.__parlWarm === 'backend' && (d.backend === 'wasm' || d.backend === 'cpu') && (d.wasmPaths === undefined || typeof d.wasmPaths === 'string');
}

export function isWarmReply(data: unknown): data is WarmReply {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Partial<WarmReply>;
  return d.__parlWarm === 'ready' && typeof d.ok === 'boolean' && typeof d.detail === 'string';
}

/** The part of a worker's global scope (or a port) the warm-up uses. */
export interface WarmScope {
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  postMessage(message: WarmReply): void;
}

/** Answers warm-up requests on `scope` (the actor worker's `self`). */
export function answerWarmRequests(scope: WarmScope, activate: typeof activateBackend = activateBackend): void {
  scope.addEventListener('message', (ev: MessageEvent) => {
    const data: unknown = ev.data;
    if (!isWarmRequest(data)) return;
    void activate(data.backend, data.wasmPaths).then(
      (attempt) => scope.postMessage({ __parlWarm: 'ready', ok: attempt.ok, detail: attempt.detail }),
      (err: unknown) => scope.postMessage({ __parlWarm: 'ready', ok: false, detail: err instanceof Error ? err.message : String(err) }),
    );
  });
}
