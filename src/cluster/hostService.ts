/**
 * An actor host: offers `capacity` actor slots on the cluster. Each actor a learner asks for runs
 * in a local worker (the platform's spawner: worker_threads in Node, Web Workers in a tab), which
 * constructs the class registered under the requested key in THIS host's code. The host only
 * relays: it checks every frame, lets through init (without `module`), ping, and calls of the
 * methods the actor reported, and publishes the worker's answers.
 *
 * A request the learner sends again after a reconnect is not run twice: an answered one is
 * answered from a small cache, one still running is left to finish. An actor that hears nothing
 * from its learner for `idleTimeoutMs` (the learner's pool pings every few seconds) is stopped.
 * Sooner than that, the host asks each of its learners now and then whether it is still there:
 * when nats-server answers that nobody listens (the learner's connection is gone: a killed
 * process) for `learnerGoneMs`, the learner's actors stop and their slots are free again. A learner
 * that is only slow (a long update) is not asked to answer in time: only "nobody listens" counts.
 *
 * Streamed calls (their answer goes into the run's stream) are pipelined: the learner keeps more
 * than one in flight per actor (src/engine/producers.ts), the host queues them and hands the
 * actor the next one as soon as it answered the last, so the actor computes segment k+1 while
 * segment k is being published and acknowledged. The actor still runs them one at a time, in the
 * order they came; and it starts one only while at most {@link MAX_UNACKED_WHILE_COMPUTING}
 * of its segments await their PubAck, so a host holds at most one segment per actor more than
 * without pipelining.
 *
 * A packed streamed call (its route's `k` > 1) runs the method K times, one call after the other
 * with the same weights (the first call gets them, the others keep them), and publishes the K
 * answers as ONE stream message: one call, one receipt, one publish and PubAck for K segments.
 * The worker runs the K calls itself (the actor host's 'repeat', src/core/remote/host.ts): one
 * message to it and one back per packed call, not K of each.
 * It fails as a whole (an error in any of the K, the worker dying): the learner counts K lost.
 */
import { NoRespondersError, RequestError, type NatsConnection, type Subscription } from '@nats-io/nats-core';
import type { ActorSpawner, SpawnedWorker } from '../core/remote/spawner';
import { collectTransferables } from '../core/remote/transfer';
import { serializeError } from '../core/remote/errors';
import { FrameReceiver, FrameSender } from './channel';
import { decodeFrame, encodeFrame, DEFAULT_CAPS, type FrameCaps } from './codec';
import { randomId } from './ids';
import { actorInboundSchema, actorMessageSchema, emptyStats, spawnRequestSchema, subjects, type HostBeat, type LearnerMessage, type SpawnReply, type StreamReceipt, type StreamRoute, type TransportStats } from './protocol';
import { openExperience, runIdOf, SegmentPublisher, WeightsStore, type Experience } from './experience';

export interface HostServiceOptions {
  capacity: number;
  hostName: string;
  /** Where actors run on this machine. */
  spawner: ActorSpawner;
  beatMs?: number;
  idleTimeoutMs?: number;
  /** A learner nobody listens for (its connection gone) this long loses its actors here (default 3000 ms). */
  learnerGoneMs?: number;
  /** How often each learner with actors here is asked whether it is still there (default 1000 ms). */
  learnerProbeMs?: number;
  caps?: FrameCaps;
  log?(line: string): void;
  /** How this host puts segments into a run's stream (default: a {@link SegmentPublisher}). */
  publisher?(exp: Experience): SegmentPublisher;
}

const ANSWER_CACHE = 64;

/** An actor starts its next streamed call only while at most this many of its segments await their PubAck. */
export const MAX_UNACKED_WHILE_COMPUTING = 1;

/** What a host has done so far, for its own page or log (a browser tab shows it in its cluster panel). */
export interface HostWork {
  /** Calls its actors answered, and segments they put in a run's stream. */
  answered: number;
  segments: number;
  /** Actors started, and those whose worker died (crash, uncaught error). */
  started: number;
  died: number;
  lastError: string | null;
}

export class HostService {
  readonly hostId = randomId();
  readonly stats: TransportStats = emptyStats();
  readonly work: HostWork = { answered: 0, segments: 0, started: 0, died: 0, lastError: null };
  private readonly actors = new Map<string, HostedActor>();
  private readonly subs: Subscription[] = [];
  private readonly beatTimer: ReturnType<typeof setInterval>;
  private closed = false;
  /** Slots promised to spawn requests whose worker is still starting. */
  private starting = 0;
  /** Per learner with actors here: when its probe last went out, and since when nobody listens for it. */
  private readonly learners = new Map<string, { probedAt: number; probing: boolean; goneSince: number | null }>();

  constructor(
    readonly nc: NatsConnection,
    readonly options: HostServiceOptions,
  ) {
    this.subs.push(nc.subscribe(subjects.spawn(this.hostId), { callback: (_e, msg) => void this.onSpawn(msg.data, msg.reply) }));
    this.subs.push(nc.subscribe(subjects.discover, { callback: (_e, msg) => {
      if (msg.reply) nc.publish(msg.reply, encodeFrame(1, this.beat()));
    } }));
    this.beatTimer = setInterval(() => this.sendBeat(), options.beatMs ?? 500);
    this.sendBeat();
    void this.watchStatus();
  }

  private async watchStatus(): Promise<void> {
    // Back from a disconnect, learners may not be back yet: each one gets its grace period again.
    for await (const s of this.nc.status()) if (s.type === 'reconnect') for (const l of this.learners.values()) l.goneSince = null;
  }

  /** Asks each learner with actors here whether it is still there; stops the actors of one whose connection is gone. */
  private probeLearners(now: number): void {
    const ids = new Set<string>();
    for (const a of this.actors.values()) if (a.learner !== null) ids.add(a.learner);
    for (const id of this.learners.keys()) if (!ids.has(id)) this.learners.delete(id);
    const every = this.options.learnerProbeMs ?? 1000;
    const goneMs = this.options.learnerGoneMs ?? 3000;
    for (const id of ids) {
      let l = this.learners.get(id);
      if (!l) this.learners.set(id, (l = { probedAt: now, probing: false, goneSince: null }));
      if (l.goneSince !== null && now - l.goneSince >= goneMs) {
        this.learners.delete(id);
        const why = `its learner is gone (no connection for ${Math.round((now - l.goneSince) / 1000)} s)`;
        for (const a of [...this.actors.values()]) if (a.learner === id) void a.stop(why);
        continue;
      }
      if (l.probing || now - l.probedAt < every) continue;
      const probe = l;
      probe.probing = true;
      probe.probedAt = now;
      this.nc.request(subjects.learnerAlive(id), encodeFrame(1, null), { timeout: Math.max(every, 1000) }).then(
        () => (probe.goneSince = null),
        (err: unknown) => {
          // Only "nobody listens" says the learner is gone; a late answer is a busy learner.
          const nobody = err instanceof NoRespondersError || (err instanceof RequestError && err.isNoResponders());
          if (nobody) probe.goneSince ??= Date.now();
        },
      ).finally(() => (probe.probing = false));
    }
  }

  get running(): number {
    return this.actors.size;
  }

  /** The names of the actors running here now (as their learners named them). */
  actorNames(): string[] {
    return [...this.actors.values()].map((a) => a.name);
  }

  beat(): HostBeat {
    return { hostId: this.hostId, hostName: this.options.hostName.slice(0, 256), pid: typeof process !== 'undefined' ? process.pid : 0, capacity: this.options.capacity, running: this.actors.size + this.starting };
  }

  private sendBeat(): void {
    if (this.closed) return;
    try {
      this.nc.publish(subjects.beat, encodeFrame(1, this.beat()));
    } catch {
      // disconnected: the client buffers or drops it; the next beat follows
    }
    const idle = this.options.idleTimeoutMs ?? 60_000;
    const now = Date.now();
    for (const a of [...this.actors.values()]) if (now - a.lastHeard > idle) void a.stop(`no message from its learner for ${idle} ms`);
    this.probeLearners(now);
  }

  private async onSpawn(data: Uint8Array, reply: string | undefined): Promise<void> {
    if (!reply) return;
    const answer = (r: SpawnReply): void => void this.nc.publish(reply, encodeFrame(1, r));
    let req;
    try {
      const parsed = spawnRequestSchema.safeParse(decodeFrame(data, this.options.caps ?? DEFAULT_CAPS).value);
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message);
      req = parsed.data;
    } catch (err) {
      this.stats.rejected.malformed++;
      return answer({ ok: false, error: `malformed spawn request: ${err instanceof Error ? err.message : String(err)}` });
    }
    if (this.closed) return answer({ ok: false, error: 'host is shutting down' });
    if (this.actors.has(req.actorId)) return answer({ ok: false, error: 'actor id in use' });
    if (this.actors.size + this.starting >= this.options.capacity) return answer({ ok: false, error: `host is full (${this.options.capacity} actors)` });
    this.starting++;
    let worker: SpawnedWorker;
    try {
      worker = await this.options.spawner.spawn({ name: req.name });
    } catch (err) {
      return answer({ ok: false, error: `could not start a worker: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      this.starting--;
    }
    if (this.closed) {
      await worker.terminate();
      return answer({ ok: false, error: 'host is shutting down' });
    }
    const actor = new HostedActor(this, req.actorId, req.name, worker, req.learner ?? null);
    this.actors.set(req.actorId, actor);
    this.work.started++;
    this.options.log?.(`actor ${req.name} (${req.actorId}) started`);
    answer({ ok: true, hostName: this.options.hostName.slice(0, 256) });
  }

  private readonly runs = new Map<string, Promise<{ publisher: SegmentPublisher; weights: WeightsStore }>>();

  /** The run's stream and weights (opened once per run, shared by this host's actors). */
  experience(route: StreamRoute): Promise<{ publisher: SegmentPublisher; weights: WeightsStore }> {
    const run = runIdOf(route.s, route.b);
    if (!run) return Promise.reject(new Error(`not a run's stream: ${route.s} / ${route.b}`));
    let p = this.runs.get(run);
    if (!p) {
      p = openExperience(this.nc, run, false).then((exp) => ({ publisher: this.options.publisher?.(exp) ?? new SegmentPublisher(exp), weights: new WeightsStore(exp.os) }));
      p.catch(() => this.runs.delete(run));
      this.runs.set(run, p);
    }
    return p;
  }

  forget(actor: HostedActor, why: string): void {
    if (this.actors.get(actor.actorId) === actor) this.actors.delete(actor.actorId);
    this.options.log?.(`actor ${actor.name} (${actor.actorId}) ended: ${why}`);
  }

  /** Stops every actor and stops offering slots (the connection stays the caller's). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.beatTimer);
    for (const s of this.subs) s.unsubscribe();
    await Promise.all([...this.actors.values()].map((a) => a.stop('host shutting down')));
  }
}

/** A streamed call: where its answer goes, under which message id. */
interface StreamedCall {
  route: StreamRoute;
  sid: string;
}

/** How many times a streamed call runs (a packed one: K > 1). */
const packOf = (route: StreamRoute): number => route.k ?? 1;

/** A streamed call waiting for its actor, with the weights it names being fetched meanwhile (null: the actor has them). */
interface QueuedCall {
  m: Extract<LearnerMessage, { type: 'APPLY' }>;
  route: StreamRoute;
  weights: Promise<Float32Array[]> | null;
}

class HostedActor {
  lastHeard = Date.now();
  private readonly sender: FrameSender;
  private readonly receiver: FrameReceiver<typeof actorInboundSchema>;
  private readonly sub: Subscription;
  private methods: ReadonlySet<string> | undefined;
  private initSent = false;
  private initAnswer: unknown;
  private readonly running = new Set<string>();
  private readonly answered = new Map<string, unknown>();
  /** Calls whose answer goes into a stream: their route and message id. */
  private readonly streamed = new Map<string, StreamedCall>();
  private segments = 0;
  /** Streamed calls not given to the actor yet, in the order they came. */
  private readonly queued: QueuedCall[] = [];
  /** The streamed call the actor is computing (its comlink id), or null. */
  private computing: string | null = null;
  /** This actor's segments being published, not acknowledged by the stream yet. */
  private unacked = 0;
  /** The weights version this actor was last given (a call for the same version passes null: the actor keeps its own). */
  private weightsVersion = -1;
  private ended = false;

  constructor(
    private readonly host: HostService,
    readonly actorId: string,
    readonly name: string,
    private readonly worker: SpawnedWorker,
    /** The learner that asked for it (null: it did not say). */
    readonly learner: string | null,
  ) {
    this.sender = new FrameSender(host.nc, subjects.actorOut(actorId), host.stats);
    this.receiver = new FrameReceiver(actorInboundSchema, host.stats, host.options.caps ?? DEFAULT_CAPS);
    this.sub = host.nc.subscribe(subjects.actorIn(actorId), { callback: (_e, msg) => this.onFrame(msg.data) });
    worker.endpoint.addEventListener('message', ((ev: MessageEvent) => this.fromWorker(ev.data)) as EventListener);
    worker.onExit((exit) => {
      if (this.ended) return;
      if (exit.reason !== 'exit' || exit.error) {
        host.work.died++;
        host.work.lastError = exit.error?.message ?? `actor worker ended (${exit.reason})`;
      }
      this.publish({ k: 'exit', reason: exit.reason, ...(exit.exitCode !== undefined ? { exitCode: exit.exitCode } : {}), ...(exit.error ? { error: serializeError(exit.error) } : {}) });
      this.finish(`worker ${exit.reason}${exit.exitCode !== undefined ? ` (code ${exit.exitCode})` : ''}`);
    });
  }

  private publish(value: unknown): void {
    try {
      this.sender.send(value);
    } catch (err) {
      const id = (value as { m?: { id?: unknown } }).m?.id;
      if (typeof id !== 'string') return;
      // An answer that cannot travel (too big, a value frames cannot carry) becomes an error for the caller.
      this.sender.send({ k: 'msg', m: { id, type: 'HANDLER', name: 'throw', value: { isError: true, value: serializeError(err) } } });
    }
  }

  private onFrame(data: Uint8Array): void {
    if (this.ended) return;
    const frame = this.receiver.accept(data);
    if (!frame) return;
    this.lastHeard = Date.now();
    if (frame.k === 'stop') {
      void this.stop('stopped by its learner');
      return;
    }
    const m = frame.m;
    if ('__parl' in m && m.__parl === 'init') {
      if (this.initAnswer !== undefined) this.publish({ k: 'msg', m: this.initAnswer });
      if (this.initSent) return;
      this.initSent = true;
      this.worker.endpoint.postMessage(m, collectTransferables(m.args));
    } else if ('__parl' in m) {
      this.worker.endpoint.postMessage(m, []);
    } else {
      const cached = this.answered.get(m.id);
      if (cached !== undefined) {
        this.host.stats.rejected.replayed++;
        this.publish({ k: 'msg', m: cached });
        return;
      }
      if (this.running.has(m.id)) return;
      const method = m.path[0];
      if (!this.methods?.has(method)) {
        this.publish({ k: 'msg', m: { id: m.id, type: 'HANDLER', name: 'throw', value: { isError: true, value: { name: 'TypeError', message: `actor ${this.name} has no method '${method}'` } } } });
        return;
      }
      this.running.add(m.id);
      if (!frame.x) {
        this.worker.endpoint.postMessage(m, collectTransferables(m.argumentList));
        return;
      }
      const route = frame.x;
      this.streamed.set(m.id, { route, sid: `${this.actorId}-${(this.segments++).toString(36)}` });
      this.queued.push({ m, route, weights: this.prefetch(route) });
      this.pump();
    }
  }

  /** Starts fetching the weights a queued call names, unless the actor has them already. */
  private prefetch(route: StreamRoute): Promise<Float32Array[]> | null {
    const version = route.w;
    if (version === null || version === this.weightsVersion) return null;
    const p = this.host.experience(route).then((e) => e.weights.fetch(version));
    p.catch(() => undefined); // its failure is reported when the call goes to the actor
    return p;
  }

  /** Gives the actor its next streamed call, if it is free and few enough of its segments await their PubAck. */
  private pump(): void {
    if (this.ended || this.computing !== null || this.unacked > MAX_UNACKED_WHILE_COMPUTING) return;
    const next = this.queued.shift();
    if (!next) return;
    this.computing = next.m.id;
    void this.dispatch(next);
  }

  private async dispatch({ m, route, weights }: QueuedCall): Promise<void> {
    let args = m.argumentList;
    const version = route.w;
    try {
      // Weights by version, fetched once per host and version; a copy for each actor (it is transferred).
      if (version !== null && version !== this.weightsVersion) {
        const shared = await (weights ?? this.host.experience(route).then((e) => e.weights.fetch(version)));
        args = [{ type: 'HANDLER' as const, name: 'parl-typed-arrays' as const, value: shared.map((w) => w.slice()) }, ...args.slice(1)];
      }
    } catch (err) {
      this.running.delete(m.id);
      this.streamed.delete(m.id);
      this.computing = null;
      this.publish({ k: 'msg', m: { id: m.id, type: 'HANDLER', name: 'throw', value: { isError: true, value: serializeError(err) } } });
      this.pump();
      return;
    }
    if (this.ended) return;
    if (version !== null) this.weightsVersion = version;
    const k = packOf(route);
    if (k === 1) {
      this.worker.endpoint.postMessage({ ...m, argumentList: args }, collectTransferables(args));
      return;
    }
    // The K calls in one message; the ones after the first pass null weights (the actor keeps those it was given).
    const rest = [{ type: 'RAW' as const, value: null }, ...args.slice(1)];
    this.worker.endpoint.postMessage({ __parl: 'repeat', id: m.id, method: m.path[0], k, first: args, rest }, collectTransferables(args));
  }

  /** A streamed call's answer (a packed one's: its K answers): into the run's stream; the learner gets the receipt (or the error). */
  private async toStream(m: { id: string; type: string; value?: unknown }, to: StreamedCall): Promise<void> {
    let answer: unknown;
    if (m.type === 'HANDLER' && (m as { name?: unknown }).name === 'throw') answer = m;
    else {
      try {
        const k = packOf(to.route);
        if (k > 1 && !(Array.isArray(m.value) && m.value.length === k)) throw new Error(`the actor answered a packed call of ${k} without ${k} answers`);
        const { publisher } = await this.host.experience(to.route);
        const r = k > 1 ? await publisher.publishPacked(to.sid, m.value as unknown[]) : await publisher.publish(to.sid, m.value);
        const receipt: StreamReceipt = { streamed: r.sid, seq: r.seq, messages: r.messages, bytes: r.bytes, segments: r.segments };
        answer = { id: m.id, type: 'RAW', value: receipt };
        this.host.work.segments += r.segments;
      } catch (err) {
        answer = { id: m.id, type: 'HANDLER', name: 'throw', value: { isError: true, value: serializeError(err) } };
      }
    }
    this.answered.set(m.id, answer);
    if (this.answered.size > ANSWER_CACHE) this.answered.delete(this.answered.keys().next().value as string);
    this.host.work.answered++;
    this.publish({ k: 'msg', m: answer });
  }

  private fromWorker(data: unknown): void {
    if (this.ended) return;
    const parsed = actorMessageSchema.safeParse(data);
    if (!parsed.success) return;
    const m = parsed.data;
    if ('id' in m) {
      const to = this.streamed.get(m.id);
      if (to) {
        // Still 'running' until its receipt is cached, so a resent request is not run again meanwhile.
        this.streamed.delete(m.id);
        if (this.computing === m.id) this.computing = null;
        this.unacked++;
        void this.toStream(m, to).finally(() => {
          this.running.delete(m.id);
          this.unacked--;
          this.pump();
        });
        // The next call goes to the actor while this segment is published.
        this.pump();
        return;
      }
      if (!this.running.delete(m.id)) return;
      this.host.work.answered++;
      this.answered.set(m.id, m);
      if (this.answered.size > ANSWER_CACHE) this.answered.delete(this.answered.keys().next().value as string);
    } else if (m.__parl === 'ready') {
      this.methods = new Set(m.methods);
      this.initAnswer = m;
    } else if (m.__parl === 'init-error') this.initAnswer = m;
    this.publish({ k: 'msg', m });
  }

  private finish(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.queued.length = 0;
    this.sub.unsubscribe();
    this.host.forget(this, why);
  }

  async stop(why: string): Promise<void> {
    if (this.ended) return;
    this.finish(why);
    await this.worker.terminate();
  }
}
