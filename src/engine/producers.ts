/**
 * The producer side of the actor-learner loops (IMPALA's async loop, the Ape-X style off-policy
 * loop): one producer per actor fetches a segment, checks it, and pushes it into the bounded queue
 * the learner takes from; a full queue makes it wait (backpressure). A failing actor is counted as
 * lost and backed off (never retried at once: that would spin); a closed queue ends the producer.
 */
import { BoundedQueue, QueueClosedError } from './boundedQueue';
import type { LoopProgress } from './loops/common';

export interface ProducerOptions<S> {
  queue: BoundedQueue<S>;
  progress: LoopProgress;
  /** True once the run is ending. */
  stopping: () => boolean;
  /** One segment from actor `i` (its remote call). */
  fetch: (i: number) => Promise<S>;
  /** Null when a segment is well formed; otherwise what is wrong (see LoopProgress.accept). */
  check: (segment: S) => string | null;
}

/** Feed the queue from actor `i` until the run stops or the queue closes. */
export async function produceInto<S>(i: number, o: ProducerOptions<S>): Promise<void> {
  while (!o.stopping()) {
    let seg: S;
    try {
      seg = await o.fetch(i);
    } catch {
      if (o.stopping()) return;
      o.progress.lose();
      await o.progress.backoff(i);
      continue;
    }
    const [ok] = o.progress.accept([{ status: 'fulfilled', value: seg }], o.check);
    if (!ok) continue;
    try {
      await o.queue.push(ok);
    } catch (err) {
      if (err instanceof QueueClosedError) return;
      throw err;
    }
  }
}

/** The learner's newest weights and their version (the update that made them). */
export interface Published {
  weights: Float32Array[];
  version: number;
}

/**
 * Call actor `i` with `published`, passing a copy of the weights only when the actor does not have
 * that version yet (`sentVersion[i]`, set once the call succeeded; −1 = it has none), else null.
 */
export async function callWithWeights<S>(sentVersion: number[], i: number, published: Published, call: (weights: Float32Array[] | null, version: number) => Promise<S>): Promise<S> {
  const { weights, version } = published;
  const fresh = sentVersion[i] !== version;
  const result = await call(fresh ? weights.map((w) => w.slice()) : null, version);
  sentVersion[i] = version;
  return result;
}
