import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorCallTimeoutError, ActorDiedError, RemoteActorError } from '../../../../src/core/remote/errors';
import { remoteClass, type RemoteActor } from '../../../../src/core/remote/remoteClass';
import { setActorSpawner } from '../../../../src/core/remote/spawner';
import { Counter, Greeter } from './fixtures/testActors';
import { countingSpawner, FIXTURE_MODULE, waitFor } from './helpers';

const spawner = countingSpawner();
const CounterActor = remoteClass(Counter, { module: FIXTURE_MODULE, name: 'Counter' });

describe('remoteClass (worker_threads)', () => {
  let a: RemoteActor<Counter>;
  let b: RemoteActor<Counter>;

  beforeAll(async () => {
    setActorSpawner(spawner);
    [a, b] = await Promise.all([CounterActor.create(10, 'a'), CounterActor.create(100, 'b')]);
  });

  afterAll(async () => {
    await Promise.all([a?.terminate(), b?.terminate()]);
    await waitFor(() => spawner.live() === 0);
    setActorSpawner(undefined);
  });

  it('runs methods remotely, each actor in its own worker thread', async () => {
    expect(a.actorName).toMatch(/^Counter#\d+$/);
    expect(a.actorName).not.toBe(b.actorName);
    expect(await a.add(5)).toBe(15);
    expect(await a.describe()).toBe('a:15');
    expect(await b.call('add', [1])).toBe(101);
    expect(await a.pid()).toBe(process.pid); // threads, same process
    expect(a.methods).toContain('summarize');
    expect('add' in a).toBe(true);
    expect(a.isDead).toBe(false);
  });

  it('keeps 20 concurrent calls across 2 actors apart', async () => {
    const calls = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).echoAfter({ i, tag: `v${i}` }, 20 - i));
    const results = await Promise.all(calls);
    results.forEach((r, i) => expect(r).toEqual({ i, tag: `v${i}` }));
  });

  it('re-raises a remote error as RemoteActorError with the remote stack', async () => {
    const err = await a.fail('bad input').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteActorError);
    const r = err as RemoteActorError;
    expect(r.message).toBe(`[${a.actorName}] fail failed: fixture failure: bad input`);
    expect(r.actorName).toBe(a.actorName);
    expect(r.method).toBe('fail');
    expect(r.remoteName).toBe('TypeError');
    expect(r.remoteStack).toMatch(/fixtures[\\/]testActors\.ts/);
    expect(r.stack).toContain(r.remoteStack);

    const asyncErr = await a.failAsync('later').catch((e: unknown) => e);
    expect(asyncErr).toBeInstanceOf(RemoteActorError);
    expect((asyncErr as Error).message).toContain('failAsync failed: async fixture failure: later');

    const bare = await a.throwString().catch((e: unknown) => e);
    expect((bare as Error).message).toBe(`[${a.actorName}] throwString failed: a bare string`);
    // The actor survives its own errors.
    expect(await a.describe()).toBe('a:15');
  });

  it('rejects unknown methods locally', async () => {
    const loose = a as unknown as { nope(): Promise<unknown> };
    await expect(loose.nope()).rejects.toThrow(/has no method 'nope'/);
  });

  it('rejects create when the constructor throws, and when the key is unknown', async () => {
    const err = await CounterActor.create(7, 'x', { failInConstructor: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteActorError);
    expect((err as RemoteActorError).method).toBe('constructor');
    expect((err as RemoteActorError).message).toMatch(/constructor failed: constructor refused start=7/);
    expect((err as RemoteActorError).remoteStack).toMatch(/testActors\.ts/);

    const Unknown = remoteClass(Counter, { key: 'test.NotThere', module: FIXTURE_MODULE });
    await expect(Unknown.create(1)).rejects.toThrow(/no actor class registered under key 'test.NotThere'/);
  });

  it('builds a class from the key it declares alone; the worker registers the exports of `module`', async () => {
    const Greeters = remoteClass(Greeter, { module: FIXTURE_MODULE });
    expect(Greeters.key).toBe('test.Greeter');
    const g = await Greeters.create('hello');
    try {
      expect(g.actorName).toMatch(/^test\.Greeter#\d+$/);
      expect(await g.greet('actor')).toBe('hello, actor');
    } finally {
      await g.terminate();
    }
    class Undeclared {}
    expect(() => remoteClass(Undeclared)).toThrow(/declares no actor key/);
  });

  it('transfers a 1 MB Float32Array argument without copying', async () => {
    const n = 262_144; // 1 MiB
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = i % 7;
    let expectedSum = 0;
    for (let i = 0; i < n; i++) expectedSum += i % 7;
    const res = await a.summarize(data);
    expect(data.byteLength).toBe(0); // detached: it moved
    expect(res).toEqual({ length: n, sum: expectedSum, first: 0, last: (n - 1) % 7, bufferBytes: n * 4 });

    const obs = new Float32Array(1000).fill(2);
    const rewards = new Float32Array(10).fill(0.25);
    expect(await a.summarizeBatch({ obs, extra: { rewards, steps: 3 } })).toEqual([1000, 10, 0.25, 3]);
    expect(obs.byteLength).toBe(0);
    expect(rewards.byteLength).toBe(0);
  });

  it('copies (does not detach) a view on part of a buffer', async () => {
    const big = new Float32Array(100).fill(1);
    const part = big.subarray(10, 20);
    const res = await a.summarize(part);
    expect(res.sum).toBe(10);
    expect(big.byteLength).toBe(400);
  });

  it('transfers a returned Float32Array out of the worker', async () => {
    const out = await a.makeArray(1000);
    expect(out).toBeInstanceOf(Float32Array);
    expect(out.length).toBe(1000);
    expect(out[999]).toBe(499.5);
    expect(await a.lastArrayByteLength()).toBe(0);
  });

  it('times out a call when asked to', async () => {
    const err = await a.call('echoAfter', ['late', 500], { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActorCallTimeoutError);
    expect(await a.ping(1000)).toBeGreaterThanOrEqual(0);
  });
});

describe('actor death', () => {
  beforeAll(() => setActorSpawner(spawner));
  afterAll(async () => {
    await waitFor(() => spawner.live() === 0);
    setActorSpawner(undefined);
  });

  it('rejects in-flight calls with ActorDiedError on process.exit in the worker', async () => {
    const actor = await CounterActor.create(0);
    const pending = actor.forever().catch((e: unknown) => e);
    const err = await actor.exitAfter(20, 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActorDiedError);
    expect((err as ActorDiedError).method).toBe('exitAfter');
    expect(await pending).toBeInstanceOf(ActorDiedError);
    const death = await actor.dead;
    expect(death).toMatchObject({ actorName: actor.actorName, reason: 'exit', exitCode: 3 });
    expect(actor.isDead).toBe(true);
    await expect(actor.add(1)).rejects.toBeInstanceOf(ActorDiedError);
  });

  it('reports an uncaught async error as death with the error', async () => {
    const actor = await CounterActor.create(0);
    const err = await actor.crashAfter(10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActorDiedError);
    const death = await actor.dead;
    expect(death.reason).toBe('error');
    expect(death.error?.message).toBe('uncaught async crash');
    expect((err as Error).message).toContain('uncaught async crash');
  });

  it('crashes an actor whose class declares no crash method: the worker host gives every actor one', async () => {
    const actor = await CounterActor.create(0);
    expect(actor.methods).toContain('crash');
    await actor.crash('crashed on request').catch((e: unknown) => expect(e).toBeInstanceOf(ActorDiedError));
    const death = await actor.dead;
    expect(death).toMatchObject({ reason: 'error', error: expect.objectContaining({ message: 'crashed on request' }) });
  });

  it('rejects in-flight calls on terminate() and notifies onDeath', async () => {
    const actor = await CounterActor.create(0);
    const seen: string[] = [];
    actor.onDeath((d) => seen.push(d.reason));
    const pending = actor.forever().catch((e: unknown) => e);
    await actor.terminate();
    expect(await pending).toBeInstanceOf(ActorDiedError);
    expect(seen).toEqual(['terminated']);
  });
});
