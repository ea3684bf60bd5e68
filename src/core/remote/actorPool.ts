/**
 * ActorPool: N remote actors of one class, kept alive. A dead actor (crash, exit, terminate(),
 * or an unanswered heartbeat) is reported, its worker is stopped, and a replacement is built with
 * the same constructor arguments; `afterSpawn` runs on it (e.g. to push current weights) before it
 * takes calls.
 *
 * The heartbeat is answered by the worker host, not by the actor's code, but it shares the
 * worker's event loop: a synchronous method that runs longer than `heartbeatTimeoutMs` looks hung
 * and gets replaced. Size the timeout above your longest synchronous call.
 */
import { ActorDiedError, type ActorDeath } from './errors';
import type { ActorClass } from './registry';
import type { MethodArgs, MethodKeys, MethodResult, RemoteActor, RemoteClassHandle } from './remoteClass';

export type PoolActorState = 'starting' | 'idle' | 'busy' | 'dead' | 'replaced';

export interface PoolEvent {
  type: 'died' | 'replaced' | 'error';
  index: number;
  /** The actor the event is about: the dead one for 'died', the new one for 'replaced'. */
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
}

interface Slot<T> {
  index: number;
  actor: RemoteActor<T>;
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

export class ActorPool<T> {
  private readonly slots: Slot<T>[] = [];
  private readonly createActor: (index: number) => Promise<RemoteActor<T>>;
  private readonly options: ActorPoolOptions<T>;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  private constructor(createActor: (index: number) => Promise<RemoteActor<T>>, options: ActorPoolOptions<T>) {
    this.createActor = createActor;
    this.options = options;
  }

  /** Builds `n` actors in parallel with `argsFor(index)`; rejects (and stops the rest) if any fails. */
  static async create<C extends ActorClass>(
    handle: RemoteClassHandle<C>,
    n: number,
    argsFor: (index: number) => [...ConstructorParameters<C>],
    options: ActorPoolOptions<InstanceType<C>> = {},
  ): Promise<ActorPool<InstanceType<C>>> {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`ActorPool.create: n must be a positive integer, got ${n}`);
    const build = async (index: number): Promise<RemoteActor<InstanceType<C>>> => {
      const actor = await handle.create(...argsFor(index));
      try {
        await options.afterSpawn?.(actor, index);
      } catch (err) {
        await actor.terminate();
        throw err;
      }
      return actor;
    };
    const pool = new ActorPool<InstanceType<C>>(build, options);
    const results = await Promise.allSettled(Array.from({ length: n }, (_, i) => build(i)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.terminate() : undefined)));
      throw failed.reason;
    }
    results.forEach((r, index) => {
      if (r.status !== 'fulfilled') return;
      const slot: Slot<InstanceType<C>> = { index, actor: r.value, state: 'idle', respawns: 0, calls: 0, inFlight: 0, ready: Promise.resolve(), pinging: false };
      pool.slots.push(slot);
      pool.watch(slot, r.value);
    });
    pool.startHeartbeat();
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  /** The slot's current actor (after a death, the replacement once it is up). */
  actor(index: number): RemoteActor<T> {
    return this.slot(index).actor;
  }

  /** Resolves once slot `index` is not being rebuilt. */
  async ready(index: number): Promise<void> {
    await this.slot(index).ready;
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

  private async callNow<K extends MethodKeys<T>>(slot: Slot<T>, method: K, args: MethodArgs<T, K>): Promise<MethodResult<T, K>> {
    if (this.closed) throw new Error('ActorPool: terminated');
    const actor = slot.actor;
    slot.calls++;
    slot.inFlight++;
    if (!actor.isDead) slot.state = 'busy';
    try {
      return await actor.call(method, args, { timeoutMs: this.options.callTimeoutMs });
    } catch (err) {
      slot.lastError = describeError(err);
      throw err;
    } finally {
      slot.inFlight--;
      if (slot.actor === actor && !actor.isDead && slot.inFlight === 0) slot.state = 'idle';
    }
  }

  /** Calls `method` on every actor at once; one settled result per actor, in index order. */
  map<K extends MethodKeys<T>>(method: K, argsFor?: (index: number) => [...MethodArgs<T, K>]): Promise<PromiseSettledResult<MethodResult<T, K>>[]> {
    return Promise.allSettled(this.slots.map((s) => this.call(s.index, method, ...((argsFor?.(s.index) ?? []) as MethodArgs<T, K>))));
  }

  status(): PoolActorStatus[] {
    return this.slots.map((s) => {
      const st: PoolActorStatus = { index: s.index, name: s.actor.actorName, state: s.state, respawns: s.respawns, calls: s.calls, inFlight: s.inFlight };
      if (s.lastError) st.lastError = { ...s.lastError };
      return st;
    });
  }

  /** Stops the heartbeat and every worker (replacements being built included). */
  async terminate(): Promise<void> {
    this.closed = true;
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await Promise.all(
      this.slots.map(async (s) => {
        await s.ready;
        await s.actor.terminate();
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
    if (slot.respawns >= maxRespawns) {
      this.emit({ type: 'error', index: slot.index, actorName: slot.actor.actorName, error: new Error(`ActorPool: slot ${slot.index} reached maxRespawns (${maxRespawns})`), respawns: slot.respawns });
      return;
    }
    slot.state = 'starting';
    const attempts = Math.max(1, this.options.spawnAttempts ?? 3);
    for (let attempt = 1; attempt <= attempts && !this.closed; attempt++) {
      try {
        const actor = await this.createActor(slot.index);
        if (this.closed) {
          await actor.terminate();
          return;
        }
        slot.respawns++;
        slot.actor = actor;
        slot.state = 'replaced';
        slot.pinging = false;
        this.watch(slot, actor);
        this.emit({ type: 'replaced', index: slot.index, actorName: actor.actorName, respawns: slot.respawns });
        return;
      } catch (err) {
        const error = asError(err);
        slot.lastError = describeError(error);
        this.emit({ type: 'error', index: slot.index, actorName: slot.actor.actorName, error, respawns: slot.respawns });
        if (attempt < attempts) await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
    slot.state = 'dead';
  }

  private startHeartbeat(): void {
    const period = this.options.heartbeatMs ?? 1000;
    if (!(period > 0)) return;
    const timeoutMs = this.options.heartbeatTimeoutMs ?? 10_000;
    this.heartbeat = setInterval(() => {
      for (const slot of this.slots) {
        const actor = slot.actor;
        if (slot.pinging || actor.isDead || slot.state === 'starting') continue;
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
