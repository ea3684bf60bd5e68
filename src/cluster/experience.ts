/**
 * Experience and weights through JetStream, for one run (`runId`):
 *
 *   stream  PARL_EXP_<run>, subject parl.exp.<run>.seg   work queue: one message per segment,
 *           Nats-Msg-Id = the segment id (the server drops a re-sent copy within 2 minutes)
 *   objects parl-<run>:  w-<version>  the learner's weights, versioned (actors' hosts fetch by version)
 *                        s-<sid>      a segment above the payload limit (its stream message is a reference)
 *                        checkpoint   the learner's last checkpoint (weights, update, learned segment ids)
 *
 * Exactly-once learning: the learner acks a segment only after a checkpoint that includes the
 * update it went into has been stored. Killed before that checkpoint, the message comes back
 * (AckWait) and is learned from again by a learner whose state does not include it; killed after
 * the checkpoint but before the ack, the message comes back too, and its id is in the
 * checkpoint's ledger: acked, counted as redelivered, not learned twice. A message with an id
 * already learned under another stream sequence is a replay: rejected and counted. Malformed and
 * oversized messages are counted, and acked (removed) only at the next checkpoint, so their
 * counts survive a restart too.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { nanos } from '@nats-io/nats-core';
import { AckPolicy, jetstream, jetstreamManager, RetentionPolicy, type Consumer, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { z } from 'zod';
import { decodeFrame, DEFAULT_CAPS, encodeFrame, FrameError, type FrameCaps } from './codec';
import type { RejectCounts } from './protocol';

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
const inlineMessage = z.strictObject({ sid, sentAt: z.number(), seg: z.unknown() });
const refMessage = z.strictObject({ sid, sentAt: z.number(), ref: z.string().regex(/^s-[A-Za-z0-9_-]{1,64}$/), bytes: z.number().int().positive() });
const streamMessageSchema = z.union([inlineMessage, refMessage]);

/** Room left under the payload limit for the headers (Nats-Msg-Id and the client's own). */
const HEADER_ROOM = 4096;

export interface PublishReceipt {
  sid: string;
  seq: number;
  /** Messages this segment took: 1 on the stream, plus the object store's chunks when it went there. */
  messages: number;
  bytes: number;
  duplicate: boolean;
}

/** Puts segments into the run's stream (an actor host does this for its actors). */
export class SegmentPublisher {
  constructor(private readonly exp: Experience) {}

  async publish(segmentId: string, seg: unknown, sentAt = Date.now()): Promise<PublishReceipt> {
    if (!sidPattern.test(segmentId)) throw new Error(`bad segment id ${JSON.stringify(segmentId)}`);
    const limit = (this.exp.nc.info?.max_payload ?? DEFAULT_CAPS.maxBytes) - HEADER_ROOM;
    let frame = encodeFrame(1, { sid: segmentId, sentAt, seg });
    let messages = 1;
    const bytes = frame.byteLength;
    if (frame.byteLength > limit) {
      const name = `s-${segmentId}`;
      const info = await this.exp.os.putBlob({ name }, frame);
      messages += info.chunks;
      frame = encodeFrame(1, { sid: segmentId, sentAt, ref: name, bytes: frame.byteLength });
    }
    const ack = await this.exp.js.publish(this.exp.names.subject, frame, { msgID: segmentId });
    return { sid: segmentId, seq: ack.seq, messages, bytes, duplicate: ack.duplicate };
  }
}

// ---------------------------------------------------------------- the learner's side

export interface LearnerCheckpoint {
  /** Updates done. */
  update: number;
  /** Version of the weights actors act with. */
  version: number;
  weights: Float32Array[];
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
  const frame = encodeFrame(1, { update: c.update, version: c.version, weights: c.weights, sids, seqs, taken: c.taken, rejected: c.rejected, redelivered: c.redelivered });
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
});

export async function loadCheckpoint(os: ObjectStore): Promise<LearnerCheckpoint | null> {
  const data = await os.getBlob('checkpoint');
  if (!data) return null;
  const parsed = checkpointSchema.safeParse(decodeFrame(data, CHECKPOINT_CAPS).value);
  if (!parsed.success) throw new Error(`the run's checkpoint is damaged: ${parsed.error.issues[0]?.message ?? ''}`);
  const c = parsed.data;
  const names = c.sids.byteLength ? new TextDecoder().decode(c.sids).split('\n') : [];
  if (names.length !== c.seqs.length) throw new Error("the run's checkpoint is damaged: ledger lengths differ");
  return { update: c.update, version: c.version, weights: c.weights, learned: names.map((s, i) => [s, c.seqs[i]]), taken: c.taken, rejected: c.rejected, redelivered: c.redelivered };
}

export interface TakenSegment {
  sid: string;
  seq: number;
  seg: WireSegment;
  /** Milliseconds from the host's publish to this take. */
  latencyMs: number;
}

export interface ConsumerOptions {
  durable?: string;
  /** Redelivery of a message not acked for this long (default 10 s). */
  ackWaitMs?: number;
  /** Caps for one segment (default 16 MiB whole, through the object store). */
  caps?: FrameCaps;
  /** The learner's own check of a segment (dims, lengths): a reason, or null when it is fine. */
  check?(seg: WireSegment): string | null;
  /** How many learned segment ids the checkpoint keeps (default 100 000). */
  ledgerSize?: number;
  onReject?(kind: keyof RejectCounts, why: string): void;
}

export interface ConsumerStats {
  taken: number;
  rejected: RejectCounts;
  redelivered: number;
  /** Stream messages read, and their bytes (object-store chunks included). */
  messages: number;
  bytes: number;
  latenciesMs: number[];
}

/** The learner's durable pull consumer on the run's stream. */
export class SegmentConsumer {
  readonly stats: ConsumerStats = { taken: 0, rejected: { malformed: 0, oversized: 0, replayed: 0 }, redelivered: 0, messages: 0, bytes: 0, latenciesMs: [] };
  private readonly ledger = new Map<string, number>();
  /** Messages taken (or rejected) since the last checkpoint: acked (or terminated) by the next commit. */
  private held: Array<{ msg: JsMsg; ref?: string }> = [];
  /** Stream sequences in `held`: a message the server sends again before our ack reached it is not counted twice. */
  private heldSeqs = new Set<number>();
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
    const out: TakenSegment[] = [];
    const deadline = Date.now() + waitMs;
    const inBatch = new Set<string>();
    while (out.length < n && !this.closed && Date.now() < deadline) {
      let msgs;
      try {
        msgs = await this.consumer.fetch({ max_messages: n - out.length, expires: Math.max(1000, Math.min(5000, deadline - Date.now())) });
      } catch (err) {
        if (this.closed) break;
        await new Promise((r) => setTimeout(r, 200)); // disconnected: the client reconnects
        if (err instanceof Error && /closed/i.test(err.message)) break;
        continue;
      }
      for await (const msg of msgs) {
        const got = await this.check(msg, inBatch);
        if (got) {
          inBatch.add(got.sid);
          out.push(got);
        }
      }
    }
    return out;
  }

  private reject(msg: JsMsg, kind: keyof RejectCounts, why: string): null {
    this.stats.rejected[kind]++;
    this.options.onReject?.(kind, why);
    this.hold(msg);
    return null;
  }

  private hold(msg: JsMsg, ref?: string): void {
    this.held.push(ref === undefined ? { msg } : { msg, ref });
    this.heldSeqs.add(msg.seq);
  }

  private async check(msg: JsMsg, inBatch: ReadonlySet<string>): Promise<TakenSegment | null> {
    if (this.heldSeqs.has(msg.seq)) {
      // Sent again because the ack wait ran out while we held it (a slow update): already taken or
      // counted, so it is only acked with the others at the next commit.
      this.held.push({ msg });
      return null;
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
    const known = this.ledger.get(head.sid);
    if (known === msg.seq) {
      // Learned and checkpointed, but the ack did not reach the server before a restart.
      this.stats.redelivered++;
      this.hold(msg);
      return null;
    }
    if (known !== undefined || inBatch.has(head.sid)) return this.reject(msg, 'replayed', `segment ${head.sid} was already learned from`);
    let segValue: unknown;
    if ('ref' in head) {
      if (head.bytes > caps.maxBytes) return this.reject(msg, 'oversized', `segment of ${head.bytes} bytes exceeds ${caps.maxBytes}`);
      const blob = await this.exp.os.getBlob(head.ref).catch(() => null);
      if (!blob) return this.reject(msg, 'malformed', `segment ${head.ref} is not in the object store`);
      this.stats.bytes += blob.byteLength;
      this.stats.messages += Math.ceil(blob.byteLength / (128 * 1024));
      try {
        const inner = inlineMessage.safeParse(decodeFrame(blob, caps).value);
        if (!inner.success || inner.data.sid !== head.sid) return this.reject(msg, 'malformed', 'stored segment does not match its reference');
        segValue = inner.data.seg;
      } catch (err) {
        return this.reject(msg, err instanceof FrameError ? err.kind : 'malformed', err instanceof Error ? err.message : String(err));
      }
    } else segValue = head.seg;
    const seg = wireSegmentSchema.safeParse(segValue);
    if (!seg.success) return this.reject(msg, 'malformed', `not a segment: ${seg.error.issues[0]?.path.join('.') ?? ''} ${seg.error.issues[0]?.message ?? ''}`);
    const why = this.options.check?.(seg.data) ?? null;
    if (why) return this.reject(msg, 'malformed', why);
    this.hold(msg, 'ref' in head ? head.ref : undefined);
    this.stats.latenciesMs.push(Math.max(0, Date.now() - head.sentAt));
    if (this.stats.latenciesMs.length > 100_000) this.stats.latenciesMs.splice(0, 50_000);
    return { sid: head.sid, seq: msg.seq, seg: seg.data, latencyMs: Date.now() - head.sentAt };
  }

  /**
   * Call after the update that used `learned` (the segments taken since the last commit, in order):
   * stores the checkpoint (with them in its ledger), then acks every held message (the rejected ones
   * too: they are counted in it). A crash before the checkpoint is stored loses nothing (they come back).
   */
  async commit(learned: readonly TakenSegment[], state: { update: number; version: number; weights: Float32Array[] }): Promise<void> {
    for (const t of learned) this.ledger.set(t.sid, t.seq);
    const max = this.options.ledgerSize ?? 100_000;
    for (const k of this.ledger.keys()) {
      if (this.ledger.size <= max) break;
      this.ledger.delete(k);
    }
    this.stats.taken += learned.length;
    await saveCheckpoint(this.exp.os, { ...state, learned: [...this.ledger], taken: this.stats.taken, rejected: { ...this.stats.rejected }, redelivered: this.stats.redelivered });
    const held = this.held;
    this.held = [];
    this.heldSeqs = new Set();
    await Promise.all(
      held.map(async ({ msg, ref }) => {
        // Rejected ones are acked too: a work queue keeps a terminated message (nats-server 2.9),
        // and they are counted in the checkpoint just stored. A lost ack: the message comes back
        // and the ledger (or the same rejection, counted again) catches it.
        await msg.ackAck().catch(() => false);
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
