import { afterAll, describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { HostService } from '../../../src/cluster/hostService';
import { jetstreamExperience } from '../../../src/cluster/jetstreamExperience';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import type { StreamReceipt } from '../../../src/cluster/protocol';
import { ActorPool } from '../../../src/core/remote/actorPool';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { nodeWorkerSpawner, type ActorSpawner, type SpawnedWorker } from '../../../src/core/remote/spawner';
import { collectTransferables } from '../../../src/core/remote/transfer';
import { Rng } from '../../../src/core/rng';
import type { RolloutActorOptions } from '../../../src/engine/rolloutActor';
import { RngActor } from './fixtures/clusterActors';
import { testHostSpawner } from './fixtures/hostSpawner';
import { clusterServerPerSuite, waitFor } from './helpers';

/** The app's own actor worker (src/workers/actorClasses.ts: the real RolloutActor). */
const appSpawner = nodeWorkerSpawner({
  host: new URL('../../../src/workers/actorHost.node.mjs', import.meta.url),
  entry: new URL('../../../src/workers/actor.node.ts', import.meta.url),
});

interface Answer {
  id: string;
  type: string;
  name?: string;
  value: unknown;
}

const toWire = (v: unknown) => (collectTransferables(v).length > 0 ? { type: 'HANDLER', name: 'parl-typed-arrays', value: v } : { type: 'RAW', value: v });

/** An actor worker driven by raw messages (the actor host's control messages and comlink calls); counts the calls it is sent. */
async function rawActor(spawner: ActorSpawner, key: string, args: unknown[]) {
  const worker = await spawner.spawn({ name: key });
  const waiting = new Map<string, (m: Answer) => void>();
  let ready: (m: unknown) => void = () => undefined;
  const started = new Promise<unknown>((r) => (ready = r));
  worker.endpoint.addEventListener('message', ((ev: MessageEvent) => {
    const m = ev.data as { __parl?: string; id?: string };
    if (m.__parl === 'ready' || m.__parl === 'init-error') ready(m);
    else if (typeof m.id === 'string') waiting.get(m.id)?.(m as Answer);
  }) as EventListener);
  worker.endpoint.postMessage({ __parl: 'init', key, args, name: key }, []);
  expect(await started).toMatchObject({ __parl: 'ready' });
  let n = 0;
  const counts = { sent: 0 };
  const send = (msg: { id: string }): Promise<Answer> =>
    new Promise((resolve) => {
      waiting.set(msg.id, resolve);
      counts.sent++;
      worker.endpoint.postMessage(msg, collectTransferables(msg));
    });
  return {
    worker,
    counts,
    call: (method: string, ...a: unknown[]) => send({ id: `c${n++}`, type: 'APPLY', path: [method], argumentList: a.map(toWire) } as { id: string }),
    repeat: (method: string, k: number, first: unknown[], rest: unknown[]) => send({ __parl: 'repeat', id: `r${n++}`, method, k, first: first.map(toWire), rest: rest.map(toWire) } as { id: string }),
  };
}

/** A segment without its wall-clock time (the one field two identical computations do not share). */
function timeless(seg: unknown): Record<string, unknown> {
  const { seconds: _seconds, ...rest } = seg as Record<string, unknown>;
  return rest;
}

describe("the actor host's repeated call (a packed call's K calls in one message)", () => {
  const workers: SpawnedWorker[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  });

  it('a real RolloutActor gives the same K segments, in one message each way, as K separate calls to a twin with the same seed', async () => {
    const options: RolloutActorOptions = { envId: 'CartPole-v1', numEnvs: 2, seed: 7, actorIndex: 1, model: { obsDim: 4, numActions: 2, hidden: [16], activation: 'tanh', kind: 'actorCritic' }, backend: 'wasm' };
    const [packed, separate] = await Promise.all([rawActor(appSpawner, 'RolloutActor', [options]), rawActor(appSpawner, 'RolloutActor', [options])]);
    workers.push(packed.worker, separate.worker);
    expect((await packed.call('init')).value).toBe('wasm');
    expect((await separate.call('init')).value).toBe('wasm');
    const K = 3;
    const T = 16;
    const before = packed.counts.sent;
    const one = await packed.repeat('sampleSegment', K, [null, 0, T, 0], [null, 0, T, 0]);
    expect(packed.counts.sent - before).toBe(1);
    const many: unknown[] = [];
    for (let j = 0; j < K; j++) many.push((await separate.call('sampleSegment', null, 0, T)).value);
    expect(one.type).toBe('HANDLER');
    expect(one.name).toBe('parl-typed-arrays');
    const segs = one.value as Array<{ obs: Float32Array; T: number }>;
    expect(segs).toHaveLength(K);
    expect(segs.map(timeless)).toEqual(many.map(timeless));
    // The K are consecutive segments (the envs and the actor's Rng moved on), not one repeated.
    expect(segs[1].obs).not.toEqual(segs[0].obs);
    expect(segs[2].obs).not.toEqual(segs[1].obs);
  }, 60_000);

  it('the first weights go to the first call, the rest keep them; a throw in call j ends the packed call there and is its answer', async () => {
    const seed = 11;
    const T = 5;
    const actor = await rawActor(testHostSpawner, 'RngActor', [seed, 6]);
    workers.push(actor.worker);
    const first = await actor.repeat('sampleSegment', 3, [[Float32Array.of(2)], 4, T], [null, 4, T]);
    // By hand: call j's rewards are the Rng's uniforms T·j … T·j+T−1, plus the weight 2 (float32).
    const rng = new Rng(seed);
    const expected = Array.from({ length: 3 }, () => Float32Array.from({ length: T }, () => rng.uniform() + 2));
    expect((first.value as Array<{ rewards: Float32Array; policyVersion: number }>).map((s) => [s.rewards, s.policyVersion])).toEqual(expected.map((r) => [r, 4]));
    // Calls 3, 4, 5 run, call 6 throws: call 7 never runs, and the answer is the error alone.
    const failed = await actor.repeat('sampleSegment', 5, [null, 4, T], [null, 4, T]);
    expect(failed.type).toBe('HANDLER');
    expect(failed.name).toBe('throw');
    expect(failed.value).toMatchObject({ isError: true, value: { name: 'RangeError', message: 'call 6 fails on purpose' } });
    expect((await actor.call('callCount')).value).toBe(7);
  }, 30_000);

  it('runs only the methods the actor reported: no constructor, no Object.prototype, nothing by path', async () => {
    const actor = await rawActor(testHostSpawner, 'RngActor', [1]);
    workers.push(actor.worker);
    for (const method of ['constructor', 'toString', '__proto__', 'rng', 'nope']) {
      const a = await actor.repeat(method, 2, [], []);
      expect(a.name).toBe('throw');
      expect(a.value).toMatchObject({ isError: true, value: { name: 'TypeError', message: `the actor has no method '${method}'` } });
    }
    const zero = await actor.repeat('callCount', 0, [], []);
    expect(zero.value).toMatchObject({ value: { name: 'RangeError' } });
    expect((await actor.call('callCount')).value).toBe(0);
  }, 30_000);
});

describe('a packed streamed call through a host: one worker round trip', () => {
  const suite = clusterServerPerSuite('packed call test');

  it('K=4: one message to the worker and one back; the stream gets what 4 calls on a twin give; a throw in the 2nd loses the whole call', async () => {
    const K = 4;
    const T = 6;
    const seed = 5;
    // Messages carrying a call (an `id`) to and from each worker, by the actor's name.
    const counted = new Map<string, { toWorker: number; fromWorker: number }>();
    const counting: ActorSpawner = {
      kind: 'counting',
      async spawn(o) {
        const w = await testHostSpawner.spawn(o);
        const c = { toWorker: 0, fromWorker: 0 };
        counted.set(o.name, c);
        const hasId = (m: unknown): boolean => typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'string';
        w.endpoint.addEventListener('message', ((ev: MessageEvent) => void (hasId(ev.data) && c.fromWorker++)) as EventListener);
        return {
          endpoint: {
            postMessage: (m: unknown, transfer?: Transferable[]) => {
              if (hasId(m)) c.toWorker++;
              w.endpoint.postMessage(m, transfer);
            },
            addEventListener: w.endpoint.addEventListener.bind(w.endpoint),
            removeEventListener: w.endpoint.removeEventListener.bind(w.endpoint),
          },
          onExit: (l) => w.onExit(l),
          terminate: () => w.terminate(),
        };
      },
    };
    const hostConn = await suite.connect('host packed');
    const host = new HostService(hostConn, { capacity: 3, hostName: 'host-packed', spawner: counting, beatMs: 200 });
    const learnerConn = await suite.connect('learner packed');
    const spawner = new NatsActorSpawner(learnerConn);
    suite.closers.push(() => hostConn.close(), () => learnerConn.close(), () => host.close(), () => spawner.close());
    await waitFor(() => spawner.liveHosts().some((h) => h.hostId === host.hostId), 10_000, 'the host');
    const opts = { heartbeatMs: 500, heartbeatTimeoutMs: 15_000 };
    const packedPool = await ActorPool.create(remoteClass(RngActor, { spawner, name: 'packed' }), 1, () => [seed], opts);
    const twinPool = await ActorPool.create(remoteClass(RngActor, { spawner, name: 'twin' }), 1, () => [seed], opts);
    const failingPool = await ActorPool.create(remoteClass(RngActor, { spawner, name: 'failing' }), 1, () => [seed, 1], opts);
    suite.closers.push(() => packedPool.terminate(), () => twinPool.terminate(), () => failingPool.terminate());
    const config = resolveExperiment('impala-cartpole', { seed: 1 });
    const stream = await jetstreamExperience(spawner, { config, capacity: 8, check: () => null }, { runId: 'packedcall', pack: K, checkpointEveryMs: 0 });
    await stream.publishWeights(0, [Float32Array.of(3)]);
    const route = spawner.router;

    const packedCounts = counted.get(packedPool.actor(0).actorName);
    expect(packedCounts).toEqual({ toWorker: 0, fromWorker: 0 });
    const receipt = (await packedPool.call(0, 'sampleSegment', null, 0, T)) as unknown as StreamReceipt;
    expect(receipt.segments).toBe(K);
    expect(packedCounts).toEqual({ toWorker: 1, fromWorker: 1 });
    const segs = await stream.take(K);
    expect(segs).toHaveLength(K);

    // The twin, called K times the plain way (the host routes nothing to the stream now): the weights once, then null.
    spawner.router = undefined;
    const plain: Array<{ rewards: Float32Array }> = [];
    for (let j = 0; j < K; j++) plain.push((await twinPool.call(0, 'sampleSegment', j === 0 ? [Float32Array.of(3)] : null, 0, T)) as unknown as { rewards: Float32Array });
    expect(counted.get(twinPool.actor(0).actorName)).toEqual({ toWorker: K, fromWorker: K });
    expect(segs.map((s) => s.rewards)).toEqual(plain.map((p) => p.rewards));
    // By hand: the Rng's first K·T uniforms, plus the published weight 3.
    const rng = new Rng(seed);
    expect(segs.map((s) => s.rewards)).toEqual(Array.from({ length: K }, () => Float32Array.from({ length: T }, () => rng.uniform() + 3)));

    spawner.router = route;
    const failingCounts = counted.get(failingPool.actor(0).actorName);
    await expect(failingPool.call(0, 'sampleSegment', null, 0, T)).rejects.toThrow(/call 1 fails on purpose/);
    expect(failingCounts).toEqual({ toWorker: 1, fromWorker: 1 });
    expect(host.work.segments).toBe(K);
    spawner.router = undefined;
    // Calls 0 and 1 ran; 2 and 3 did not.
    expect(await failingPool.call(0, 'callCount')).toBe(2);
    stream.stop();
    await stream.close({ update: 1, version: 0, weights: [Float32Array.of(3)] });
  }, 60_000);
});
