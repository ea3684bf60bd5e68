import { describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { resolveExperiment } from '../../../src/config/config';
import { loadCheckpoint, openExperience, SegmentPublisher, type ConsumerStats, type Experience, type PublishReceipt } from '../../../src/cluster/experience';
import { HostService } from '../../../src/cluster/hostService';
import { jetstreamExperience } from '../../../src/cluster/jetstreamExperience';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import type { StreamedExperience } from '../../../src/engine/streamedExperience';
import { ActorPool } from '../../../src/core/remote/actorPool';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { produceIntoStream } from '../../../src/engine/producers';
import { StreamActor } from './fixtures/clusterActors';
import { testHostSpawner } from './fixtures/hostSpawner';
import { clusterServerPerSuite, twoHostsWithStreamActor, waitFor } from './helpers';

/** The host's real publisher, each publish first awaiting `gate(sid, nth)`: a PubAck as slow as the test wants. */
class GatedPublisher extends SegmentPublisher {
  readonly attempts: string[] = [];

  constructor(
    exp: Experience,
    private readonly gate: (sid: string, nth: number) => Promise<void>,
  ) {
    super(exp);
  }

  override async publish(sid: string, seg: unknown, sentAt?: number): Promise<PublishReceipt> {
    const nth = this.attempts.push(sid) - 1;
    await this.gate(sid, nth);
    return super.publish(sid, seg, sentAt);
  }
}

const T = 8;
const range = (n: number): number[] => Array.from({ length: n }, (_, k) => k);

/** Segments that reached the host's publish so far. */
const attemptsOf = (r: Rig): number => r.publisher()?.attempts.length ?? 0;

interface Rig {
  /** The host's publisher, once it opened the run's stream (at its first segment). */
  publisher: () => GatedPublisher | undefined;
  pool: ActorPool<StreamActor>;
  stream: StreamedExperience;
  stats: () => ConsumerStats;
  exp: Experience;
  close(): Promise<void>;
}

describe('streamed segments are pipelined: a second request in flight per actor', () => {
  const suite = clusterServerPerSuite('pipeline test');

  /** One host (in this process, its actor in a worker thread) with a gated publisher, a learner's pool of one StreamActor, and the run's stream. */
  async function rig(runId: string, gate: (sid: string, nth: number) => Promise<void>): Promise<Rig> {
    const hostConn = await suite.connect(`host ${runId}`);
    let publisher: GatedPublisher | undefined;
    const host = new HostService(hostConn, { capacity: 1, hostName: `host-${runId}`, spawner: testHostSpawner, beatMs: 200, publisher: (e) => (publisher = new GatedPublisher(e, gate)) });
    const learnerConn = await suite.connect(`learner ${runId}`);
    const spawner = new NatsActorSpawner(learnerConn);
    await waitFor(() => spawner.liveHosts().some((h) => h.hostId === host.hostId), 10_000, 'the host');
    const pool = await ActorPool.create(remoteClass(StreamActor, { spawner }), 1, () => [], { heartbeatMs: 500, heartbeatTimeoutMs: 15_000 });
    let stats: ConsumerStats | undefined;
    const config = resolveExperiment('impala-cartpole', { seed: 1 });
    const stream = await jetstreamExperience(spawner, { config, capacity: 8, check: (s) => (s.rewards.length === s.T * s.numEnvs ? null : 'rewards length') }, { runId, checkpointEveryMs: 0, onStats: (s) => (stats = s) });
    await stream.publishWeights(0, [new Float32Array(1)]);
    const close = async (): Promise<void> => {
      await pool.terminate();
      await spawner.close();
      await host.close();
      await learnerConn.close();
      await hostConn.close();
    };
    suite.closers.push(close);
    return {
      publisher: () => publisher,
      pool,
      stream,
      stats: () => {
        if (!stats) throw new Error('no consumer stats');
        return stats;
      },
      exp: await openExperience(learnerConn, runId, false),
      close,
    };
  }

  /** Produces exactly `n` segments from actor 0 with `inFlight` requests; `pending` counts requests not answered yet. */
  function produce(r: Rig, n: number, inFlight: number) {
    const counts = { asked: 0, pending: 0, lost: 0 };
    const done = produceIntoStream(0, {
      stream: r.stream,
      progress: { lose: () => void counts.lost++, backoff: () => new Promise<void>((res) => setTimeout(() => res(), 50)) },
      stopping: () => counts.asked >= n,
      inFlight,
      request: async () => {
        counts.asked++;
        counts.pending++;
        try {
          return await r.pool.call(0, 'sampleSegment', null, 0, T, 0);
        } finally {
          counts.pending--;
        }
      },
    });
    return { counts, done };
  }

  /** Takes `n` segments, committing after each take as the async loop does; the actor's call index of each (its rewards). */
  async function learn(r: Rig, n: number): Promise<number[]> {
    const ks: number[] = [];
    let update = 0;
    while (ks.length < n) {
      const segs = await r.stream.take(Math.min(4, n - ks.length));
      for (const s of segs) ks.push(s.rewards[0]);
      update++;
      await r.stream.commit(update, 0, () => Promise.resolve([new Float32Array([update])]));
    }
    return ks;
  }

  /** Every one of the `n` segments was learned once, acked, and is in the checkpoint's ledger once. */
  async function expectExactlyOnce(r: Rig, ks: number[], n: number): Promise<void> {
    expect([...ks].sort((a, b) => a - b)).toEqual(range(n));
    r.stream.stop();
    await r.stream.close({ update: 999, version: 0, weights: [new Float32Array(1)] });
    expect(r.stats().taken).toBe(n);
    expect(r.stats().rejected).toEqual({ malformed: 0, oversized: 0, replayed: 0 });
    const cp = await loadCheckpoint(r.exp.os);
    expect(new Set(cp?.learned.map(([sid]) => sid)).size).toBe(n);
    const jsm = await jetstreamManager(r.exp.nc);
    expect((await jsm.streams.info(r.exp.names.stream)).state.messages).toBe(0);
  }

  it("the actor computes segment 1 while segment 0's publish awaits its PubAck; every segment is learned exactly once", async () => {
    let releaseFirst = (): void => undefined;
    const firstHeld = new Promise<void>((res) => (releaseFirst = res));
    // Segment 0's publish is held until the test lets it go; the others go through at once.
    const r = await rig('overlap', (_sid, nth) => (nth === 0 ? firstHeld : Promise.resolve()));
    const N = 40;
    const { counts, done } = produce(r, N, 2);
    // Sequential requests could not get here: segment 1 is asked for only after segment 0's receipt.
    await waitFor(() => attemptsOf(r) >= 2, 10_000, "segment 1 to reach its publish while segment 0's is held");
    expect(r.publisher()?.attempts[0]).toMatch(/-0$/);
    expect(await r.pool.call(0, 'callCount')).toBeGreaterThanOrEqual(2);
    releaseFirst();
    const ks = await learn(r, N);
    await done;
    expect(counts).toEqual({ asked: N, pending: 0, lost: 0 });
    await expectExactlyOnce(r, ks, N);
  }, 40_000);

  it('with more requests in flight, an actor still holds at most one un-acked segment while it computes the next', async () => {
    let open = (): void => undefined;
    const opened = new Promise<void>((res) => (open = res));
    const r = await rig('bounded', () => opened);
    const N = 20;
    const { counts, done } = produce(r, N, 4);
    await waitFor(() => attemptsOf(r) >= 2 && counts.pending === 4, 10_000, 'two segments held at their publish, four requests at the host');
    // Four requests wait at the host, but with two segments un-acked the actor gets no third.
    await new Promise((res) => setTimeout(res, 300));
    expect(attemptsOf(r)).toBe(2);
    expect(await r.pool.call(0, 'callCount')).toBe(2);
    open();
    const ks = await learn(r, N);
    await done;
    expect(counts).toEqual({ asked: N, pending: 0, lost: 0 });
    await expectExactlyOnce(r, ks, N);
  }, 40_000);

  it('a host SIGKILLed with two requests in flight: they are counted lost, the actor is replaced, and every segment whose receipt came back is learned exactly once', async () => {
    const { children, learnerConn, spawner, pool, events } = await twoHostsWithStreamActor(suite.token, 'kill', suite.closers);
    const config = resolveExperiment('impala-cartpole', { seed: 1 });
    const stream = await jetstreamExperience(spawner, { config, capacity: 8, check: () => null }, { runId: 'killhost', checkpointEveryMs: 0 });
    await stream.publishWeights(0, [new Float32Array(1)]);

    const N = 60;
    const counts = { asked: 0, lost: 0 };
    const receipts: string[] = [];
    const producing = produceIntoStream(0, {
      stream,
      progress: { lose: () => void counts.lost++, backoff: () => new Promise<void>((res) => setTimeout(() => res(), 100)) },
      stopping: () => counts.asked >= N,
      request: async () => {
        counts.asked++;
        const receipt = await pool.call(0, 'sampleSegment', null, 0, T, 0);
        receipts.push(String(receipt.streamed));
      },
    });
    // What was learned, by segment id: the ledger of the checkpoint stored at every commit.
    const exp = await openExperience(learnerConn, 'killhost', false);
    let taken: string[] = [];
    let learning = true;
    const learner = (async () => {
      let update = 0;
      while (learning) {
        await stream.take(1);
        update++;
        await stream.commit(update, 0, () => Promise.resolve([new Float32Array(1)]));
        taken = (await loadCheckpoint(exp.os))?.learned.map(([sid]) => sid) ?? [];
      }
    })();
    await waitFor(() => receipts.length >= 10, 10_000, 'segments before the kill');
    const placed = spawner.placements()[0].hostName;
    children[placed === 'kill-a' ? 0 : 1].kill('SIGKILL');
    await producing;
    await waitFor(() => receipts.every((sid) => taken.includes(sid)), 15_000, 'every receipted segment learned');
    learning = false;
    stream.stop();
    await learner;
    await stream.close({ update: 999, version: 0, weights: [new Float32Array(1)] });
    taken = (await loadCheckpoint(exp.os))?.learned.map(([sid]) => sid) ?? [];

    expect(events.some((e) => e.type === 'died')).toBe(true);
    expect(events.some((e) => e.type === 'replaced')).toBe(true);
    // Every request was either answered or counted lost; the ones in flight on the killed host were lost.
    expect(counts.lost).toBeGreaterThanOrEqual(1);
    expect(receipts.length + counts.lost).toBe(counts.asked);
    // Nothing learned twice; a lost request's segment may still have reached the stream before its host died.
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.length - receipts.length).toBeLessThanOrEqual(counts.lost);
  }, 60_000);
});
