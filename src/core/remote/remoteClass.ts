/**
 * `remoteClass`: PaddlePaddle PARL's `@parl.remote_class`, on comlink. Each `create()` runs one
 * instance of the class in its own worker (a Web Worker in the browser, a worker thread in Node)
 * and returns a {@link RemoteActor} whose methods all return promises.
 *
 *     const Rollout = remoteClass(RolloutActor);            // RolloutActor declares its actorKey
 *     const actor = await Rollout.create({ seed: 1 });      // constructor runs in the worker
 *     const seg = await actor.sampleSegment(128);           // a promise, always
 *     await actor.terminate();
 *
 * Every call is raced against the actor's death, so a crash, `process.exit`, an uncaught error or
 * `terminate()` rejects pending calls with {@link ActorDiedError} instead of hanging (comlink alone
 * would leave them pending forever). Errors thrown by the actor come back as
 * {@link RemoteActorError}, with the remote stack.
 */
import * as Comlink from 'comlink';
import { CRASH_METHOD, isControlMessage, isLocalSendError } from './endpoint';
import { ActorCallTimeoutError, ActorDiedError, RemoteActorError, type ActorDeath, type ActorDeathReason, type SerializedError } from './errors';
import { getActorKey, type ActorClass } from './registry';
import { getActorSpawner, type ActorSpawner, type SpawnedWorker } from './spawner';
import { collectTransferables, registerTransferHandlers } from './transfer';

registerTransferHandlers();

/** Keys of T whose values are functions, as strings. */
export type MethodKeys<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;
export type MethodArgs<T, K extends MethodKeys<T>> = T[K] extends (...args: infer A) => unknown ? A : never;
export type MethodResult<T, K extends MethodKeys<T>> = T[K] extends (...args: never[]) => infer R ? Awaited<R> : never;
/** Every method of T, returning a promise. */
export type AsyncMethods<T> = { [K in MethodKeys<T>]: (...args: MethodArgs<T, K>) => Promise<MethodResult<T, K>> };

export interface CallOptions {
  /** Reject with ActorCallTimeoutError after this many ms (the actor keeps running the call). */
  timeoutMs?: number;
}

/** The control surface every remote actor has, next to its own methods. */
export interface ActorControl<T> {
  /** e.g. 'RolloutActor#3'. */
  readonly actorName: string;
  /** Resolves when the actor dies (never rejects). */
  readonly dead: Promise<ActorDeath>;
  readonly isDead: boolean;
  /** The method names the worker reported after construction. */
  readonly methods: readonly string[];
  /** Calls `listener` when the actor dies (at once if it already has). Returns an unsubscribe function. */
  onDeath(listener: (death: ActorDeath) => void): () => void;
  /** Calls a method by name (same as `actor[method](...args)`, plus per-call options). */
  call<K extends MethodKeys<T>>(method: K, args: MethodArgs<T, K>, options?: CallOptions): Promise<MethodResult<T, K>>;
  /** Round trip to the worker host (not the actor's code); resolves with the latency in ms. */
  ping(timeoutMs?: number): Promise<number>;
  /**
   * Crashes the actor's worker on purpose (the "crash an actor" button, and tests), whatever its
   * class: the worker host gives every actor this method. Resolves when the call is answered, or
   * rejects with ActorDiedError when the worker dies first; either way the worker dies.
   */
  crash(message?: string): Promise<void>;
  /** Stops the worker; in-flight calls reject with ActorDiedError. `reason` defaults to 'terminated'. */
  terminate(reason?: ActorDeathReason, error?: Error): Promise<void>;
}

/** A remote instance of T: its methods (async) plus {@link ActorControl}. Control names win on a clash. */
export type RemoteActor<T> = Omit<AsyncMethods<T>, keyof ActorControl<T>> & ActorControl<T>;

export interface RemoteClassOptions {
  /** Registry key; defaults to the key `Cls` declares (static `actorKey`) or was registered under. */
  key?: string;
  /** Module URL the worker imports before construction, for classes not in src/workers/actorClasses.ts (its exported actor classes are registered). */
  module?: string;
  /** Base of actor names (default: the key), numbered per name: 'Name#0', 'Name#1', ... */
  name?: string;
  /** Default per-call timeout for actors of this class (none by default). */
  callTimeoutMs?: number;
  /** Reject create() if the worker has not constructed the actor within this many ms (default 60000). */
  startTimeoutMs?: number;
  /** Spawner for this class's workers (default: the installed one, see setActorSpawner). */
  spawner?: ActorSpawner;
}

export interface RemoteClassHandle<C extends ActorClass> {
  readonly key: string;
  readonly name: string;
  readonly options: Readonly<RemoteClassOptions>;
  /** Spawns a worker and constructs the class there. Rejects with RemoteActorError if the constructor throws. */
  create(...args: ConstructorParameters<C>): Promise<RemoteActor<InstanceType<C>>>;
  /** Same as create(); aborting `signal` stops the worker and rejects (ActorPool uses it on terminate()). */
  start(args: ConstructorParameters<C>, signal?: AbortSignal): Promise<RemoteActor<InstanceType<C>>>;
}

const nameCounters = new Map<string, number>();
function nextActorName(base: string): string {
  const n = nameCounters.get(base) ?? 0;
  nameCounters.set(base, n + 1);
  return `${base}#${n}`;
}

type Pending = { method: string; reject: (err: Error) => void };

const CONTROL_KEYS: ReadonlySet<string> = new Set(['actorName', 'dead', 'isDead', 'methods', 'onDeath', 'call', 'ping', 'crash', 'terminate']);

/** The caller's side of one actor worker. Used through the RemoteActor proxy it builds. */
class ActorConnection<T> {
  readonly actorName: string;
  readonly dead: Promise<ActorDeath>;
  methods: readonly string[] = [];
  readonly proxy: RemoteActor<T>;
  private death: ActorDeath | undefined;
  private resolveDead!: (d: ActorDeath) => void;
  private readonly deathListeners = new Set<(d: ActorDeath) => void>();
  private readonly pending = new Map<number, Pending>();
  private readonly pongs = new Map<number, () => void>();
  // comlink's proxy over a name -> function record; every property is a remote function.
  private readonly remote: Comlink.Remote<Record<string, (...args: unknown[]) => unknown>>;
  private readonly worker: SpawnedWorker;
  private readonly defaultTimeoutMs: number | undefined;
  private seq = 0;
  private onInitMessage: ((ok: { methods: string[] } | { error: SerializedError }) => void) | undefined;
  private terminating: Promise<void> | undefined;

  constructor(actorName: string, worker: SpawnedWorker, defaultTimeoutMs: number | undefined) {
    this.actorName = actorName;
    this.worker = worker;
    this.defaultTimeoutMs = defaultTimeoutMs;
    this.dead = new Promise<ActorDeath>((resolve) => (this.resolveDead = resolve));
    worker.endpoint.addEventListener('message', ((ev: MessageEvent) => this.onControl(ev.data)) as EventListener);
    this.remote = Comlink.wrap(worker.endpoint);
    worker.onExit((exit) => this.die(exit.reason, exit.error, exit.exitCode));

    // Only the ActorControl members are local; every other string key is a remote method.
    const isDead = (): boolean => this.death !== undefined;
    const methods = (): readonly string[] => this.methods;
    const control: ActorControl<T> = {
      actorName,
      dead: this.dead,
      get isDead() {
        return isDead();
      },
      get methods() {
        return methods();
      },
      onDeath: (listener) => this.onDeath(listener),
      call: (method, args, options) => this.invoke(method, args as unknown[], options) as Promise<never>,
      ping: (timeoutMs) => this.ping(timeoutMs),
      crash: (message) => this.invoke(CRASH_METHOD, [message ?? 'crash requested'], undefined).then(() => undefined),
      terminate: (reason, error) => this.terminate(reason, error),
    };
    const methodFns = new Map<string, (...args: unknown[]) => Promise<unknown>>();
    this.proxy = new Proxy(control, {
      get: (target, prop, receiver) => {
        if (typeof prop === 'symbol' || CONTROL_KEYS.has(prop)) return Reflect.get(target, prop, receiver);
        if (prop === 'then') return undefined; // not a thenable: `await create()` must yield the proxy
        let fn = methodFns.get(prop);
        if (!fn) {
          fn = (...args: unknown[]) => this.invoke(prop, args, undefined);
          methodFns.set(prop, fn);
        }
        return fn;
      },
      has: (target, prop) => {
        return typeof prop === 'string' ? CONTROL_KEYS.has(prop) || this.methods.includes(prop) : Reflect.has(target, prop);
      },
    }) as unknown as RemoteActor<T>;
  }

  private onControl(data: unknown): void {
    if (!isControlMessage(data)) return;
    if (data.__parl === 'pong') {
      this.pongs.get(data.seq)?.();
      this.pongs.delete(data.seq);
    } else if (data.__parl === 'ready') {
      this.methods = Object.freeze([...data.methods]);
      this.onInitMessage?.({ methods: data.methods });
    } else if (data.__parl === 'init-error') {
      this.onInitMessage?.({ error: data.error });
    }
  }

  /** Sends the init message and waits for the worker to construct the actor. */
  init(key: string, module: string | undefined, args: unknown[], timeoutMs: number): Promise<void> {
    return this.track('constructor', timeoutMs, (resolve, reject) => {
      this.onInitMessage = (msg) => {
        this.onInitMessage = undefined;
        if ('error' in msg) reject(new RemoteActorError(this.actorName, 'constructor', msg.error));
        else resolve(undefined);
      };
      this.worker.endpoint.postMessage({ __parl: 'init', key, module, args, name: this.actorName }, collectTransferables(args));
    }).then(() => undefined);
  }

  invoke(method: string, args: unknown[], options: CallOptions | undefined): Promise<unknown> {
    if (this.methods.length > 0 && !this.methods.includes(method)) {
      return Promise.reject(new TypeError(`[${this.actorName}] has no method '${method}' (methods: ${this.methods.join(', ')})`));
    }
    const fn = this.remote[method];
    return this.track(method, options?.timeoutMs ?? this.defaultTimeoutMs, (resolve, reject) => {
      (fn(...args) as Promise<unknown>).then(resolve, (err: unknown) => {
        if (isLocalSendError(err)) reject(err instanceof Error ? err : new Error(String(err)));
        else reject(new RemoteActorError(this.actorName, method, toSerialized(err)));
      });
    });
  }

  ping(timeoutMs?: number): Promise<number> {
    const start = performance.now();
    const seq = ++this.seq;
    const result = this.track('__ping', timeoutMs, (resolve) => {
      this.pongs.set(seq, () => resolve(performance.now() - start));
      this.worker.endpoint.postMessage({ __parl: 'ping', seq }, []);
    }) as Promise<number>;
    const cleanup = (): void => void this.pongs.delete(seq);
    result.then(cleanup, cleanup);
    return result;
  }

  /** Runs `start`, settling with it unless the actor dies or the timeout passes first. */
  private track(method: string, timeoutMs: number | undefined, start: (resolve: (v: unknown) => void, reject: (e: Error) => void) => void): Promise<unknown> {
    if (this.death) return Promise.reject(new ActorDiedError(this.death, method));
    const id = ++this.seq;
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (): void => {
        this.pending.delete(id);
        if (timer !== undefined) clearTimeout(timer);
      };
      this.pending.set(id, { method, reject: (e) => (done(), reject(e)) });
      if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        timer = setTimeout(() => (done(), reject(new ActorCallTimeoutError(this.actorName, method, timeoutMs))), timeoutMs);
      }
      try {
        start(
          (v) => (done(), resolve(v)),
          (e) => (done(), reject(e)),
        );
      } catch (err) {
        done();
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  onDeath(listener: (death: ActorDeath) => void): () => void {
    if (this.death) {
      listener(this.death);
      return () => {};
    }
    this.deathListeners.add(listener);
    return () => this.deathListeners.delete(listener);
  }

  private die(reason: ActorDeathReason, error: Error | undefined, exitCode?: number): void {
    if (this.death) return;
    const death: ActorDeath = { actorName: this.actorName, reason, at: Date.now() };
    if (error) death.error = error;
    if (exitCode !== undefined) death.exitCode = exitCode;
    this.death = death;
    this.onInitMessage = undefined;
    this.pongs.clear();
    for (const p of [...this.pending.values()]) p.reject(new ActorDiedError(death, p.method));
    this.pending.clear();
    this.resolveDead(death);
    for (const l of [...this.deathListeners]) {
      try {
        l(death);
      } catch (err) {
        console.error(`[${this.actorName}] onDeath listener threw`, err);
      }
    }
    this.deathListeners.clear();
    // A browser worker survives an uncaught error; make sure it is gone either way.
    if (reason !== 'terminated' && reason !== 'unresponsive') void this.stopWorker();
  }

  terminate(reason: ActorDeathReason = 'terminated', error?: Error): Promise<void> {
    this.die(reason, error);
    return this.stopWorker();
  }

  private stopWorker(): Promise<void> {
    this.terminating ??= this.worker.terminate().catch(() => undefined);
    return this.terminating;
  }
}

function toSerialized(err: unknown): SerializedError {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  if (typeof err === 'object' && err !== null && 'message' in err) {
    const e = err as { name?: unknown; message?: unknown; stack?: unknown };
    return { name: String(e.name ?? 'Error'), message: String(e.message), stack: typeof e.stack === 'string' ? e.stack : undefined };
  }
  return { name: 'Error', message: String(err) };
}

/**
 * Turns an actor class into a factory of remote actors (PARL's `remote_class`). The class
 * declares its key (`static readonly actorKey = 'Key'`, see registry.ts); the worker knows it
 * through src/workers/actorClasses.ts, or through the `module` option in Node.
 */
export function remoteClass<C extends ActorClass>(Cls: C, options: RemoteClassOptions = {}): RemoteClassHandle<C> {
  const key = options.key ?? getActorKey(Cls);
  if (key === undefined) {
    throw new Error(`remoteClass: class ${Cls.name || '(anonymous)'} declares no actor key; add \`static readonly actorKey = 'Key'\` to it, or pass options.key`);
  }
  const name = options.name ?? key;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const start = async (args: ConstructorParameters<C>, signal?: AbortSignal): Promise<RemoteActor<InstanceType<C>>> => {
    signal?.throwIfAborted();
    const actorName = nextActorName(name);
    const worker = await (options.spawner ?? getActorSpawner()).spawn({ name: actorName });
    const conn = new ActorConnection<InstanceType<C>>(actorName, worker, options.callTimeoutMs);
    // Aborting stops the worker, which rejects the pending construction with ActorDiedError.
    const abort = (): void => void conn.terminate();
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
    try {
      await conn.init(key, options.module, args as unknown[], startTimeoutMs);
    } catch (err) {
      await conn.terminate();
      throw err;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
    return conn.proxy;
  };
  return {
    key,
    name,
    options: Object.freeze({ ...options }),
    create: (...args: ConstructorParameters<C>) => start(args),
    start,
  };
}
