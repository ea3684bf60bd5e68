/**
 * The worker side of a remote actor, shared by the browser host (`src/workers/actor.worker.ts`)
 * and the Node host (`src/workers/actor.node.ts`).
 *
 * Protocol: the caller sends `{__parl:'init', key, module?, args, name}`. The host imports
 * `module` if given (registering the actor classes it exports), looks `key` up in the registry, constructs the
 * class with `args`, `Comlink.expose`s the instance on the endpoint and answers
 * `{__parl:'ready', methods}`; a failure answers `{__parl:'init-error', error}`. The host answers
 * `{__parl:'ping', seq}` with `{__parl:'pong', seq}` at any time (the pool's heartbeat).
 */
import * as Comlink from 'comlink';
import { isControlMessage, type ControlMessage } from './endpoint';
import { serializeError } from './errors';
import { getActorClass, registerExportedActorClasses, registeredActorKeys } from './registry';
import { registerTransferHandlers } from './transfer';

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
  const post = (msg: ControlMessage, transfer: Transferable[] = []): void => ep.postMessage(msg, transfer);

  const onMessage = (ev: MessageEvent): void => {
    const data: unknown = ev.data;
    if (!isControlMessage(data)) return;
    if (data.__parl === 'ping') {
      post({ __parl: 'pong', seq: data.seq });
    } else if (data.__parl === 'init' && !initialized) {
      initialized = true;
      void init(data.key, data.module, data.args);
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
      Comlink.expose(instance, ep);
      post({ __parl: 'ready', methods: methodNames(instance) });
    } catch (err) {
      post({ __parl: 'init-error', error: serializeError(err) });
    }
  }

  ep.addEventListener('message', onMessage as EventListener);
  ep.start?.();
}
