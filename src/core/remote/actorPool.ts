/**
 * ActorPool: N remote actors of one class, kept alive. A dead actor (crash, exit, terminate(),
 * or an unanswered heartbeat) is reported, its worker is stopped, and a replacement is built with
 * the same constructor arguments; `afterSpawn` runs on it (e.g. to push current weights) before it
 * takes calls. A slot whose replacement fails `spawnAttempts` times in a row (or that reached
 * `maxRespawns`) is gone for good: calls on it reject at once, and once every slot is gone
 * `whenAllGone()` resolves, so a caller can end its work instead of retrying forever.
 *
 * Start-up is tolerant: `create` keeps the actors that came up, reports the others ('startFailed')
 * and keeps trying to start them in the background as it does after a death; it fails only when
 * none came up.
 *
 * The heartbeat is answered by the worker host, not by the actor's code, but it shares the
 * worker's event loop: a synchronous method that runs longer than `heartbeatTimeoutMs` looks hung
 * and gets replaced. Size the timeout above your longest synchronous call.
 *
 * An actor can also keep answering heartbeats and never answer a call (a call whose promise never
 * settles, a host that drops calls). Each call therefore has a deadline derived from the pool's own
 * measured times for that method (see CallDeadlines); an actor past it is reported ('died', reason
 * 'unresponsive', "stopped answering calls") and replaced like a dead one.
 */
import { ActorDiedError, type ActorDeath } from './errors';
import type { ActorClass } from './registry';
import type { MethodArgs, MethodKeys, MethodResult, RemoteActor, RemoteClassHandle } from './remoteClass';
import { sleep } from '../abortableSleep';
import { CallDeadlines, type CallDeadlineOptions } from './callDeadlines';

export type PoolActorState = 'starting' | 'idle' | 'busy' | 'dead' | 'replaced';

export interface PoolEvent {
  /**
   * 'died': an actor died; 'replaced': its replacement is up; 'error': an attempt to build one
   * failed; 'startFailed': the slot's first actor did not start (it is retried in the
   * background); 'started': such a slot's actor finally came up; 'gone': the slot gave up.
   */
  type: 'died' | 'replaced' | 'error' | 'startFailed' | 'started' | 'gone';
  index: number;
  /** The actor the event is about: the dead one for 'died', the new one for 'replaced' and 'started'. */
  actorName: string;
  error?: Error;
  death?: ActorDeath;
  /** Successful replacements of this slot so far. */
  respawns: number;
}

export interface PoolActorStatus {
  index: number;
  name: string;
  /** 'replaced': a replacement that has not finished a call yet. */
  state: PoolActorState;
  respawns: number;
  /** Calls started through the pool on this slot (all actors it has had). */
  calls: number;
  inFlight: number;
  lastError?: { message: string; remoteStack?: string };
}

export interface ActorPoolOptions<T> {
  /** Per-call timeout for pool.call / pool.map (none by default). */
  callTimeoutMs?: number;
  /** Heartbeat period; 0 disables the heartbeat (default 1000). */
  heartbeatMs?: number;
  /** An actor that does not answer a heartbeat within this is replaced (default 10000). */
  heartbeatTimeoutMs?: number;
  /** Replacements allowed per slot before it stays dead (default Infinity). */
  maxRespawns?: number;
  /** Attempts to build one replacement before giving up on it (default 3). */
  spawnAttempts?: number;
  onEvent?(event: PoolEvent): void;
  /** Runs on every actor the pool builds, the first ones included, before it takes pool calls. */
  afterSpawn?(actor: RemoteActor<T>, index: number): void | Promise<void>;
  /** How late a call may be before its actor is replaced (see CallDeadlines); false: never. */
  callDeadline?: CallDeadlineOptions | false;
}

interface Slot<T> {
  index: number;
  /** Undefined until the slot's first actor has started. */
  actor: RemoteActor<T> | undefined;
  /** The current actor's name, or what the slot is called before it has one. */
  name: string;
  /** Gave up for good: no replacement will be built. */
  gone: boolean;
  state: PoolActorState;
  respawns: number;
  calls: number;
  inFlight: number;
  lastError?: { message: string; remoteStack?: string };
  /** Settles when no replacement is being built for this slot. */
  ready: Promise<void>;
  pinging: boolean;
}

function describeError(err: unknown): { message: string; remoteStack?: string } {
  if (err instanceof Error) {
    const remoteStack = (err as { remoteStack?: unknown }).remoteStack;
    return typeof remoteStack === 'string' ? { message: err.message, remoteStack } : { message: err.message };
  }
  return { message: String(err) };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}


/** ActorPool.create could start none of its actors. */
export class ActorPoolStartError extends Error {
  override name = 'ActorPoolStartError';
  /** Why each actor did not start, by index. */
  readonly reasons: readonly Error[];

  constructor(size: number, reasons: Error[]) {
    const first = reasons[0]?.message ?? 'unknown error';
    super(`none of the ${size} actor${size === 1 ? '' : 's'} started (first error: ${first})`, { cause: reasons[0] });
    this.reasons = reasons;
  }
}

export class ActorPool<T> {
  private readonly slots: Slot<T>[] = [];
  private readonly createActor: (index: number, signal: AbortSignal) => Promise<RemoteActor<T>>;
  private readonly options: ActorPoolOptions<T>;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  /** Aborted by terminate(): stops actors being built and the waits between attempts. */
  private readonly closing = new AbortController();
  private resolveAllGone!: () => void;
  private readonly allGone = new Promise<void>((resolve) => (this.resolveAllGone = resolve));
  private readonly deadlines: CallDeadlines | null;

  private constructor(createActor: (index: number, signal: AbortSignal) => Promise<RemoteActor<T>>, options: ActorPoolOptions<T>) {
    this.createActor = createActor;
    this.options = options;
    this.deadlines = options.callDeadline === false ? null : new CallDeadlines(options.callDeadline ?? {});
  }

  /**
   * Builds `n` actors in parallel with `argsFor(index)`. Keeps those that come up; each one that
   * does not is reported ('startFailed') and retried in the background as after a death. Rejects
   * with ActorPoolStartError (and stops the rest) only if none comes up.
   */
  static async create<C extends ActorClass>(
    handle: RemoteClassHandle<C>,
    n: number,
    argsFor: (index: number) => [...ConstructorParameters<C>],
    options: ActorPoolOptions<InstanceType<C>> = {},
  ): Promise<ActorPool<InstanceType<C>>> {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`ActorPool.create: n must be a positive integer, got ${n}`);
    const build = async (index: number, signal: AbortSignal): Promise<RemoteActor<InstanceType<C>>> => {
      const actor = await handle.start(argsFor(index), signal);
      const stop = (): void => void actor.terminate();
      signal.addEventListener('abort', stop, { once: true });
      try {
        await options.afterSpawn?.(actor, index);
        signal.throwIfAborted();
      } catch (err) {
        await actor.terminate();
        throw err;
      } finally {
        signal.removeEventListener('abort', stop);
      }
      return actor;
    };
    const pool = new ActorPool<InstanceType<C>>(build, options);
    const results = await Promise.allSettled(Array.from({ length: n }, (_, i) => build(i, pool.closing.signal)));
    if (results.every((r) => r.status === 'rejected')) {
      pool.closed = true;
      throw new ActorPoolStartError(n, results.map((r) => asError((r as PromiseRejectedResult).reason)));
    }
    results.forEach((r, index) => {
      const slot: Slot<InstanceType<C>> = {
        index,
        actor: r.status === 'fulfilled' ? r.value : undefined,
        name: r.status === 'fulfilled' ? r.value.actorName : `${handle.name} (slot ${index}, not started)`,
        gone: false,
        state: r.status === 'fulfilled' ? 'idle' : 'starting',
        respawns: 0,
        calls: 0,
        inFlight: 0,
        ready: Promise.resolve(),
        pinging: false,
      };
      pool.slots.push(slot);
      if (r.status === 'fulfilled') pool.watch(slot, r.value);
    });
    for (const [index, r] of results.entries()) {
      if (r.status === 'fulfilled') continue;
      const slot = pool.slots[index];
      const error = asError(r.reason);
      slot.lastError = describeError(error);
      pool.emit({ type: 'startFailed', index, actorName: slot.name, error, respawns: 0 });
      slot.ready = pool.replace(slot);
    }
    pool.startHeartbeat();
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  /** The slot's current actor (after a death, the replacement once it is up). Throws if it never started. */
  actor(index: number): RemoteActor<T> {
    const actor = this.slot(index).actor;
    if (!actor) throw new Error(`ActorPool: actor ${index} has not started`);
    return actor;
  }

  /** True when slot `index` gave up for good (its replacements kept failing). */
  isGone(index: number): boolean {
    return this.slot(index).gone;
  }

  /** Slots with an actor that is not gone for good. */
  get liveCount(): number {
    return this.slots.filter((s) => !s.gone).length;
  }

  /** Resolves once every slot is gone for good (never, while one lives). */
  whenAllGone(): Promise<void> {
    return this.allGone;
  }

  /** Resolves once slot `index` is not being rebuilt. */
  async ready(index: number): Promise<void> {
    await this.slot(index).ready;
  }

  /**
   * While slot `index`'s actor is being built (its first one that did not start, or a replacement
   * after a death), a promise that settles once it is done (up, or gone for good); null when the
   * slot takes calls now. A call made meanwhile would wait for it (see call).
   */
  building(index: number): Promise<void> | null {
    const slot = this.slot(index);
    return slot.state === 'starting' ? slot.ready : null;
  }

  /**
   * Calls `method` on actor `index`. Waits for a replacement that is being built. Rejects with
   * ActorDiedError if the actor dies during the call (the pool then replaces it), with
   * RemoteActorError if the method throws, with ActorCallTimeoutError past `callTimeoutMs`.
   */
  call<K extends MethodKeys<T>>(index: number, method: K, ...args: MethodArgs<T, K>): Promise<MethodResult<T, K>> {
    const slot = this.slots[index];
    if (!slot) return Promise.reject(new RangeError(`ActorPool: no actor at index ${index} (size ${this.slots.length})`));
    if (slot.state === 'starting') return slot.ready.then(() => this.callNow(slot, method, args));
    return this.callNow(slot, method, args);
  }

  /**
   * Calls `method` on actor `index` only while `actor` (one this slot had) holds the slot: once it
   * has died, rejects with ActorDiedError instead of calling its replacement, which has none of
   * its state (a multi-call episode started on it).
   */
  callOn<K extends MethodKeys<T>>(index: number, actor: RemoteActor<T>, method: K, ...args: MethodArgs<T, K>): Promise<MethodResult<T, K>> {
    const slot = this.slots[index];
    if (!slot) return Promise.reject(new RangeError(`ActorPool: no actor at index ${index} (size ${this.slots.length})`));
    if (slot.actor !== actor || actor.isDead) {
      if (!actor.isDead) return Promise.reject(new Error(`ActorPool: ${actor.actorName} is not actor ${index}`));
      return actor.dead.then((death) => Promise.reject(new ActorDiedError(death, method)));
    }
    return this.callNow(slot, method, args);
  }

  private async callNow<K extends MethodKeys<T>>(slot: Slot<T>, method: K, args: MethodArgs<T, K>): Promise<MethodResult<T, K>> {
    if (this.closed) throw new Error('ActorPool: terminated');
    const actor = slot.actor;
    if (slot.gone || !actor) throw new Error(`ActorPool: actor ${slot.index} is gone for good${slot.lastError ? ` (last error: ${slot.lastError.message})` : ''}`);
    slot.calls++;
    slot.inFlight++;
    if (!actor.isDead) slot.state = 'busy';
    const started = performance.now();
    const deadlineMs = this.deadlines?.deadlineMs(String(method)) ?? null;
    const late = deadlineMs === null ? undefined : setTimeout(() => this.stoppedAnswering(actor, String(method), deadlineMs), deadlineMs);
    (late as { unref?: () => void } | undefined)?.unref?.();
    try {
      const result = await actor.call(method, args, { timeoutMs: this.options.callTimeoutMs });
      this.deadlines?.record(String(method), performance.now() - started);
      return result;
    } catch (err) {
      slot.lastError = describeError(err);
      throw err;
    } finally {
      clearTimeout(late);
      slot.inFlight--;
      if (slot.actor === actor && !actor.isDead && slot.inFlight === 0) slot.state = 'idle';
    }
  }

  /** Calls `method` on every actor at once; one settled result per actor, in index order. */
  map<K extends MethodKeys<T>>(method: K, argsFor?: (index: number) => [...MethodArgs<T, K>]): Promise<PromiseSettledResult<MethodResult<T, K>>[]> {
    return Promise.allSettled(this.slots.map((s) => this.call(s.index, method, ...((argsFor?.(s.index) ?? []) as MethodArgs<T, K>))));
  }

  /**
   * Grow or shrink the pool to `n` actors, between calls (a live change of the number of actors).
   * Growing builds the new slots' actors with their own index (so the same run grows the same
   * way); one that does not start is reported and retried in the background as at creation.
   * Shrinking stops the highest-numbered actors; their slots go away without a 'died' event.
   */
  async resize(n: number): Promise<void> {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`ActorPool.resize: n must be a positive integer, got ${n}`);
    if (this.closed) throw new Error('ActorPool: terminated');
    while (this.slots.length > n) {
      const slot = this.slots.pop() as Slot<T>;
      const actor = slot.actor;
      // Unhook it first, so its death is not taken for a crash (see watch).
      slot.actor = undefined;
      slot.gone = true;
      await Promise.all([slot.ready, actor?.terminate()]);
    }
    const first = this.slots.length;
    const results = await Promise.allSettled(Array.from({ length: n - first }, (_, k) => this.createActor(first + k, this.closing.signal)));
    results.forEach((r, k) => {
      const index = first + k;
      const slot: Slot<T> = {
        index,
        actor: r.status === 'fulfilled' ? r.value : undefined,
        name: r.status === 'fulfilled' ? r.value.actorName : `actor (slot ${index}, not started)`,
        gone: false,
        state: r.status === 'fulfilled' ? 'idle' : 'starting',
        respawns: 0,
        calls: 0,
        inFlight: 0,
        ready: Promise.resolve(),
        pinging: false,
      };
      this.slots.push(slot);
      if (r.status === 'fulfilled') {
        if (this.closed) void r.value.terminate();
        else this.watch(slot, r.value);
        return;
      }
      const error = asError(r.reason);
      slot.lastError = describeError(error);
      this.emit({ type: 'startFailed', index, actorName: slot.name, error, respawns: 0 });
      slot.ready = this.replace(slot);
    });
  }

  status(): PoolActorStatus[] {
    return this.slots.map((s) => {
      const st: PoolActorStatus = { index: s.index, name: s.name, state: s.state, respawns: s.respawns, calls: s.calls, inFlight: s.inFlight };
      if (s.lastError) st.lastError = { ...s.lastError };
      return st;
    });
  }

  /** Stops the heartbeat and every worker; actors being built are stopped too (their calls reject at once). */
  async terminate(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await Promise.all(
      this.slots.map(async (s) => {
        await Promise.all([s.ready, s.actor?.terminate()]);
      }),
    );
  }

  private slot(index: number): Slot<T> {
    const slot = this.slots[index];
    if (!slot) throw new RangeError(`ActorPool: no actor at index ${index} (size ${this.slots.length})`);
    return slot;
  }

  private emit(event: PoolEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch (err) {
      console.error('ActorPool: onEvent threw', err);
    }
  }

  private watch(slot: Slot<T>, actor: RemoteActor<T>): void {
    actor.onDeath((death) => {
      if (this.closed || slot.actor !== actor) return;
      slot.state = 'dead';
      const error = death.error ?? new ActorDiedError(death, 'heartbeat');
      slot.lastError = describeError(error);
      this.emit({ type: 'died', index: slot.index, actorName: actor.actorName, error, death, respawns: slot.respawns });
      slot.ready = this.replace(slot);
    });
  }

  private async replace(slot: Slot<T>): Promise<void> {
    const maxRespawns = this.options.maxRespawns ?? Infinity;
    const firstStart = slot.actor === undefined;
    if (!firstStart && slot.respawns >= maxRespawns) {
      const error = new Error(`ActorPool: slot ${slot.index} reached maxRespawns (${maxRespawns})`);
      this.emit({ type: 'error', index: slot.index, actorName: slot.name, error, respawns: slot.respawns });
      this.giveUp(slot, error);
      return;
    }
    slot.state = 'starting';
    const attempts = Math.max(1, this.options.spawnAttempts ?? 3);
    let lastError: Error | undefined;
    for (let attempt = 1; attempt <= attempts && !this.closed; attempt++) {
      try {
        const actor = await this.createActor(slot.index, this.closing.signal);
        if (this.closed) {
          await actor.terminate();
          return;
        }
        if (!firstStart) slot.respawns++;
        slot.actor = actor;
        slot.name = actor.actorName;
        slot.state = 'replaced';
        slot.pinging = false;
        this.watch(slot, actor);
        this.emit({ type: firstStart ? 'started' : 'replaced', index: slot.index, actorName: actor.actorName, respawns: slot.respawns });
        return;
      } catch (err) {
        if (this.closed) return;
        lastError = asError(err);
        slot.lastError = describeError(lastError);
        this.emit({ type: 'error', index: slot.index, actorName: slot.name, error: lastError, respawns: slot.respawns });
        if (attempt < attempts) await sleep(100 * attempt, this.closing.signal);
      }
    }
    slot.state = 'dead';
    if (!this.closed) this.giveUp(slot, new Error(`ActorPool: slot ${slot.index} is gone for good: ${attempts} attempt${attempts === 1 ? '' : 's'} to ${firstStart ? 'start' : 'replace'} its actor failed${lastError ? ` (last: ${lastError.message})` : ''}`));
  }

  private giveUp(slot: Slot<T>, error: Error): void {
    slot.state = 'dead';
    slot.gone = true;
    this.emit({ type: 'gone', index: slot.index, actorName: slot.name, error, respawns: slot.respawns });
    if (this.slots.every((s) => s.gone)) this.resolveAllGone();
  }

  /** A call outlived its deadline: the actor is replaced as if it had died (its calls reject with ActorDiedError). */
  private stoppedAnswering(actor: RemoteActor<T>, method: string, deadlineMs: number): void {
    if (actor.isDead || this.closed) return;
    this.deadlines?.missed(method);
    const error = new Error(`[${actor.actorName}] stopped answering calls: ${method} got no answer within ${Math.round(deadlineMs)} ms (its heartbeat still answered)`);
    void actor.terminate('unresponsive', error);
  }

  private startHeartbeat(): void {
    const period = this.options.heartbeatMs ?? 1000;
    if (!(period > 0)) return;
    const timeoutMs = this.options.heartbeatTimeoutMs ?? 10_000;
    this.heartbeat = setInterval(() => {
      for (const slot of this.slots) {
        const actor = slot.actor;
        if (!actor || slot.pinging || actor.isDead || slot.state === 'starting') continue;
        slot.pinging = true;
        actor.ping(timeoutMs).then(
          () => {
            if (slot.actor === actor) slot.pinging = false;
          },
          () => {
            if (slot.actor === actor) slot.pinging = false;
            if (!actor.isDead && !this.closed) {
              void actor.terminate('unresponsive', new Error(`[${actor.actorName}] no heartbeat answer within ${timeoutMs} ms`));
            }
          },
        );
      }
    }, period);
    // Do not keep a Node process alive just for the heartbeat.
    (this.heartbeat as { unref?: () => void }).unref?.();
  }
}
