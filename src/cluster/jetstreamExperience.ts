/**
 * {@link StreamedExperience} over JetStream (experience.ts) for a learner whose actors are cluster
 * actors: routes `sampleSegment` calls into the run's stream, hands the loop checked segments,
 * and checkpoints before it acks them.
 */
import type { Segment } from '../engine/segments';
import { loadCheckpoint, openExperience, SegmentConsumer, WeightsStore, type ConsumerStats, type TakenSegment } from './experience';
import type { NatsActorSpawner } from './natsSpawner';
import { MAX_PACK } from './protocol';
import type { StreamedExperience, StreamedExperienceOptions } from '../engine/streamedExperience';

/** A run id from the config (FNV-1a of its JSON): the same command after a restart resumes the same run. */
export function runIdFor(config: unknown): string {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify(config)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `r${h.toString(16).padStart(8, '0')}`;
}

/**
 * Env steps a packed stream message should carry at least. Each message costs a call, a receipt,
 * a publish with its PubAck, a fetch and an ack, about 1.3 ms of CPU spread over the learner, the
 * host and nats-server (BENCHMARKS.md, cluster-scaling at T=32); carried by 1000 steps or more that
 * is a small part of their compute (CartPole: about 14 ms of CPU per 1000 steps).
 */
export const PACK_TARGET_STEPS = 1000;

/** Segments per stream message by default: the fewest whose steps reach {@link PACK_TARGET_STEPS}, at most MAX_PACK. */
export function defaultPack(stepsPerSegment: number): number {
  if (!(stepsPerSegment > 0)) return 1;
  return Math.max(1, Math.min(MAX_PACK, Math.ceil(PACK_TARGET_STEPS / stepsPerSegment)));
}

export interface JetStreamExperienceOptions {
  runId?: string;
  /**
   * Segments each sampleSegment call asks for, one after the other with the same weights, published
   * as one stream message (1 to MAX_PACK; default 1). The room stays counted in segments: a request
   * starts while fewer than `capacity` are asked for and not taken, so at most `capacity + pack − 1`
   * are. For an actor to compute its next message while the last is on its way (pipelining), the
   * capacity must hold about two messages per actor (2 × pack × actors); the policy lag grows with
   * it, and by up to `pack − 1` segments within a message (BENCHMARKS.md).
   */
  pack?: number;
  /** Checkpoint (and ack) at most this often (default 2000 ms; 0: after every update). */
  checkpointEveryMs?: number;
  ackWaitMs?: number;
  onReject?(kind: string, why: string): void;
  /** Receives the consumer's counters (for the CLI's end-of-run line and the benchmark). */
  onStats?(stats: ConsumerStats): void;
}

export async function jetstreamExperience(spawner: NatsActorSpawner, o: StreamedExperienceOptions, opts: JetStreamExperienceOptions = {}): Promise<StreamedExperience> {
  const exp = await openExperience(spawner.nc, opts.runId ?? runIdFor(o.config), true);
  const consumer = await SegmentConsumer.open(exp, { ackWaitMs: opts.ackWaitMs, check: (s) => o.check(s), onReject: opts.onReject });
  opts.onStats?.(consumer.stats);
  const cp = await loadCheckpoint(exp.os);
  if (cp) consumer.restore(cp);
  const weights = new WeightsStore(exp.os);
  const pack = opts.pack ?? 1;
  if (!Number.isInteger(pack) || pack < 1 || pack > MAX_PACK) throw new Error(`segments per stream message must be a whole number from 1 to ${MAX_PACK}, got ${pack}`);
  let version = 0;
  spawner.router = (m) => {
    if (!('path' in m) || m.path[0] !== 'sampleSegment') return undefined;
    const arg = m.argumentList[1];
    const v = arg?.type === 'RAW' && typeof arg.value === 'number' ? arg.value : version;
    return { s: exp.names.subject, b: exp.names.bucket, w: v, ...(pack > 1 ? { k: pack } : {}) };
  };
  // Segments asked for and not taken yet. A request starts while this is below the capacity, so
  // with packing it reaches at most capacity + pack − 1; while fewer than a learner's batch
  // (≤ capacity) are outstanding a request can start, so this never deadlocks.
  let outstanding = 0;
  const waiters: Array<{ n: number; go: () => void }> = [];
  const free = (k: number): void => {
    outstanding = Math.max(0, outstanding - k);
    while (waiters.length && outstanding < o.capacity) {
      const w = waiters.shift();
      if (!w) break;
      outstanding += w.n;
      w.go();
    }
  };
  let taken: TakenSegment[] = [];
  let lastCheckpoint = Date.now();
  let closed = false;
  const every = opts.checkpointEveryMs ?? 2000;
  const commitNow = async (update: number, v: number, w: readonly Float32Array[]): Promise<void> => {
    const batch = taken;
    taken = [];
    await consumer.commit(batch, { update, version: v, weights: [...w] });
    lastCheckpoint = Date.now();
  };
  return {
    resumed: cp && cp.weights.length ? { weights: cp.weights, update: cp.update, version: cp.version } : null,
    pack,
    async publishWeights(v, w) {
      await weights.publish(v, w);
      version = v;
    },
    reserve(n = 1) {
      if (waiters.length === 0 && outstanding < o.capacity) {
        outstanding += n;
        return Promise.resolve();
      }
      return new Promise<void>((go) => waiters.push({ n, go }));
    },
    release: (n = 1) => free(n),
    async take(n) {
      const out: TakenSegment[] = [];
      while (out.length < n && !closed) out.push(...(await consumer.take(n - out.length, 2000)));
      free(out.length);
      taken.push(...out);
      return out.map((t) => t.seg as Segment);
    },
    async commit(update, v, w) {
      if (Date.now() - lastCheckpoint >= every) await commitNow(update, v, await w());
    },
    stop() {
      closed = true;
      consumer.close();
      // Let producers waiting for room go (they see the loop stopping).
      for (const w of waiters.splice(0)) w.go();
    },
    async close(state) {
      spawner.router = undefined;
      await commitNow(state.update, state.version, state.weights);
    },
  };
}
