/**
 * Experience and weights through JetStream, for one run (`runId`):
 *
 *   stream  PARL_EXP_<run>, subject parl.exp.<run>.seg   work queue: one message per segment, or
 *           per K consecutive segments of one actor (packed, K ≤ MAX_PACK; their ids `<sid>#<j>`),
 *           Nats-Msg-Id = the message id (the server drops a re-sent copy within 2 minutes)
 *   objects parl-<run>:  w-<version>  the learner's weights, versioned (actors' hosts fetch by version)
 *                        s-<sid>      a message above the payload limit (its stream message is a reference)
 *                        checkpoint   the learner's last checkpoint (weights, update, learned segment ids)
 *
 * Exactly-once learning: the learner acks a segment only after a checkpoint that includes the
 * update it went into has been stored. Killed before that checkpoint, the message comes back
 * (AckWait) and is learned from again by a learner whose state does not include it; killed after
 * the checkpoint but before the ack, the message comes back too, and its id is in the
 * checkpoint's ledger: acked, counted as redelivered, not learned twice. A message with an id
 * already learned under another stream sequence is a replay: rejected and counted. Malformed and
 * oversized messages are counted, and acked (removed) only at the next checkpoint, so their
 * counts survive a restart too. A packed message is acked once every one of its segments is in a
 * stored checkpoint; a restart between two of them learns only the rest. Learned and redelivered
 * count segments; a rejected message counts once, its reason saying how many segments it held.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { nanos } from '@nats-io/nats-core';
import { AckPolicy, jetstream, jetstreamManager, RetentionPolicy, type Consumer, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { z } from 'zod';
import { decodeFrame, DEFAULT_CAPS, encodeFrame, FrameError, type FrameCaps } from './codec';
import { MAX_PACK, type RejectCounts } from './protocol';

const runToken = /^[A-Za-z0-9_-]{1,48}$/;
export const sidPattern = /^[A-Za-z0-9_-]{1,64}$/;

export interface ExperienceNames {
  stream: string;
  subject: string;
  bucket: string;
}

export function experienceNames(runId: string): ExperienceNames {
  if (!runToken.test(runId)) throw new Error(`a cluster run id is 1-48 letters, digits, '_' or '-', got ${JSON.stringify(runId)}`);
  return { stream: `PARL_EXP_${runId}`, subject: `parl.exp.${runId}.seg`, bucket: `parl-${runId}` };
}

/** Parses a subject / bucket pair a learner named (hosts accept only these shapes). */
export function runIdOf(subject: string, bucket: string): string | null {
  const m = /^parl\.exp\.([A-Za-z0-9_-]{1,48})\.seg$/.exec(subject);
  return m && bucket === `parl-${m[1]}` ? m[1] : null;
}

export interface Experience {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly os: ObjectStore;
  readonly names: ExperienceNames;
}

/** Opens the run's stream and object store, creating them when `create` (the learner does; hosts only open). */
export async function openExperience(nc: NatsConnection, runId: string, create: boolean): Promise<Experience> {
  const names = experienceNames(runId);
  const js = jetstream(nc);
  const objm = new Objm(nc);
  if (create) {
    const jsm = await jetstreamManager(nc);
    const config = { name: names.stream, subjects: [names.subject], retention: RetentionPolicy.Workqueue, duplicate_window: nanos(120_000), max_msg_size: nc.info?.max_payload ?? DEFAULT_CAPS.maxBytes };
    try {
      await jsm.streams.info(names.stream);
    } catch {
      await jsm.streams.add(config);
    }
    return { nc, js, os: await objm.create(names.bucket), names };
  }
  return { nc, js, os: await objm.open(names.bucket), names };
}

// ---------------------------------------------------------------- segments on the wire

const f32 = z.instanceof(Float32Array);
const i32 = z.instanceof(Int32Array);
const u8 = z.instanceof(Uint8Array);
const count = z.number().int().min(0).max(1_000_000);
/** A Segment (src/engine/segments.ts) as plain data; the learner's own check (dims, lengths) follows. */
export const wireSegmentSchema = z.strictObject({
  actorIndex: z.number().int().min(-1).max(1_000_000),
  policyVersion: z.number().int().min(0),
  T: count,
  numEnvs: count,
  obsDim: count,
  obs: f32,
  actions: i32,
  logProbs: f32,
  rewards: f32,
  dones: u8,
  truncated: u8,
  finalIndex: i32,
  finalObs: f32,
  lastObs: f32,
  episodeReturns: f32,
  episodeLengths: i32,
  seconds: z.number().min(0),
});
export type WireSegment = z.infer<typeof wireSegmentSchema>;

const sid = z.string().regex(sidPattern);
const singleMessage = z.strictObject({ sid, sentAt: z.number(), seg: z.unknown() });
/** K consecutive segments of one actor in one message (K ≥ 2; one segment goes as `seg`). */
const packedMessage = z.strictObject({ sid, sentAt: z.number(), segs: z.array(z.unknown()).min(2).max(MAX_PACK) });
const inlineMessage = z.union([singleMessage, packedMessage]);
/** A message above the payload limit, stored whole in the object store; `n` its segments (absent: 1). */
const refMessage = z.strictObject({ sid, sentAt: z.number(), ref: z.string().regex(/^s-[A-Za-z0-9_-]{1,64}$/), bytes: z.number().int().positive(), n: z.number().int().min(2).max(MAX_PACK).optional() });
const streamMessageSchema = z.union([singleMessage, packedMessage, refMessage]);

/**
 * The id under which segment `j` of message `sid` is learned (the ledger's key): the message id
 * itself for a message of one segment, `sid#j` for a packed one.
 */
export function segmentKey(sid: string, j: number, of: number): string {
  return of === 1 ? sid : `${sid}#${j}`;
}

/** Room left under the payload limit for the headers (Nats-Msg-Id and the client's own). */
const HEADER_ROOM = 4096;

export interface PublishReceipt {
  sid: string;
  seq: number;
  /** Messages this segment took: 1 on the stream, plus the object store's chunks when it went there. */
  messages: number;
  bytes: number;
  duplicate: boolean;
  /** Segments in the message. */
  segments: number;
}

/** Puts segments into the run's stream (an actor host does this for its actors). */
export class SegmentPublisher {
  constructor(private readonly exp: Experience) {}

  /** One segment as one stream message, its id `segmentId`. */
  publish(segmentId: string, seg: unknown, sentAt = Date.now()): Promise<PublishReceipt> {
    return this.put(segmentId, { sid: segmentId, sentAt, seg }, 1);
  }

  /** Consecutive segments of one actor as ONE stream message, its id `messageId` (one segment: as {@link publish}). */
  publishPacked(messageId: string, segs: readonly unknown[], sentAt = Date.now()): Promise<PublishReceipt> {
    if (segs.length < 1 || segs.length > MAX_PACK) throw new Error(`a stream message packs 1 to ${MAX_PACK} segments, not ${segs.length}`);
    if (segs.length === 1) return this.publish(messageId, segs[0], sentAt);
    return this.put(messageId, { sid: messageId, sentAt, segs: [...segs] }, segs.length);
  }

  private async put(messageId: string, body: { sid: string; sentAt: number; seg: unknown } | { sid: string; sentAt: number; segs: unknown[] }, n: number): Promise<PublishReceipt> {
    if (!sidPattern.test(messageId)) throw new Error(`bad segment id ${JSON.stringify(messageId)}`);
    const limit = (this.exp.nc.info?.max_payload ?? DEFAULT_CAPS.maxBytes) - HEADER_ROOM;
    let frame = encodeFrame(1, body);
    let messages = 1;
    const bytes = frame.byteLength;
    if (frame.byteLength > limit) {
      // Above the payload limit: the whole message goes to the object store, a reference to it on the stream.
      const name = `s-${messageId}`;
      const info = await this.exp.os.putBlob({ name }, frame);
      messages += info.chunks;
      frame = encodeFrame(1, { sid: messageId, sentAt: body.sentAt, ref: name, bytes: frame.byteLength, ...(n > 1 ? { n } : {}) });
    }
    const ack = await this.exp.js.publish(this.exp.names.subject, frame, { msgID: messageId });
    return { sid: messageId, seq: ack.seq, messages, bytes, duplicate: ack.duplicate, segments: n };
  }
}

// ---------------------------------------------------------------- the learner's side

export interface LearnerCheckpoint {
  /** Updates done. */
  update: number;
  /** Version of the weights actors act with. */
  version: number;
  weights: Float32Array[];
  /** Env steps learned from so far (the run's budget counts them); absent in checkpoints stored before it was kept. */
  envSteps?: number;
  /** Segments learned from, in order (the most recent `ledgerSize`), with their stream sequences. */
  learned: Array<[string, number]>;
  taken: number;
  rejected: RejectCounts;
  redelivered: number;
}

const CHECKPOINT_CAPS: FrameCaps = { ...DEFAULT_CAPS, maxBytes: 512 * 1024 * 1024, maxBlobs: 4096 };

export async function saveCheckpoint(os: ObjectStore, c: LearnerCheckpoint): Promise<void> {
  const sids = new TextEncoder().encode(c.learned.map(([s]) => s).join('\n'));
  const seqs = Float64Array.from(c.learned, ([, q]) => q);
  const frame = encodeFrame(1, { update: c.update, version: c.version, weights: c.weights, sids, seqs, taken: c.taken, rejected: c.rejected, redelivered: c.redelivered, ...(c.envSteps !== undefined ? { envSteps: c.envSteps } : {}) });
  await os.putBlob({ name: 'checkpoint' }, frame);
}

const checkpointSchema = z.strictObject({
  update: z.number().int().min(0),
  version: z.number().int().min(0),
  weights: z.array(f32).max(4096),
  sids: u8,
  seqs: z.instanceof(Float64Array),
  taken: z.number().int().min(0),
  rejected: z.strictObject({ malformed: z.number().int().min(0), oversized: z.number().int().min(0), replayed: z.number().int().min(0) }),
  redelivered: z.number().int().min(0),
  envSteps: z.number().int().min(0).optional(),
});

export async function loadCheckpoint(os: ObjectStore): Promise<LearnerCheckpoint | null> {
  const data = await os.getBlob('checkpoint');
  if (!data) return null;
  const parsed = checkpointSchema.safeParse(decodeFrame(data, CHECKPOINT_CAPS).value);
  if (!parsed.success) throw new Error(`the run's checkpoint is damaged: ${parsed.error.issues[0]?.message ?? ''}`);
  const c = parsed.data;
  const names = c.sids.byteLength ? new TextDecoder().decode(c.sids).split('\n') : [];
  if (names.length !== c.seqs.length) throw new Error("the run's checkpoint is damaged: ledger lengths differ");
  return { update: c.update, version: c.version, weights: c.weights, learned: names.map((s, i) => [s, c.seqs[i]]), taken: c.taken, rejected: c.rejected, redelivered: c.redelivered, ...(c.envSteps !== undefined ? { envSteps: c.envSteps } : {}) };
}

export interface TakenSegment {
  /** The segment's ledger key ({@link segmentKey}): its message id, `sid#j` inside a packed message. */
  sid: string;
  /** The stream sequence of the message it came in. */
  seq: number;
  seg: WireSegment;
  /** Milliseconds from the host's publish to this take. */
  latencyMs: number;
}

export interface ConsumerOptions {
  durable?: string;
  /** Redelivery of a message not acked for this long (default 10 s). */
  ackWaitMs?: number;
  /** Caps for one message (default 16 MiB whole, through the object store). */
  caps?: FrameCaps;
  /** The learner's own check of a segment (dims, lengths): a reason, or null when it is fine. */
  check?(seg: WireSegment): string | null;
  /** How many learned segment ids the checkpoint keeps (default 100 000). */
  ledgerSize?: number;
  onReject?(kind: keyof RejectCounts, why: string): void;
}

export interface ConsumerStats {
  /** Segments learned (committed); a packed message counts each of its segments. */
  taken: number;
  /** Messages turned away, one each whatever the segments in it (the reason says how many). */
  rejected: RejectCounts;
  /** Segments that came back already learned (in the checkpoint's ledger). */
  redelivered: number;
  /** Stream messages read, and their bytes (object-store chunks included). */
  messages: number;
  bytes: number;
  latenciesMs: number[];
}

/** A message taken (or rejected), waiting for its ack: every delivery of it, its object-store entry, its segments not committed yet. */
interface HeldMessage {
  msgs: JsMsg[];
  ref?: string;
  uncommitted: number;
}

/**
 * The learner's durable pull consumer on the run's stream. A packed message is split into its
 * segments; those beyond what a take asked for wait for the next take, and the message is acked
 * only once a commit included every one of them.
 */
export class SegmentConsumer {
  readonly stats: ConsumerStats = { taken: 0, rejected: { malformed: 0, oversized: 0, replayed: 0 }, redelivered: 0, messages: 0, bytes: 0, latenciesMs: [] };
  private readonly ledger = new Map<string, number>();
  /** Messages taken (or rejected) and not acked yet, by stream sequence: a message the server sends again meanwhile is not counted twice. */
  private readonly held = new Map<number, HeldMessage>();
  /** Segments of taken messages not handed out yet (a packed message bigger than a take). */
  private pending: TakenSegment[] = [];
  /** Message ids taken since the last commit and their sequence: a replay before the ledger has them is caught too. */
  private readonly uncommittedIds = new Map<string, number>();
  /** Segments in the last message taken: how many messages a take fetches. */
  private lastPack = 1;
  private closed = false;

  private constructor(
    readonly exp: Experience,
    private readonly consumer: Consumer,
    private readonly options: ConsumerOptions,
  ) {}

  static async open(exp: Experience, options: ConsumerOptions = {}): Promise<SegmentConsumer> {
    const durable = options.durable ?? 'learner';
    const jsm = await jetstreamManager(exp.nc);
    const config = { durable_name: durable, ack_policy: AckPolicy.Explicit, ack_wait: nanos(options.ackWaitMs ?? 10_000), max_ack_pending: 10_000 };
    try {
      await jsm.consumers.info(exp.names.stream, durable);
      await jsm.consumers.update(exp.names.stream, durable, { ack_wait: config.ack_wait, max_ack_pending: config.max_ack_pending });
    } catch {
      await jsm.consumers.add(exp.names.stream, config);
    }
    return new SegmentConsumer(exp, await exp.js.consumers.get(exp.names.stream, durable), options);
  }

  /** Starts from a checkpoint's ledger and counts. */
  restore(c: LearnerCheckpoint): void {
    this.ledger.clear();
    for (const [s, q] of c.learned) this.ledger.set(s, q);
    this.stats.taken = c.taken;
    this.stats.rejected = { ...c.rejected };
    this.stats.redelivered = c.redelivered;
  }

  /** Learned segment ids, oldest first (the most recent `ledgerSize`). */
  learned(): Array<[string, number]> {
    return [...this.ledger];
  }

  /**
   * Up to `n` checked segments, waiting until `n` came or `waitMs` passed (then fewer, maybe none);
   * [] once closed. Rejected messages are counted and held for removal at the next commit.
   */
  async take(n: number, waitMs = 30_000): Promise<TakenSegment[]> {
    const out = this.closed ? [] : this.pending.splice(0, n);
    const deadline = Date.now() + waitMs;
    while (out.length < n && !this.closed && Date.now() < deadline) {
      let msgs;
      try {
        msgs = await this.consumer.fetch({ max_messages: Math.max(1, Math.ceil((n - out.length) / this.lastPack)), expires: Math.max(1000, Math.min(5000, deadline - Date.now())) });
      } catch (err) {
        if (this.closed) break;
        await new Promise((r) => setTimeout(r, 200)); // disconnected: the client reconnects
        if (err instanceof Error && /closed/i.test(err.message)) break;
        continue;
      }
      for await (const msg of msgs) {
        const got = await this.check(msg);
        const room = Math.max(0, n - out.length);
        out.push(...got.slice(0, room));
        this.pending.push(...got.slice(room));
      }
    }
    return out;
  }

  private reject(msg: JsMsg, kind: keyof RejectCounts, why: string): [] {
    this.stats.rejected[kind]++;
    this.options.onReject?.(kind, why);
    this.hold(msg, undefined, 0);
    return [];
  }

  private hold(msg: JsMsg, ref: string | undefined, uncommitted: number): void {
    this.held.set(msg.seq, ref === undefined ? { msgs: [msg], uncommitted } : { msgs: [msg], ref, uncommitted });
  }

  /** The segments of a message not learned yet, checked; [] when it is rejected, already learned, or a copy of one held. */
  private async check(msg: JsMsg): Promise<TakenSegment[]> {
    const prior = this.held.get(msg.seq);
    if (prior) {
      // Sent again because the ack wait ran out while we held it (a slow update): already taken or
      // counted, so it is only acked with the first delivery.
      prior.msgs.push(msg);
      return [];
    }
    this.stats.messages++;
    this.stats.bytes += msg.data.byteLength;
    const caps = this.options.caps ?? { ...DEFAULT_CAPS, maxBytes: 16 * 1024 * 1024 };
    let head;
    try {
      const parsed = streamMessageSchema.safeParse(decodeFrame(msg.data, { ...caps, maxBytes: Math.min(caps.maxBytes, DEFAULT_CAPS.maxBytes) }).value);
      if (!parsed.success) return this.reject(msg, 'malformed', parsed.error.issues[0]?.message ?? 'schema mismatch');
      head = parsed.data;
    } catch (err) {
      return this.reject(msg, err instanceof FrameError ? err.kind : 'malformed', err instanceof Error ? err.message : String(err));
    }
    const n = 'segs' in head ? head.segs.length : 'ref' in head ? (head.n ?? 1) : 1;
    const what = n > 1 ? `packed message ${head.sid} (${n} segments)` : `segment ${head.sid}`;
    const keys = Array.from({ length: n }, (_, j) => segmentKey(head.sid, j, n));
    const known = keys.map((k) => this.ledger.get(k));
    const seenAt = this.uncommittedIds.get(head.sid);
    if (known.some((q) => q !== undefined && q !== msg.seq) || (seenAt !== undefined && seenAt !== msg.seq)) return this.reject(msg, 'replayed', `${what} was already learned from`);
    const learnedBefore = known.filter((q) => q === msg.seq).length;
    // Learned and checkpointed (all of it, or the first segments of a packed one), but the ack did not reach the server before a restart.
    this.stats.redelivered += learnedBefore;
    if (learnedBefore === n) {
      this.hold(msg, undefined, 0);
      return [];
    }
    let values: unknown[];
    if ('ref' in head) {
      if (head.bytes > caps.maxBytes) return this.reject(msg, 'oversized', `${what} of ${head.bytes} bytes exceeds ${caps.maxBytes}`);
      const blob = await this.exp.os.getBlob(head.ref).catch(() => null);
      if (!blob) return this.reject(msg, 'malformed', `${what}: ${head.ref} is not in the object store`);
      this.stats.bytes += blob.byteLength;
      this.stats.messages += Math.ceil(blob.byteLength / (128 * 1024));
      try {
        const inner = inlineMessage.safeParse(decodeFrame(blob, caps).value);
        if (!inner.success || inner.data.sid !== head.sid) return this.reject(msg, 'malformed', `${what}: the stored message does not match its reference`);
        values = 'segs' in inner.data ? inner.data.segs : [inner.data.seg];
        if (values.length !== n) return this.reject(msg, 'malformed', `${what}: the stored message holds ${values.length} segments`);
      } catch (err) {
        return this.reject(msg, err instanceof FrameError ? err.kind : 'malformed', `${what}: ${err instanceof Error ? err.message : String(err)}`);
      }
    } else values = 'segs' in head ? head.segs : [head.seg];
    // All or nothing: one bad segment rejects the whole message (its unit of dedupe and ack).
    const segs: WireSegment[] = [];
    for (let j = 0; j < n; j++) {
      const seg = wireSegmentSchema.safeParse(values[j]);
      const at = n > 1 ? ` (segment ${j})` : '';
      if (!seg.success) return this.reject(msg, 'malformed', `${what}: not a segment${at}: ${seg.error.issues[0]?.path.join('.') ?? ''} ${seg.error.issues[0]?.message ?? ''}`);
      const why = this.options.check?.(seg.data) ?? null;
      if (why) return this.reject(msg, 'malformed', `${what}${at}: ${why}`);
      segs.push(seg.data);
    }
    const fresh = segs.map((seg, j) => ({ sid: keys[j], seq: msg.seq, seg, latencyMs: Math.max(0, Date.now() - head.sentAt) })).filter((_, j) => known[j] === undefined);
    this.hold(msg, 'ref' in head ? head.ref : undefined, fresh.length);
    this.uncommittedIds.set(head.sid, msg.seq);
    this.lastPack = n;
    for (const t of fresh) this.stats.latenciesMs.push(t.latencyMs);
    if (this.stats.latenciesMs.length > 100_000) this.stats.latenciesMs.splice(0, 50_000);
    return fresh;
  }

  /**
   * Call after the update that used `learned` (the segments taken since the last commit, in order):
   * stores the checkpoint (with them in its ledger), then acks every held message all of whose
   * segments are now learned (the rejected ones too: they are counted in it); a packed message
   * with segments still waiting for a take stays held. A crash before the checkpoint is stored
   * loses nothing (they come back).
   */
  async commit(learned: readonly TakenSegment[], state: { update: number; version: number; weights: Float32Array[]; envSteps?: number }): Promise<void> {
    for (const t of learned) {
      this.ledger.set(t.sid, t.seq);
      const h = this.held.get(t.seq);
      if (h) h.uncommitted--;
    }
    const max = this.options.ledgerSize ?? 100_000;
    for (const k of this.ledger.keys()) {
      if (this.ledger.size <= max) break;
      this.ledger.delete(k);
    }
    this.stats.taken += learned.length;
    await saveCheckpoint(this.exp.os, { ...state, learned: [...this.ledger], taken: this.stats.taken, rejected: { ...this.stats.rejected }, redelivered: this.stats.redelivered });
    const done: HeldMessage[] = [];
    for (const [seq, h] of this.held) {
      if (h.uncommitted > 0) continue;
      done.push(h);
      this.held.delete(seq);
    }
    for (const [id, seq] of this.uncommittedIds) if (!this.held.has(seq)) this.uncommittedIds.delete(id);
    await Promise.all(
      done.map(async ({ msgs, ref }) => {
        // Rejected ones are acked too: a work queue keeps a terminated message (nats-server 2.9),
        // and they are counted in the checkpoint just stored. A lost ack: the message comes back
        // and the ledger (or the same rejection, counted again) catches it.
        await Promise.all(msgs.map((m) => m.ackAck().catch(() => false)));
        if (ref) await this.exp.os.delete(ref).catch(() => undefined);
      }),
    );
  }

  close(): void {
    this.closed = true;
  }
}

// ---------------------------------------------------------------- weights by version

/** The learner publishes weights by version; hosts fetch a version once and share it among their actors. */
export class WeightsStore {
  private readonly cache = new Map<number, Promise<Float32Array[]>>();

  constructor(private readonly os: ObjectStore) {}

  async publish(version: number, weights: readonly Float32Array[], keep = 4): Promise<void> {
    await this.os.putBlob({ name: `w-${version}` }, encodeFrame(1, { version, weights: [...weights] }));
    if (version - keep >= 0) await this.os.delete(`w-${version - keep}`).catch(() => undefined);
  }

  fetch(version: number): Promise<Float32Array[]> {
    let p = this.cache.get(version);
    if (!p) {
      p = (async () => {
        const data = await this.os.getBlob(`w-${version}`);
        if (!data) throw new Error(`weights version ${version} are not in the object store (yet, or any more)`);
        const parsed = z.strictObject({ version: z.literal(version), weights: z.array(f32).max(4096) }).safeParse(decodeFrame(data, CHECKPOINT_CAPS).value);
        if (!parsed.success) throw new Error(`weights version ${version} are malformed`);
        return parsed.data.weights;
      })();
      p.catch(() => this.cache.delete(version));
      this.cache.set(version, p);
      for (const k of this.cache.keys()) if (k < version - 2) this.cache.delete(k);
    }
    return p;
  }
}
