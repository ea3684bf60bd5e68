import { describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstreamManager } from '@nats-io/jetstream';
import { resolveExperiment } from '../../../src/config/config';
import { encodeFrame } from '../../../src/cluster/codec';
import { loadCheckpoint, openExperience, SegmentConsumer, SegmentPublisher, type Experience, type TakenSegment } from '../../../src/cluster/experience';
import { takeClusterFlags } from '../../../src/cluster/flags';
import { HostService } from '../../../src/cluster/hostService';
import { defaultPack, jetstreamExperience } from '../../../src/cluster/jetstreamExperience';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import { MAX_PACK, type StreamReceipt } from '../../../src/cluster/protocol';
import { ActorPool } from '../../../src/core/remote/actorPool';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { produceIntoStream } from '../../../src/engine/producers';
import { StreamActor } from './fixtures/clusterActors';
import { testHostSpawner } from './fixtures/hostSpawner';
import { clusterServerPerSuite, twoHostsWithStreamActor, waitFor } from './helpers';

const range = (n: number): number[] => Array.from({ length: n }, (_, k) => k);

/** A segment of T=4 steps × 1 env whose rewards are all `r`; `bigObs` floats of observation make it large. */
function segment(r: number, bigObs = 0) {
  const T = 4;
  const obsDim = bigObs ? bigObs / T : 1;
  return {
    actorIndex: 0, policyVersion: 0, T, numEnvs: 1, obsDim,
    obs: new Float32Array(T * obsDim), actions: new Int32Array(T), logProbs: new Float32Array(T),
    rewards: new Float32Array(T).fill(r), dones: new Uint8Array(T), truncated: new Uint8Array(T),
    finalIndex: new Int32Array(0), finalObs: new Float32Array(0), lastObs: new Float32Array(obsDim),
    episodeReturns: new Float32Array(0), episodeLengths: new Int32Array(0), seconds: 0,
  };
}

async function streamMessages(nc: NatsConnection, exp: Experience): Promise<number> {
  const jsm = await jetstreamManager(nc);
  return (await jsm.streams.info(exp.names.stream)).state.messages;
}

/** Waits (an ack is processed by the server a moment after ackAck returns on some builds) until the stream holds `n` messages. */
async function expectStreamMessages(nc: NatsConnection, exp: Experience, n: number): Promise<void> {
  const end = Date.now() + 5000;
  while ((await streamMessages(nc, exp)) !== n && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect(await streamMessages(nc, exp)).toBe(n);
}

const state = (update: number) => ({ update, version: 0, weights: [new Float32Array(1)] });

describe('the default pack and the --cluster-pack flag', () => {
  it('the fewest segments whose steps reach 1000, from 1 to MAX_PACK', () => {
    // ceil(1000 / steps): 128 steps (impala-cartpole, T=32 × 4 envs) → 7.8 → 8; 1000 → 1; 4096 → 1; 10 → 100, capped.
    expect(defaultPack(128)).toBe(8);
    expect(defaultPack(1000)).toBe(1);
    expect(defaultPack(999)).toBe(2);
    expect(defaultPack(4096)).toBe(1);
    expect(defaultPack(10)).toBe(MAX_PACK);
  });

  it('--cluster-pack K goes with --cluster and --creds, a whole number from 1 to MAX_PACK', () => {
    expect(takeClusterFlags(['--preset', 'x', '--cluster', 'nats://h:1', '--creds', 'c', '--cluster-pack', '4'])).toEqual({ rest: ['--preset', 'x'], cluster: { server: 'nats://h:1', creds: 'c', pack: 4 } });
    expect(takeClusterFlags(['--cluster', 'nats://h:1', '--creds', 'c']).cluster).toEqual({ server: 'nats://h:1', creds: 'c' });
    expect(() => takeClusterFlags(['--cluster-pack', '4'])).toThrow(/--cluster-pack goes with --cluster/);
    expect(() => takeClusterFlags(['--cluster', 'u', '--creds', 'c', '--cluster-pack', '0'])).toThrow(/--cluster-pack must be an integer from 1 to 16/);
    expect(() => takeClusterFlags(['--cluster', 'u', '--creds', 'c', '--cluster-pack', String(MAX_PACK + 1)])).toThrow(/from 1 to/);
    expect(() => takeClusterFlags(['--cluster', 'u', '--creds', 'c', '--cluster-pack', '2', '--cluster-pack', '3'])).toThrow(/more than once/);
  });
});

describe('several segments packed into one call and one stream message', () => {
  const suite = clusterServerPerSuite('packing test');

  it('K=4 through a host: one call and one stream message per 4 consecutive segments; the learner gets each once, T steps each, in takes of 3', async () => {
    const K = 4;
    const T = 8;
    const runId = 'pack4';
    const hostConn = await suite.connect('host pack');
    const host = new HostService(hostConn, { capacity: 1, hostName: 'host-pack', spawner: testHostSpawner, beatMs: 200 });
    const learnerConn = await suite.connect('learner pack');
    const spawner = new NatsActorSpawner(learnerConn);
    suite.closers.push(() => hostConn.close(), () => learnerConn.close(), () => host.close(), () => spawner.close());
    await waitFor(() => spawner.liveHosts().some((h) => h.hostId === host.hostId), 10_000, 'the host');
    const pool = await ActorPool.create(remoteClass(StreamActor, { spawner }), 1, () => [], { heartbeatMs: 500, heartbeatTimeoutMs: 15_000 });
    suite.closers.push(() => pool.terminate());
    const config = resolveExperiment('impala-cartpole', { seed: 1 });
    let stats = null as null | { taken: number; messages: number; redelivered: number; rejected: object };
    const stream = await jetstreamExperience(spawner, { config, capacity: 8, check: (s) => (s.rewards.length === s.T * s.numEnvs ? null : 'rewards length') }, { runId, pack: K, checkpointEveryMs: 0, onStats: (s) => (stats = s) });
    expect(stream.pack).toBe(K);
    await stream.publishWeights(0, [new Float32Array(1)]);

    const calls = 10;
    const receipts: StreamReceipt[] = [];
    const counts = { asked: 0, lost: 0 };
    const producing = produceIntoStream(0, {
      stream,
      progress: { lose: (n = 1) => void (counts.lost += n), backoff: () => new Promise<void>((res) => setTimeout(res, 50)) },
      stopping: () => counts.asked >= calls,
      request: async () => {
        counts.asked++;
        receipts.push((await pool.call(0, 'sampleSegment', null, 0, T, 0)) as unknown as StreamReceipt);
      },
    });
    // Takes of 3 (not a multiple of 4): a message's last segments wait in the learner for the next take.
    const got: number[] = [];
    const takes: number[][] = [];
    let update = 0;
    while (got.length < calls * K) {
      const segs = await stream.take(Math.min(3, calls * K - got.length));
      for (const s of segs) expect([s.T, s.numEnvs, s.rewards.length]).toEqual([T, 1, T]);
      takes.push(segs.map((s) => s.rewards[0]));
      got.push(...segs.map((s) => s.rewards[0]));
      await stream.commit(++update, 0, () => Promise.resolve([new Float32Array(1)]));
    }
    await producing;
    expect(counts).toEqual({ asked: calls, lost: 0 });
    // One receipt per call, each for one stream message of K segments.
    expect(receipts).toHaveLength(calls);
    for (const r of receipts) expect(r.segments).toBe(K);
    expect(new Set(receipts.map((r) => r.seq)).size).toBe(calls);
    // Segment k is the actor's k-th computation (its rewards are k): all 40, each once, and a
    // message's 4 arrive in the order the actor computed them.
    expect([...got].sort((a, b) => a - b)).toEqual(range(calls * K));
    for (let i = 0; i + 1 < got.length; i++) if ((i + 1) % K !== 0) expect(got[i + 1]).toBe(got[i] + 1);
    expect(takes.slice(0, -1).every((t) => t.length === 3)).toBe(true);
    expect(await pool.call(0, 'callCount')).toBe(calls * K);
    stream.stop();
    await stream.close(state(999));
    expect(stats).toMatchObject({ taken: calls * K, messages: calls, redelivered: 0, rejected: { malformed: 0, oversized: 0, replayed: 0 } });
    expect(host.work.segments).toBe(calls * K);
    const exp = await openExperience(learnerConn, runId, false);
    const cp = await loadCheckpoint(exp.os);
    const keys = cp?.learned.map(([k]) => k) ?? [];
    expect(keys).toHaveLength(calls * K);
    expect(new Set(keys)).toEqual(new Set(receipts.flatMap((r) => range(K).map((j) => `${r.streamed}#${j}`))));
    await expectStreamMessages(learnerConn, exp, 0);
  }, 60_000);

  it('a packed message is acked only once all its segments are committed; a learner restarted between learns only the rest', async () => {
    const exp = await openExperience(suite.nc, 'partial', true);
    const a = await SegmentConsumer.open(exp, { ackWaitMs: 500 });
    const pub = new SegmentPublisher(await openExperience(suite.nc, 'partial', false));
    const receipt = await pub.publishPacked('h0-0', [segment(10), segment(11), segment(12), segment(13)]);
    expect([receipt.segments, receipt.messages]).toEqual([4, 1]);
    const first = await a.take(3, 2000);
    expect(first.map((t) => t.sid)).toEqual(['h0-0#0', 'h0-0#1', 'h0-0#2']);
    expect(first.map((t) => t.seg.rewards[0])).toEqual([10, 11, 12]);
    await a.commit(first, state(1));
    expect(a.stats.taken).toBe(3);
    // Three of its four segments are in the stored checkpoint, the fourth is not: not acked.
    await new Promise((r) => setTimeout(r, 300));
    expect(await streamMessages(suite.nc, exp)).toBe(1);
    // The learner dies here (a is abandoned with the fourth segment in hand). A new one starts from
    // the checkpoint; the server sends the message again once its ack wait ran out.
    a.close();
    const b = await SegmentConsumer.open(exp, { ackWaitMs: 500 });
    const cp = await loadCheckpoint(exp.os);
    if (!cp) throw new Error('no checkpoint');
    b.restore(cp);
    const rest = await b.take(1, 5000);
    expect(rest.map((t) => [t.sid, t.seg.rewards[0]])).toEqual([['h0-0#3', 13]]);
    expect(b.stats.redelivered).toBe(3);
    await b.commit(rest, state(2));
    expect(b.stats.taken).toBe(4);
    await expectStreamMessages(suite.nc, exp, 0);
    const keys = (await loadCheckpoint(exp.os))?.learned.map(([k]) => k);
    expect(keys).toEqual(['h0-0#0', 'h0-0#1', 'h0-0#2', 'h0-0#3']);
  }, 30_000);

  it('a replayed packed message is deduped; a malformed or oversized one is rejected and counted once, its segment count stated; a big one goes through the object store', async () => {
    const exp = await openExperience(suite.nc, 'packbad', true);
    const reasons: Array<[string, string]> = [];
    const consumer = await SegmentConsumer.open(exp, { onReject: (kind, why) => reasons.push([kind, why]), check: (s) => (s.rewards[0] === 99 ? 'rewards of 99' : null) });
    const pub = new SegmentPublisher(await openExperience(suite.nc, 'packbad', false));
    await pub.publishPacked('h1-0', [segment(1), segment(2), segment(3)]);
    // The same message again (a host retrying after a lost PubAck): the server drops it.
    expect((await pub.publishPacked('h1-0', [segment(1), segment(2), segment(3)])).duplicate).toBe(true);
    // The same message id's segments under another message id: a replay.
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'h1-0', sentAt: Date.now(), segs: [segment(1), segment(2), segment(3)] }), { msgID: 'replay-h1-0' });
    // Segment 1 of 3 is not a segment; segment 2 of 3 fails the learner's own check.
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'h1-1', sentAt: Date.now(), segs: [segment(4), { ...segment(5), rewards: 'x' }, segment(6)] }), { msgID: 'bad-1' });
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'h1-2', sentAt: Date.now(), segs: [segment(7), segment(8), segment(99)] }), { msgID: 'bad-2' });
    // A reference to a stored packed message far above the caps.
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'h1-3', sentAt: Date.now(), ref: 's-h1-3', bytes: 1e9, n: 4 }), { msgID: 'bad-3' });
    // More segments than a message may pack.
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'h1-4', sentAt: Date.now(), segs: range(MAX_PACK + 1).map(() => segment(1)) }), { msgID: 'bad-4' });
    // Two segments of 300 000 floats each: 2.4 MB, above the 1 MiB payload limit.
    const big = await pub.publishPacked('h1-5', [segment(20, 300_000), segment(21, 300_000)]);
    expect(big.messages).toBeGreaterThan(1);
    expect(big.segments).toBe(2);

    const taken: TakenSegment[] = [];
    const end = Date.now() + 10_000;
    while (taken.length < 5 && Date.now() < end) taken.push(...(await consumer.take(5 - taken.length, 2000)));
    expect(taken.map((t) => [t.sid, t.seg.rewards[0]])).toEqual([['h1-0#0', 1], ['h1-0#1', 2], ['h1-0#2', 3], ['h1-5#0', 20], ['h1-5#1', 21]]);
    // One count per message, whatever its segments.
    expect(consumer.stats.rejected).toEqual({ malformed: 3, oversized: 1, replayed: 1 });
    expect(reasons).toHaveLength(5);
    expect(reasons[0]).toEqual(['replayed', 'packed message h1-0 (3 segments) was already learned from']);
    expect(reasons[1][0]).toBe('malformed');
    expect(reasons[1][1]).toMatch(/^packed message h1-1 \(3 segments\): not a segment \(segment 1\): rewards/);
    expect(reasons[2]).toEqual(['malformed', 'packed message h1-2 (3 segments) (segment 2): rewards of 99']);
    expect(reasons[3]).toEqual(['oversized', `packed message h1-3 (4 segments) of 1000000000 bytes exceeds ${16 * 1024 * 1024}`]);
    expect(reasons[4][0]).toBe('malformed');
    await consumer.commit(taken, state(1));
    expect(consumer.stats.taken).toBe(5);
    await expectStreamMessages(suite.nc, exp, 0);
    // The big message's object went once it was acked.
    expect((await exp.os.list()).filter((o) => o.name.startsWith('s-'))).toEqual([]);
  }, 30_000);

  it('a host SIGKILLed with packed calls in flight: each is counted as K lost segments, and nothing is learned twice', async () => {
    const K = 4;
    const T = 8;
    const { children, learnerConn, spawner, pool, events } = await twoHostsWithStreamActor(suite.token, 'pack-kill', suite.closers);
    const config = resolveExperiment('impala-cartpole', { seed: 1 });
    const stream = await jetstreamExperience(spawner, { config, capacity: 8, check: () => null }, { runId: 'packkill', pack: K, checkpointEveryMs: 0 });
    await stream.publishWeights(0, [new Float32Array(1)]);

    const calls = 30;
    const counts = { asked: 0, lost: 0, failedCalls: 0 };
    const receipts: StreamReceipt[] = [];
    const producing = produceIntoStream(0, {
      stream,
      progress: {
        lose: (n = 1) => {
          counts.lost += n;
          counts.failedCalls++;
        },
        backoff: () => new Promise<void>((res) => setTimeout(res, 100)),
      },
      stopping: () => counts.asked >= calls,
      request: async () => {
        counts.asked++;
        receipts.push((await pool.call(0, 'sampleSegment', null, 0, T, 0)) as unknown as StreamReceipt);
      },
    });
    const exp = await openExperience(learnerConn, 'packkill', false);
    let learned: string[] = [];
    let learning = true;
    const learner = (async () => {
      let update = 0;
      while (learning) {
        await stream.take(2);
        await stream.commit(++update, 0, () => Promise.resolve([new Float32Array(1)]));
        learned = (await loadCheckpoint(exp.os))?.learned.map(([k]) => k) ?? [];
      }
    })();
    await waitFor(() => receipts.length >= 5, 10_000, 'packed segments before the kill');
    const placed = spawner.placements()[0].hostName;
    children[placed === 'pack-kill-a' ? 0 : 1].kill('SIGKILL');
    await producing;
    const receipted = receipts.flatMap((r) => range(K).map((j) => `${r.streamed}#${j}`));
    await waitFor(() => receipted.every((k) => learned.includes(k)), 15_000, 'every receipted segment learned');
    learning = false;
    stream.stop();
    await learner;
    await stream.close(state(999));
    learned = (await loadCheckpoint(exp.os))?.learned.map(([k]) => k) ?? [];

    expect(events.some((e) => e.type === 'died')).toBe(true);
    expect(events.some((e) => e.type === 'replaced')).toBe(true);
    // A failed packed call loses its K segments: counted K at a time.
    expect(counts.failedCalls).toBeGreaterThanOrEqual(1);
    expect(counts.lost).toBe(K * counts.failedCalls);
    expect(receipts.length + counts.failedCalls).toBe(calls);
    expect(receipts.every((r) => r.segments === K)).toBe(true);
    expect(new Set(learned).size).toBe(learned.length);
    // A lost call's message may still have reached the stream before its host died: at most K each.
    expect(learned.length - receipted.length).toBeLessThanOrEqual(counts.lost);
    expect(learned.length % K).toBe(0);
  }, 60_000);
});
