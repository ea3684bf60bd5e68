/**
 * {@link StreamedExperience} over JetStream (experience.ts) for a learner whose actors are cluster
 * actors: routes `sampleSegment` calls into the run's stream, hands the loop checked segments,
 * and checkpoints before it acks them.
 */
import type { Segment } from '../engine/segments';
import { loadCheckpoint, openExperience, SegmentConsumer, WeightsStore, type ConsumerStats, type TakenSegment } from './experience';
import type { NatsActorSpawner } from './natsSpawner';
import type { StreamedExperience, StreamedExperienceOptions } from './segmentSource';

/** A run id from the config (FNV-1a of its JSON): the same command after a restart resumes the same run. */
export function runIdFor(config: unknown): string {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify(config)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `r${h.toString(16).padStart(8, '0')}`;
}

export interface JetStreamExperienceOptions {
  runId?: string;
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
  let version = 0;
  spawner.router = (m) => {
    if (!('path' in m) || m.path[0] !== 'sampleSegment') return undefined;
    const arg = m.argumentList[1];
    const v = arg?.type === 'RAW' && typeof arg.value === 'number' ? arg.value : version;
    return { s: exp.names.subject, b: exp.names.bucket, w: v };
  };
  let outstanding = 0;
  const waiters: Array<() => void> = [];
  const free = (k: number): void => {
    outstanding = Math.max(0, outstanding - k);
    while (waiters.length && outstanding < o.capacity) {
      outstanding++;
      waiters.shift()?.();
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
    async publishWeights(v, w) {
      await weights.publish(v, w);
      version = v;
    },
    reserve() {
      if (outstanding < o.capacity) {
        outstanding++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    release: () => free(1),
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
      for (const w of waiters.splice(0)) w();
    },
    async close(state) {
      spawner.router = undefined;
      await commitNow(state.update, state.version, state.weights);
    },
  };
}
