import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { headers, type NatsConnection } from '@nats-io/nats-core';
import { connectCluster } from '../../../src/cluster/connect';
import { encodeFrame } from '../../../src/cluster/codec';
import { loadCheckpoint, openExperience, SegmentConsumer, SegmentPublisher, WeightsStore, type Experience } from '../../../src/cluster/experience';
import type { RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';
import { killChild, REPO, testServer, waitFor } from './helpers';

/** A segment of T=4 steps × 2 envs whose 8 rewards are all `r`; `bigObs` floats of observation push it over 1 MiB. */
function segment(r: number, bigObs = 0) {
  const T = 4;
  const n = 2;
  const obsDim = bigObs ? bigObs / (T * n) : 1;
  return {
    actorIndex: 0, policyVersion: 0, T, numEnvs: n, obsDim,
    obs: new Float32Array(T * n * obsDim), actions: new Int32Array(T * n), logProbs: new Float32Array(T * n),
    rewards: new Float32Array(T * n).fill(r), dones: new Uint8Array(T * n), truncated: new Uint8Array(T * n),
    finalIndex: new Int32Array(0), finalObs: new Float32Array(0), lastObs: new Float32Array(n * obsDim),
    episodeReturns: new Float32Array(0), episodeLengths: new Int32Array(0), seconds: 0.01,
  };
}

interface Line { update: number; taken: number; rejected: { malformed: number; oversized: number; replayed: number } }

function startLearner(server: string, token: string, run: string, lines: Line[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/streamLearner.ts', import.meta.url)), server, token, run], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      for (const p of parts) {
        if (p.startsWith('ready')) resolve(child);
        else if (p.startsWith('{')) lines.push(JSON.parse(p) as Line);
      }
    });
    child.once('exit', (code) => reject(new Error(`learner exited (${code})`)));
  });
}

describe('experience through JetStream', () => {
  let server: RunningNatsServer;
  let token: string;
  let nc: NatsConnection;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    token = generateToken();
    server = await testServer({ token });
    nc = await connectCluster({ servers: [server.url], token, name: 'actor side' });
  }, 20_000);

  afterAll(async () => {
    await Promise.all(children.map((c) => killChild(c, 'SIGKILL')));
    await nc?.close();
    await server?.stop();
  });

  it('a learner SIGKILLed mid-run and restarted learns every segment exactly once; bad ones are rejected and counted', async () => {
    const N = 60;
    const run = 'killtest';
    const lines: Line[] = [];
    children.push(await startLearner(server.url, token, run, lines));
    const exp: Experience = await openExperience(nc, run, false);
    const pub = new SegmentPublisher(exp);
    const big = new Set([7, 40]);
    const receipts = [];
    for (let k = 0; k < N; k++) {
      // Segment k carries rewards k+1; two are above the 1 MiB payload limit (object store).
      receipts.push(await pub.publish(`a0-${k}`, segment(k + 1, big.has(k) ? 300_000 : 0)));
      if (k === 20) await waitFor(() => (lines.at(-1)?.taken ?? 0) >= 8, 20_000, 'the learner to learn some');
      if (k === 21) {
        children[0].kill('SIGKILL');
        await new Promise((r) => children[0].once('exit', r));
      }
    }
    expect(receipts.filter((r) => r.messages > 1).map((r) => r.sid)).toEqual(['a0-7', 'a0-40']);
    // Sent again with the same id (an actor retrying after a lost PubAck): the server drops it.
    expect((await pub.publish('a0-3', segment(4))).duplicate).toBe(true);
    // Injected: garbage, a reference to an object far above the caps, and segment 3 again under a new message id.
    await exp.js.publish(exp.names.subject, new TextEncoder().encode('not a frame'), { msgID: 'bad-1' });
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'a0-x', sentAt: Date.now(), ref: 's-a0-x', bytes: 1e9 }), { msgID: 'bad-2' });
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'a0-3', sentAt: Date.now(), seg: segment(4) }), { msgID: 'replay-3' });
    const h = headers();
    h.set('Nats-Msg-Id', 'bad-3');
    await exp.js.publish(exp.names.subject, encodeFrame(1, { sid: 'a0-y', sentAt: Date.now(), seg: { ...segment(1), rewards: 'x' } }), { headers: h });

    const afterKill = lines.at(-1)?.taken ?? 0;
    expect(afterKill).toBeGreaterThan(0);
    expect(afterKill).toBeLessThan(N);
    const restartLines: Line[] = [];
    children.push(await startLearner(server.url, token, run, restartLines));
    await waitFor(() => {
      const l = restartLines.at(-1);
      return !!l && l.taken >= N && l.rejected.malformed + l.rejected.oversized + l.rejected.replayed >= 4;
    }, 30_000, 'the restarted learner to take every segment');
    await killChild(children[1], 'SIGKILL');

    const cp = await loadCheckpoint(exp.os);
    expect(cp).not.toBeNull();
    if (!cp) return;
    const sids = cp.learned.map(([s]) => s);
    expect(new Set(sids).size).toBe(N);
    expect(sids.length).toBe(N);
    expect(cp.taken).toBe(N);
    // [count, Σ rewards]: segment k has 8 rewards of k+1, so Σ = 8·N(N+1)/2; a segment learned twice or lost would change it.
    expect(Array.from(cp.weights[0])).toEqual([N, (8 * N * (N + 1)) / 2]);
    expect(cp.rejected).toEqual({ malformed: 2, oversized: 1, replayed: 1 });
    // Everything is acked or terminated: the work queue is empty.
    const jsm = await (await import('@nats-io/jetstream')).jetstreamManager(nc);
    const info = await jsm.streams.info(exp.names.stream);
    expect(info.state.messages).toBe(0);
    // The two big segments' objects were removed once acked.
    expect((await exp.os.list()).filter((o) => o.name.startsWith('s-'))).toEqual([]);
  }, 60_000);

  it('a message sent again because its ack wait ran out (a slow update) is neither counted nor learned twice', async () => {
    const exp = await openExperience(nc, 'slowupdate', true);
    const consumer = await SegmentConsumer.open(exp, { ackWaitMs: 400 });
    const pub = new SegmentPublisher(await openExperience(nc, 'slowupdate', false));
    await pub.publish('a0-0', segment(1));
    await exp.js.publish(exp.names.subject, new TextEncoder().encode('not a frame'), { msgID: 'bad-1' });
    await pub.publish('a0-1', segment(2));
    const first = await consumer.take(2, 1500);
    expect(first.map((t) => t.sid)).toEqual(['a0-0', 'a0-1']);
    // The update takes longer than the ack wait: the server sends all three again.
    await new Promise((r) => setTimeout(r, 1200));
    const again = await consumer.take(2, 1500);
    expect(again).toEqual([]);
    expect(consumer.stats.rejected).toEqual({ malformed: 1, oversized: 0, replayed: 0 });
    await consumer.commit(first, { update: 1, version: 1, weights: [new Float32Array(1)] });
    expect(consumer.stats.taken).toBe(2);
    const jsm = await (await import('@nats-io/jetstream')).jetstreamManager(nc);
    const end = Date.now() + 5000;
    while ((await jsm.streams.info(exp.names.stream)).state.messages !== 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect((await jsm.streams.info(exp.names.stream)).state.messages).toBe(0);
  }, 20_000);

  it('weights are published by version and fetched by version', async () => {
    const exp = await openExperience(nc, 'weights', true);
    const store = new WeightsStore(exp.os);
    await store.publish(0, [new Float32Array([1, 2]), new Float32Array([3])]);
    await store.publish(1, [new Float32Array([5, 6]), new Float32Array([7])]);
    const reader = new WeightsStore((await openExperience(nc, 'weights', false)).os);
    expect((await reader.fetch(1)).map((w) => Array.from(w))).toEqual([[5, 6], [7]]);
    expect((await reader.fetch(0)).map((w) => Array.from(w))).toEqual([[1, 2], [3]]);
    await expect(reader.fetch(9)).rejects.toThrow(/version 9/);
  });
});
