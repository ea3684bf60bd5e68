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
import { SegmentRoom } from '../engine/streamRoom';

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

/**
 * What a failed stream operation means for a person: once the learner's connection is down, that
 * the cluster stopped answering (and what to do), rather than the client's bare "timeout".
 */
export function explainStreamError(err: unknown, server: string, disconnectedForMs: number | null): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (disconnectedForMs !== null) {
    return new Error(`the cluster at ${server} stopped answering (no connection for ${Math.max(1, Math.round(disconnectedForMs / 1000))} s): check that its nats-server (npm run cluster) is running and reachable, then start the run again`);
  }
  if (/^timeout$/i.test(message) || (err instanceof Error && err.name === 'TimeoutError')) return new Error(`the cluster at ${server} did not answer in time (${message}): it may be overloaded or far away`);
  return err instanceof Error ? err : new Error(message);
}

/** How long a learner waiting for segments rides out a lost connection (a restarting server comes back well within it). */
export const GIVE_UP_AFTER_MS = 15_000;

export interface JetStreamExperienceOptions {
  runId?: string;
  /** The cluster's address as the person gave it (messages name it); default: the server the connection uses. */
  server?: string;
  /** A take waiting for segments gives up once the connection has been down this long (default {@link GIVE_UP_AFTER_MS}). */
  giveUpAfterMs?: number;
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
  const server = opts.server ?? spawner.nc.getServer();
  const explained = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      throw explainStreamError(err, server, spawner.disconnectedForMs());
    });
  // A fetch can wait for ever while the connection is down: the take gives up once it has been down for giveUpAfterMs.
  const connectionWatch = (): { lost: Promise<never>; stop(): void } => {
    const limit = opts.giveUpAfterMs ?? GIVE_UP_AFTER_MS;
    let timer: ReturnType<typeof setInterval> | undefined;
    const lost = new Promise<never>((_, reject) => {
      timer = setInterval(() => {
        const down = spawner.disconnectedForMs();
        if (down !== null && down >= limit) reject(explainStreamError(new Error('no connection'), server, down));
      }, 250);
    });
    return { lost, stop: () => clearInterval(timer) };
  };
  spawner.router = (m) => {
    if (!('path' in m) || m.path[0] !== 'sampleSegment') return undefined;
    const arg = m.argumentList[1];
    const v = arg?.type === 'RAW' && typeof arg.value === 'number' ? arg.value : version;
    return { s: exp.names.subject, b: exp.names.bucket, w: v, ...(pack > 1 ? { k: pack } : {}) };
  };
  const room = new SegmentRoom(o.capacity, pack);
  let taken: TakenSegment[] = [];
  let lastCheckpoint = Date.now();
  let closed = false;
  const every = opts.checkpointEveryMs ?? 2000;
  const commitNow = async (update: number, v: number, w: readonly Float32Array[], envSteps: number | undefined): Promise<void> => {
    const batch = taken;
    taken = [];
    await consumer.commit(batch, { update, version: v, weights: [...w], ...(envSteps !== undefined ? { envSteps } : {}) });
    lastCheckpoint = Date.now();
  };
  return {
    resumed: cp && cp.weights.length ? { weights: cp.weights, update: cp.update, version: cp.version, envSteps: cp.envSteps ?? null } : null,
    pack,
    async publishWeights(v, w) {
      await explained(weights.publish(v, w));
      version = v;
    },
    reserve: (n = 1) => room.reserve(n),
    release: (n = 1) => room.release(n),
    async take(n) {
      const out: TakenSegment[] = [];
      while (out.length < n && !closed) {
        const attempt = explained(consumer.take(n - out.length, 2000));
        attempt.catch(() => undefined); // when the watch below wins, nobody awaits it
        const watch = connectionWatch();
        try {
          out.push(...(await Promise.race([attempt, watch.lost])));
        } finally {
          watch.stop();
        }
      }
      room.taken(out.length);
      taken.push(...out);
      return out.map((t) => t.seg as Segment);
    },
    async commit(update, v, w, envSteps) {
      if (Date.now() - lastCheckpoint >= every) await explained(commitNow(update, v, await w(), envSteps));
    },
    stop() {
      closed = true;
      consumer.close();
      // Let producers waiting for room go (they see the loop stopping).
      room.openAll();
    },
    async close(state) {
      spawner.router = undefined;
      await explained(commitNow(state.update, state.version, state.weights, state.envSteps));
    },
  };
}
