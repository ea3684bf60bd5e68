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

/** The room a stream producer asks for before each request (src/engine/streamedExperience.ts, implemented by src/cluster). */
export interface StreamRoom {
  /** Segments one request asks for (packed into one stream message; default 1). */
  readonly pack?: number;
  /** Resolves when the stream has room for one more request, and counts its `n` segments as asked for. */
  reserve(n?: number): Promise<void>;
  /** A request failed: its `n` reserved places are free again. */
  release(n?: number): void;
}

/**
 * Requests kept in flight per actor whose segments go into a stream. A streamed request is answered
 * only after its segment was published and acknowledged, a round trip longer than a small
 * segment's compute (CartPole, T=32: well under a millisecond); with a second request already at
 * the host, the actor computes the next segment during that round trip. The host runs an actor's
 * requests one at a time and bounds its un-acked segments (src/cluster/hostService.ts).
 */
export const STREAM_REQUESTS_PER_ACTOR = 2;

export interface StreamProducerOptions {
  stream: StreamRoom;
  progress: Pick<LoopProgress, 'lose' | 'backoff'>;
  /** True once the run is ending. */
  stopping: () => boolean;
  /** Asks actor `i` for one stream message of `stream.pack` segments (resolves with the host's receipt). */
  request: (i: number) => Promise<unknown>;
  /** Requests in flight for this actor (default {@link STREAM_REQUESTS_PER_ACTOR}). */
  inFlight?: number;
  /**
   * While actor `i` is being built (a replacement after its death), a promise that settles once it
   * is done; null when it takes calls now (ActorPool.building). A request loop holds no room while
   * it waits for it, so the other actors go on filling the stream.
   */
  building?: (i: number) => Promise<void> | null;
}

/**
 * Keep actor `i` producing into the stream until the run stops: `inFlight` request loops, each
 * reserving room for the request's segments first (backpressure). A failed request frees its
 * room, is counted as that many lost segments (a packed one: all K) and backed off, as in
 * {@link produceInto}. While the actor is being replaced a loop waits without room: the room is
 * shared by every actor (it may hold a single request), and a replacement can take far longer
 * than the death took to notice (a loaded browser tab starting an actor: half a minute).
 */
export async function produceIntoStream(i: number, o: StreamProducerOptions): Promise<void> {
  const requestLoop = async (): Promise<void> => {
    while (!o.stopping()) {
      const k = o.stream.pack ?? 1;
      const before = o.building?.(i);
      if (before) {
        await before.catch(() => undefined);
        continue;
      }
      try {
        await o.stream.reserve(k);
        if (o.stopping()) return;
        const meanwhile = o.building?.(i);
        if (meanwhile) {
          // It died while this loop waited for room: the room goes to an actor that can use it.
          o.stream.release(k);
          continue;
        }
        await o.request(i);
      } catch {
        o.stream.release(k);
        if (o.stopping()) return;
        o.progress.lose(k);
        await o.progress.backoff(i);
      }
    }
  };
  await Promise.all(Array.from({ length: o.inFlight ?? STREAM_REQUESTS_PER_ACTOR }, requestLoop));
}
