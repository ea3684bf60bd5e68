/**
 * The worker side of a remote actor, shared by the browser host (`src/workers/actor.worker.ts`)
 * and the Node host (`src/workers/actor.node.ts`).
 *
 * Protocol: the caller sends `{__parl:'init', key, module?, args, name}`. The host imports
 * `module` if given (registering the actor classes it exports), looks `key` up in the registry, constructs the
 * class with `args`, `Comlink.expose`s the instance on the endpoint and answers
 * `{__parl:'ready', methods}` (the class's methods, and `crash`, which the host gives every actor);
 * a failure answers `{__parl:'init-error', error}`. The host answers
 * `{__parl:'ping', seq}` with `{__parl:'pong', seq}` at any time (the pool's heartbeat).
 *
 * `{__parl:'repeat', id, method, k, first, rest}` (a cluster host's packed call) calls one of the
 * reported methods K times in a row and answers the K results as one comlink answer under `id`:
 * one message each way instead of K. It runs as K comlink calls would: each call gets its own copy
 * of its arguments, starts once the last one's result settled and was taken (transferred) from the
 * actor, and the first error ends it and is its answer.
 */
import * as Comlink from 'comlink';
import { CRASH_METHOD, isControlMessage, type ControlMessage } from './endpoint';
import { serializeError } from './errors';
import { getActorClass, registerExportedActorClasses, registeredActorKeys } from './registry';
import { collectTransferables, registerTransferHandlers, TRANSFER_HANDLER_NAME } from './transfer';

type RepeatMessage = Extract<ControlMessage, { __parl: 'repeat' }>;

/** Throw from a timer, outside any call, so that this worker dies (as an actor's own bug would kill it). */
function crashWorker(message: unknown = 'crash requested'): void {
  setTimeout(() => {
    throw new Error(typeof message === 'string' ? message : 'crash requested');
  });
}

/**
 * Gives `instance` a `crash(message)` method, so every actor class can be crashed on purpose (the
 * playground's "crash an actor" button, and tests) without each declaring one. A class's own
 * `crash` is kept.
 */
function provideCrash(instance: object): void {
  if (typeof (instance as Record<string, unknown>)[CRASH_METHOD] === 'function') return;
  Object.defineProperty(instance, CRASH_METHOD, { value: crashWorker, configurable: true, writable: true });
}

/** Method names callable on `obj`: own and inherited functions, minus Object.prototype's. */
export function methodNames(obj: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = obj; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const key of Object.getOwnPropertyNames(p)) {
      if (key === 'constructor') continue;
      const desc = Object.getOwnPropertyDescriptor(p, key);
      if (desc && typeof desc.value === 'function') names.add(key);
    }
  }
  return [...names];
}

export function runActorHost(ep: Comlink.Endpoint): void {
  registerTransferHandlers();
  let initialized = false;
  let actor: { instance: object; methods: ReadonlySet<string> } | undefined;
  const post = (msg: ControlMessage, transfer: Transferable[] = []): void => ep.postMessage(msg, transfer);

  const onMessage = (ev: MessageEvent): void => {
    const data: unknown = ev.data;
    if (!isControlMessage(data)) return;
    if (data.__parl === 'ping') {
      post({ __parl: 'pong', seq: data.seq });
    } else if (data.__parl === 'init' && !initialized) {
      initialized = true;
      void init(data.key, data.module, data.args);
    } else if (data.__parl === 'repeat' && typeof data.id === 'string') {
      void repeat(data);
    }
  };

  async function init(key: string, module: string | undefined, args: unknown[]): Promise<void> {
    try {
      // The module's actor classes register by the keys they declare (or by its own registerActorClass calls).
      if (module !== undefined) registerExportedActorClasses((await import(/* @vite-ignore */ module)) as Record<string, unknown>);
      const Cls = getActorClass(key);
      if (Cls === undefined) {
        throw new Error(`no actor class registered under key '${key}' in the worker (registered: ${registeredActorKeys().join(', ') || 'none'}); list its class in src/workers/actorClasses.ts or pass the 'module' option`);
      }
      // The registry stores classes as `new (...args: never[]) => object`; the args come from the caller.
      const instance = new (Cls as new (...a: unknown[]) => object)(...args);
      provideCrash(instance);
      const methods = methodNames(instance);
      actor = { instance, methods: new Set(methods) };
      Comlink.expose(instance, ep);
      post({ __parl: 'ready', methods });
    } catch (err) {
      post({ __parl: 'init-error', error: serializeError(err) });
    }
  }

  async function repeat({ id, method, k, first, rest }: RepeatMessage): Promise<void> {
    let answer: { type: 'RAW' | 'HANDLER'; name?: string; value: unknown };
    let transfer: ArrayBuffer[] = [];
    try {
      if (!actor) throw new Error('the actor is not constructed yet');
      if (!actor.methods.has(method)) throw new TypeError(`the actor has no method '${method}'`);
      if (!Number.isInteger(k) || k < 1) throw new RangeError(`a repeated call runs 1 or more times, not ${k}`);
      if (!Array.isArray(first) || !Array.isArray(rest)) throw new TypeError('a repeated call needs its argument lists');
      // methods holds only the instance's own and inherited functions (methodNames).
      const fn = (actor.instance as Record<string, (...args: unknown[]) => unknown>)[method];
      const results: unknown[] = [];
      for (let i = 0; i < k; i++) {
        const result = await fn.apply(actor.instance, fromWire(i === 0 ? first : structuredClone(rest)));
        // Taken from the actor now, as a single call's answer would be (its whole buffers moved, the rest copied).
        results.push(structuredClone(result, { transfer: collectTransferables(result) }));
      }
      transfer = collectTransferables(results);
      answer = transfer.length > 0 ? { type: 'HANDLER', name: TRANSFER_HANDLER_NAME, value: results } : { type: 'RAW', value: results };
    } catch (err) {
      answer = { type: 'HANDLER', name: 'throw', value: { isError: true, value: serializeError(err) } };
    }
    ep.postMessage({ ...answer, id }, transfer);
  }

  ep.addEventListener('message', onMessage as EventListener);
  ep.start?.();
}

/** Comlink wire values to arguments: plain values, or values holding typed arrays (the transfer handler's). */
function fromWire(list: unknown[]): unknown[] {
  return list.map((w) => {
    const wire = (typeof w === 'object' && w !== null ? w : {}) as { type?: unknown; name?: unknown; value?: unknown };
    if (wire.type === 'RAW') return wire.value;
    const handler = wire.type === 'HANDLER' && wire.name === TRANSFER_HANDLER_NAME ? Comlink.transferHandlers.get(TRANSFER_HANDLER_NAME) : undefined;
    if (!handler) throw new TypeError('a repeated call takes plain values and typed arrays only');
    return handler.deserialize(wire.value);
  });
}
