/**
 * The learner's side of cluster actors: an {@link ActorSpawner} whose "workers" live in actor
 * hosts reached through NATS. `remoteClass(Cls, { spawner })` and `ActorPool` work unchanged:
 * the spawned worker's endpoint turns the remote layer's messages into frames on
 * `parl.actor.<id>.in` and the host's frames on `parl.actor.<id>.out` back into messages.
 *
 * - A host is picked among those whose beat was heard lately, fewest of our actors per slot first.
 * - A host whose beats stop for `hostTimeoutMs` is declared dead: each of our actors on it ends
 *   with reason 'error', so the pool replaces it (on another host). While our own connection is
 *   down nobody is declared dead; after it comes back every host gets a fresh grace period.
 * - The learner answers its hosts' "are you there" requests (`parl.learner.<id>.alive`): once its
 *   connection is gone (a killed process), nats-server tells them nobody listens, and they free
 *   its actors' slots, so the same command run again gets its actors back at once.
 * - After a reconnect, every request not yet answered is sent again (with a new sequence number);
 *   the host answers a request it already ran from its cache instead of running it twice.
 * - A remote error names the host it happened on, and keeps the remote stack.
 */
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import type { Endpoint } from 'comlink';
import type { ActorSpawner, SpawnedWorker, WorkerExit } from '../core/remote/spawner';
import { FrameReceiver, FrameSender } from './channel';
import { decodeFrame, encodeFrame, type FrameCaps, DEFAULT_CAPS } from './codec';
import { randomId } from './ids';
import { actorOutboundSchema, emptyStats, hostBeatSchema, learnerMessageSchema, spawnReplySchema, subjects, type HostBeat, type LearnerMessage, type StreamRoute, type TransportStats } from './protocol';

export interface NatsSpawnerOptions {
  /** A host unheard of for this long is dead (default 3000 ms; hosts beat every 500 ms by default). */
  hostTimeoutMs?: number;
  /** How long spawn() waits for a host with a free slot (default 15000 ms). */
  spawnWaitMs?: number;
  caps?: FrameCaps;
  /** Called on every rejected frame (for notices); rejections are counted in stats either way. */
  onReject?(kind: keyof TransportStats['rejected'], why: string, actorName: string): void;
}

/** Decides which calls have their answer go into a JetStream stream (set by the async loop's segment source). */
export type CallRouter = (message: LearnerMessage) => StreamRoute | undefined;

/** What the learner has seen of one host, for the page's cluster panel (the xparl monitor). */
export interface HostReport {
  hostId: string;
  hostName: string;
  /** 'gone': its beats stopped (or it left); kept so the page can say so. */
  state: 'live' | 'gone';
  capacity: number;
  /** Actors it runs for every learner, from its last beat. */
  running: number;
  /** This learner's actors on it now. */
  ours: number;
  /** This learner's actors started on it, and those that died there (each one the pool replaced). */
  started: number;
  died: number;
  /** Calls it answered for this learner, and how many of those answers were segments put in the stream. */
  answered: number;
  segments: number;
  lastError: string | null;
}

/** Where each of this learner's live actors runs, by actor name (the name the pool reports). */
export interface ActorPlacement {
  actor: string;
  hostId: string;
  hostName: string;
}

/** How many hosts the report keeps (gone ones are dropped first). */
const MAX_REPORTED_HOSTS = 256;

interface KnownHost {
  beat: HostBeat;
  lastSeen: number;
  /** Our live actors on it. */
  ours: number;
}

type Listener = EventListenerOrEventListenerObject;

/** When unanswered requests are sent again after the learner reconnects (ms after the reconnect). */
const RESEND_AFTER_RECONNECT_MS = [0, 1_000, 2_500, 5_000];

export class NatsActorSpawner implements ActorSpawner {
  private readonly resendTimers = new Set<ReturnType<typeof setTimeout>>();
  readonly kind = 'nats';
  readonly stats: TransportStats = emptyStats();
  private readonly hosts = new Map<string, KnownHost>();
  private readonly actors = new Map<string, NatsActorWorker>();
  private readonly learnerId = randomId();
  private actorCount = 0;
  private connected = true;
  /** When our connection to the cluster went down (null: it is up). */
  private disconnectedAt: number | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly beatSub: Subscription;
  private readonly aliveSub: Subscription;
  private closed = false;
  private readonly hostTimeoutMs: number;
  private readonly hostListeners = new Set<() => void>();
  private readonly reports = new Map<string, HostReport>();
  /** Routes calls' answers into a stream; undefined: every answer comes back here. */
  router: CallRouter | undefined;

  constructor(
    readonly nc: NatsConnection,
    private readonly options: NatsSpawnerOptions = {},
  ) {
    this.hostTimeoutMs = options.hostTimeoutMs ?? 3000;
    this.beatSub = nc.subscribe(subjects.beat, { callback: (_err, msg) => this.onBeat(msg.data) });
    this.aliveSub = nc.subscribe(subjects.learnerAlive(this.learnerId), { callback: (_err, msg) => void msg.respond(encodeFrame(1, null)) });
    this.timer = setInterval(() => this.expireHosts(), Math.max(50, Math.min(500, this.hostTimeoutMs / 4)));
    (this.timer as { unref?: () => void }).unref?.();
    void this.watchStatus();
    void this.discover();
  }

  /** How long our connection to the cluster has been down (null: it is up). */
  disconnectedForMs(): number | null {
    return this.disconnectedAt === null ? null : Date.now() - this.disconnectedAt;
  }

  /** Hosts heard from lately. */
  liveHosts(): HostBeat[] {
    return [...this.hosts.values()].map((h) => h.beat);
  }

  /** Asks every host to answer with its beat (also done at start). */
  async discover(): Promise<void> {
    try {
      const replies = await this.nc.requestMany(subjects.discover, encodeFrame(1, null), { maxWait: 300 });
      for await (const msg of replies) this.onBeat(msg.data);
    } catch {
      // no host yet, or we are closing: beats will tell us
    }
  }

  private onBeat(data: Uint8Array): void {
    let beat: HostBeat;
    try {
      const parsed = hostBeatSchema.safeParse(decodeFrame(data, this.options.caps ?? DEFAULT_CAPS).value);
      if (!parsed.success) throw new Error('bad beat');
      beat = parsed.data;
    } catch {
      this.stats.rejected.malformed++;
      return;
    }
    this.noteBeat(beat);
    const known = this.hosts.get(beat.hostId);
    if (known) {
      known.beat = beat;
      known.lastSeen = Date.now();
    } else {
      this.hosts.set(beat.hostId, { beat, lastSeen: Date.now(), ours: 0 });
    }
    for (const l of [...this.hostListeners]) l();
  }

  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect') {
        this.connected = false;
        this.disconnectedAt ??= Date.now();
      } else if (s.type === 'reconnect') {
        this.connected = true;
        this.disconnectedAt = null;
        const now = Date.now();
        for (const h of this.hosts.values()) h.lastSeen = now;
        // Hosts reconnect on their own schedule, and core NATS keeps nothing for a host that is not
        // back yet, so unanswered requests go out again a few times (hosts answer a repeat from cache).
        for (const delay of RESEND_AFTER_RECONNECT_MS) {
          const timer = setTimeout(() => {
            this.resendTimers.delete(timer);
            if (!this.closed && this.connected) for (const a of this.actors.values()) a.resendUnanswered();
          }, delay);
          this.resendTimers.add(timer);
        }
      }
    }
  }

  private expireHosts(): void {
    if (!this.connected || this.closed) return;
    const now = Date.now();
    for (const [id, h] of this.hosts) {
      if (now - h.lastSeen <= this.hostTimeoutMs) continue;
      this.hosts.delete(id);
      const error = new Error(`actor host ${h.beat.hostName} (${id}) stopped answering: no heartbeat for ${now - h.lastSeen} ms`);
      const report = this.reports.get(id);
      if (report) Object.assign(report, { state: 'gone', ours: 0, lastError: error.message });
      for (const a of [...this.actors.values()]) if (a.hostId === id) a.end({ reason: 'error', error });
    }
  }

  private candidates(): KnownHost[] {
    return [...this.hosts.values()]
      .filter((h) => h.beat.capacity > 0)
      .sort((a, b) => a.ours / a.beat.capacity - b.ours / b.beat.capacity || b.beat.capacity - b.beat.running - (a.beat.capacity - a.beat.running));
  }

  private waitForHosts(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.hostListeners.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.hostListeners.add(done);
    });
  }

  async spawn({ name }: { name: string }): Promise<SpawnedWorker> {
    const deadline = Date.now() + (this.options.spawnWaitMs ?? 15_000);
    const refusals: string[] = [];
    while (!this.closed) {
      for (const host of this.candidates()) {
        const actorId = `${this.learnerId}-${(this.actorCount++).toString(36)}`;
        // Subscribe before asking, so not even the host's first frame can be missed.
        const worker = new NatsActorWorker(this, actorId, name, host.beat.hostId, host.beat.hostName);
        // Counted before the answer, so spawns made at the same time spread over the hosts.
        host.ours++;
        let reply;
        try {
          const msg = await this.nc.request(subjects.spawn(host.beat.hostId), encodeFrame(1, { actorId, name, learner: this.learnerId }), { timeout: 2000 });
          const parsed = spawnReplySchema.safeParse(decodeFrame(msg.data).value);
          reply = parsed.success ? parsed.data : { ok: false as const, error: 'malformed spawn reply' };
        } catch (err) {
          reply = { ok: false as const, error: err instanceof Error ? err.message : String(err) };
        }
        if (reply.ok) {
          worker.hostName = reply.hostName;
          this.actors.set(actorId, worker);
          const report = this.reports.get(host.beat.hostId);
          if (report) report.started++;
          return worker;
        }
        host.ours = Math.max(0, host.ours - 1);
        worker.dispose();
        refusals.push(`${host.beat.hostName}: ${reply.error}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      await this.waitForHosts(Math.min(left, 500));
    }
    throw new Error(`no actor host could take actor ${name} (hosts seen: ${this.hosts.size}${refusals.length ? `; last refusals: ${refusals.slice(-3).join('; ')}` : ''})`);
  }

  /** Called by a worker when it ends. */
  forget(worker: NatsActorWorker): void {
    if (this.actors.get(worker.actorId) !== worker) return;
    this.actors.delete(worker.actorId);
    const host = this.hosts.get(worker.hostId);
    if (host) host.ours = Math.max(0, host.ours - 1);
  }

  /** Every host heard from since this spawner started (gone ones too), with what it did for this learner. */
  hostReports(): HostReport[] {
    return [...this.reports.values()].map((r) => ({ ...r, ours: r.state === 'live' ? (this.hosts.get(r.hostId)?.ours ?? 0) : 0 }));
  }

  /** Which host each of this learner's live actors runs on. */
  placements(): ActorPlacement[] {
    return [...this.actors.values()].map((a) => ({ actor: a.name, hostId: a.hostId, hostName: a.hostName }));
  }

  private noteBeat(beat: HostBeat): void {
    const r = this.reports.get(beat.hostId);
    if (r) {
      Object.assign(r, { hostName: beat.hostName, capacity: beat.capacity, running: beat.running });
      if (r.state === 'gone') r.state = 'live';
      return;
    }
    this.reports.set(beat.hostId, { hostId: beat.hostId, hostName: beat.hostName, state: 'live', capacity: beat.capacity, running: beat.running, ours: 0, started: 0, died: 0, answered: 0, segments: 0, lastError: null });
    if (this.reports.size > MAX_REPORTED_HOSTS) {
      const drop = [...this.reports.values()].find((x) => x.state === 'gone') ?? this.reports.values().next().value;
      if (drop) this.reports.delete(drop.hostId);
    }
  }

  /** A call answered by an actor on `hostId` (`streamed`: its answer went into the run's stream). */
  noteAnswer(hostId: string, streamed: boolean): void {
    const r = this.reports.get(hostId);
    if (!r) return;
    r.answered++;
    if (streamed) r.segments++;
  }

  /** One of our actors on `hostId` ended; an exit other than our own stop is a death. */
  noteEnd(hostId: string, exit: WorkerExit): void {
    const r = this.reports.get(hostId);
    if (!r || (exit.reason === 'exit' && exit.exitCode === 0 && !exit.error)) return;
    r.died++;
    r.lastError = exit.error?.message ?? `actor worker ended (${exit.reason}${exit.exitCode !== undefined ? `, code ${exit.exitCode}` : ''})`;
  }

  reject(kind: keyof TransportStats['rejected'], why: string, actorName: string): void {
    this.options.onReject?.(kind, why, actorName);
  }

  get caps(): FrameCaps {
    return this.options.caps ?? DEFAULT_CAPS;
  }

  /** Stops our actors on their hosts and our subscriptions (not the connection). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.resendTimers) clearTimeout(timer);
    this.resendTimers.clear();
    clearInterval(this.timer);
    await Promise.all([...this.actors.values()].map((a) => a.terminate()));
    this.beatSub.unsubscribe();
    this.aliveSub.unsubscribe();
  }
}

/** One actor in a host, seen from the learner: the SpawnedWorker the remote layer talks to. */
class NatsActorWorker implements SpawnedWorker {
  readonly endpoint: Endpoint;
  private readonly listeners = new Set<Listener>();
  private readonly exitListeners: Array<(exit: WorkerExit) => void> = [];
  private ended: WorkerExit | undefined;
  private readonly sender: FrameSender;
  private readonly receiver: FrameReceiver<typeof actorOutboundSchema>;
  private readonly sub: Subscription;
  /** Frames of requests not answered yet, by comlink id or 'ping:<seq>' / 'init'; sent again after a reconnect. */
  private readonly unanswered = new Map<string, unknown>();

  constructor(
    private readonly spawner: NatsActorSpawner,
    readonly actorId: string,
    readonly name: string,
    readonly hostId: string,
    public hostName: string,
  ) {
    const nc = spawner.nc;
    this.sender = new FrameSender(nc, subjects.actorIn(actorId), spawner.stats);
    this.receiver = new FrameReceiver(actorOutboundSchema, spawner.stats, spawner.caps, (kind, why) => spawner.reject(kind, why, name));
    this.sub = nc.subscribe(subjects.actorOut(actorId), { callback: (_err, msg) => this.onFrame(msg.data) });
    this.endpoint = {
      postMessage: (message: unknown) => this.post(message),
      addEventListener: (type: string, l: Listener) => {
        if (type === 'message') this.listeners.add(l);
      },
      removeEventListener: (type: string, l: Listener) => {
        if (type === 'message') this.listeners.delete(l);
      },
    };
  }

  private post(message: unknown): void {
    if (this.ended) return;
    if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'RELEASE') {
      // comlink releasing its proxy: nothing to tell the host; answer it here.
      const id = (message as { id?: unknown }).id;
      queueMicrotask(() => this.deliver({ id, type: 'RAW', value: undefined }));
      return;
    }
    if (typeof message === 'object' && message !== null && (message as { __parl?: unknown; module?: unknown }).__parl === 'init' && (message as { module?: unknown }).module !== undefined) {
      throw new Error(`cluster actors cannot load a module (no code travels): register the actor class in the host's own code (src/workers/actorClasses.ts)`);
    }
    const checked = learnerMessageSchema.safeParse(message);
    if (!checked.success) throw new Error(`cannot send this message to a cluster actor: ${checked.error.issues[0]?.message ?? 'schema mismatch'}`);
    const m = checked.data;
    const key = 'id' in m ? m.id : m.__parl === 'ping' ? `ping:${m.seq}` : 'init';
    const x = this.spawner.router?.(m);
    const frame = x ? { k: 'msg', m, x } : { k: 'msg', m };
    this.unanswered.set(key, frame);
    this.sender.send(frame);
  }

  resendUnanswered(): void {
    if (this.ended) return;
    for (const frame of this.unanswered.values()) {
      try {
        this.sender.send(frame);
      } catch {
        // still disconnected: the next reconnect sends it again
      }
    }
  }

  private onFrame(data: Uint8Array): void {
    if (this.ended) return;
    const frame = this.receiver.accept(data);
    if (!frame) return;
    if (frame.k === 'exit') {
      this.end({ reason: frame.reason, exitCode: frame.exitCode, error: frame.error ? Object.assign(new Error(`${frame.error.message} (on actor host ${this.hostName})`), { name: frame.error.name }) : undefined });
      return;
    }
    const m = frame.m;
    if ('id' in m) {
      if (!this.unanswered.delete(m.id)) {
        // An answer to nothing we are waiting for: a duplicate after a resend, or injected.
        this.spawner.stats.rejected.replayed++;
        return;
      }
      const value: unknown = m.type === 'RAW' ? m.value : undefined;
      this.spawner.noteAnswer(this.hostId, typeof value === 'object' && value !== null && typeof (value as { streamed?: unknown }).streamed === 'string');
      if (m.type === 'HANDLER' && m.name === 'throw') {
        const v = m.value.value as { message?: unknown; stack?: unknown; name?: unknown } | null;
        if (m.value.isError && v && typeof v === 'object') {
          this.deliver({ ...m, value: { isError: true, value: { name: String(v.name ?? 'Error'), message: `${String(v.message)} (on actor host ${this.hostName})`, stack: typeof v.stack === 'string' ? `${v.stack}\n    at actor host ${this.hostName}` : undefined } } });
          return;
        }
      }
    } else if (m.__parl === 'pong') this.unanswered.delete(`ping:${m.seq}`);
    else {
      this.unanswered.delete('init');
      if (m.__parl === 'init-error') m.error.message = `${m.error.message} (on actor host ${this.hostName})`;
    }
    this.deliver(m);
  }

  private deliver(data: unknown): void {
    const ev = { data } as MessageEvent;
    for (const l of [...this.listeners]) {
      if (typeof l === 'function') l(ev);
      else l.handleEvent(ev);
    }
  }

  onExit(listener: (exit: WorkerExit) => void): void {
    if (this.ended) listener(this.ended);
    else this.exitListeners.push(listener);
  }

  end(exit: WorkerExit): void {
    if (this.ended) return;
    this.ended = exit;
    this.spawner.noteEnd(this.hostId, exit);
    this.dispose();
    for (const l of this.exitListeners) l(exit);
  }

  dispose(): void {
    this.unanswered.clear();
    this.sub.unsubscribe();
    this.spawner.forget(this);
  }

  async terminate(): Promise<void> {
    if (!this.ended) {
      try {
        this.sender.send({ k: 'stop' });
      } catch {
        // the host stops an actor whose learner went away when its beat check says so
      }
      this.end({ reason: 'exit', exitCode: 0 });
    }
  }
}
