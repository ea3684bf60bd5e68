/**
 * Endpoint helpers: a typed Node adapter (comlink's own `node-adapter.mjs` ships without a
 * declaration for its .mjs path) and a wrapper that de-duplicates transfer lists.
 */
import type { Endpoint } from 'comlink';

/** The part of a Node `Worker` / `MessagePort` the adapter needs. */
export interface NodeMessageTarget {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  on(event: 'message', listener: (data: unknown) => void): unknown;
  off(event: 'message', listener: (data: unknown) => void): unknown;
}

/** Adapts a Node `Worker` or `parentPort` to comlink's DOM-style Endpoint. */
export function nodeEndpoint(target: NodeMessageTarget): Endpoint {
  const listeners = new Map<EventListenerOrEventListenerObject, (data: unknown) => void>();
  return {
    postMessage(message: unknown, transfer?: Transferable[]) {
      send(() => target.postMessage(message, dedupe(transfer)));
    },
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      if (type !== 'message' || listeners.has(listener)) return;
      const wrapped = (data: unknown): void => {
        // comlink only reads `.data`; a MessageEvent-shaped object is enough.
        const ev = { data } as MessageEvent;
        if (typeof listener === 'function') listener(ev);
        else listener.handleEvent(ev);
      };
      listeners.set(listener, wrapped);
      target.on('message', wrapped);
    },
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      const wrapped = listeners.get(listener);
      if (type !== 'message' || wrapped === undefined) return;
      listeners.delete(listener);
      target.off('message', wrapped);
    },
  };
}

/**
 * Wraps a DOM-style endpoint (Worker, worker `self`) so duplicate entries in a transfer list
 * (the same buffer in two arguments) do not throw a DataCloneError.
 */
export function dedupingEndpoint(ep: Endpoint): Endpoint {
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => send(() => ep.postMessage(message, dedupe(transfer))),
    addEventListener: ep.addEventListener.bind(ep),
    removeEventListener: ep.removeEventListener.bind(ep),
    start: ep.start?.bind(ep),
  };
}

const localSendErrors = new WeakSet<object>();

/** True for an error thrown by postMessage on this side (e.g. DataCloneError), not by the actor. */
export function isLocalSendError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && localSendErrors.has(err);
}

function send(post: () => void): void {
  try {
    post();
  } catch (err) {
    if (typeof err === 'object' && err !== null) localSendErrors.add(err);
    throw err;
  }
}

function dedupe(transfer: Transferable[] | undefined): Transferable[] {
  if (!transfer || transfer.length < 2) return transfer ?? [];
  return [...new Set(transfer)];
}

/** The method every actor has, whatever its class: the worker host provides it (host.ts), and ActorControl.crash calls it. */
export const CRASH_METHOD = 'crash';

/** Internal control messages, next to comlink's own (they carry no `id`, so comlink ignores them). */
export type ControlMessage =
  | { __parl: 'init'; key: string; module?: string; args: unknown[]; name: string }
  | { __parl: 'ready'; methods: string[] }
  | { __parl: 'init-error'; error: { name: string; message: string; stack?: string } }
  | { __parl: 'ping'; seq: number }
  | { __parl: 'pong'; seq: number }
  /** Call `method` K times, one call after the other (the first with `first`, the others with `rest`: comlink wire values); answered as ONE comlink answer under `id` whose value is the K results. */
  | { __parl: 'repeat'; id: string; method: string; k: number; first: unknown[]; rest: unknown[] };

export function isControlMessage(data: unknown): data is ControlMessage {
  return typeof data === 'object' && data !== null && typeof (data as { __parl?: unknown }).__parl === 'string';
}
