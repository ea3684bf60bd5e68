import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ActorPool, ActorPoolStartError, type PoolEvent } from '../../../../src/core/remote/actorPool';
import { ActorDiedError, RemoteActorError } from '../../../../src/core/remote/errors';
import { remoteClass } from '../../../../src/core/remote/remoteClass';
import { setActorSpawner } from '../../../../src/core/remote/spawner';
import { Counter } from './fixtures/testActors';
import { countingSpawner, FIXTURE_MODULE, waitFor } from './helpers';

const spawner = countingSpawner();
const Rollout = remoteClass(Counter, { module: FIXTURE_MODULE, name: 'RolloutActor' });

function recorder(): { events: PoolEvent[]; next(type: PoolEvent['type'], index: number): Promise<PoolEvent> } {
  const events: PoolEvent[] = [];
  return {
    events,
    async next(type, index) {
      await waitFor(() => events.some((e) => e.type === type && e.index === index), 10_000);
      return events.find((e) => e.type === type && e.index === index) as PoolEvent;
    },
  };
}

describe('ActorPool', () => {
  let pool: ActorPool<Counter> | undefined;

  beforeAll(() => setActorSpawner(spawner));
  afterEach(async () => {
    await pool?.terminate();
    pool = undefined;
  });
  afterAll(() => setActorSpawner(undefined));

  it('builds n actors, maps a method over them, reports status', async () => {
    const spawned: number[] = [];
    pool = await ActorPool.create(Rollout, 3, (i) => [i * 10, `r${i}`], {
      heartbeatMs: 0,
      afterSpawn: async (actor, i) => {
        spawned.push(i);
        await actor.add(1); // e.g. push weights
      },
    });
    expect(pool.size).toBe(3);
    expect(spawned.sort()).toEqual([0, 1, 2]);
    expect(await pool.call(1, 'describe')).toBe('r1:11');
    const results = await pool.map('add', (i) => [i]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'fulfilled', value: 12 },
      { status: 'fulfilled', value: 23 },
    ]);
    const failed = await pool.map('fail', (i) => [`slot ${i}`]);
    expect(failed.every((r) => r.status === 'rejected' && r.reason instanceof RemoteActorError)).toBe(true);
    const st = pool.status();
    expect(st.map((s) => s.state)).toEqual(['idle', 'idle', 'idle']);
    expect(st[1]).toMatchObject({ index: 1, respawns: 0, calls: 3, inFlight: 0 });
    expect(st[1].name).toMatch(/^RolloutActor#\d+$/);
    expect(st[2].lastError?.message).toContain('fixture failure: slot 2');
    expect(st[2].lastError?.remoteStack).toMatch(/testActors\.ts/);
  });

  it('shows busy actors', async () => {
    pool = await ActorPool.create(Rollout, 1, () => [0], { heartbeatMs: 0 });
    const p = pool.call(0, 'echoAfter', 'x', 100);
    expect(pool.status()[0]).toMatchObject({ state: 'busy', inFlight: 1 });
    expect(await p).toBe('x');
    expect(pool.status()[0].state).toBe('idle');
  });

  for (const kind of ['exit', 'crash', 'terminate'] as const) {
    it(`replaces an actor that dies by ${kind}; the in-flight call rejects with ActorDiedError`, async () => {
      const rec = recorder();
      const afterSpawn: number[] = [];
      pool = await ActorPool.create(Rollout, 2, (i) => [100 * i], {
        heartbeatMs: 0,
        onEvent: (e) => rec.events.push(e),
        afterSpawn: (_a, i) => void afterSpawn.push(i),
      });
      const victim = pool.actor(1);
      const inFlight =
        kind === 'exit' ? pool.call(1, 'exitAfter', 10, 1) : kind === 'crash' ? pool.call(1, 'crashAfter', 10) : pool.call(1, 'forever');
      const settled = inFlight.catch((e: unknown) => e);
      if (kind === 'terminate') await victim.terminate();
      const err = await settled;
      expect(err).toBeInstanceOf(ActorDiedError);
      expect((err as ActorDiedError).actorName).toBe(victim.actorName);

      const died = await rec.next('died', 1);
      expect(died).toMatchObject({ actorName: victim.actorName, respawns: 0 });
      expect(died.death?.reason).toBe(kind === 'exit' ? 'exit' : kind === 'crash' ? 'error' : 'terminated');
      const replaced = await rec.next('replaced', 1);
      expect(replaced.respawns).toBe(1);
      expect(replaced.actorName).not.toBe(victim.actorName);

      // The replacement works, with the same constructor args, and got afterSpawn.
      expect(await pool.call(1, 'add', 1)).toBe(101);
      expect(afterSpawn.filter((i) => i === 1)).toHaveLength(2);
      const st = pool.status()[1];
      expect(st).toMatchObject({ respawns: 1, state: 'idle', name: replaced.actorName });
      expect(pool.status()[0].respawns).toBe(0);
      expect(pool.actor(1).actorName).toBe(replaced.actorName);
    });
  }

  it('callOn reaches only the actor it names: once that one has died, it rejects instead of calling the replacement', async () => {
    const rec = recorder();
    pool = await ActorPool.create(Rollout, 1, () => [7], { heartbeatMs: 0, onEvent: (e) => rec.events.push(e) });
    const first = pool.actor(0);
    expect(await pool.callOn(0, first, 'add', 1)).toBe(8);
    await first.crash('crashed on request').catch(() => undefined);
    await rec.next('replaced', 0);
    const err = await pool.callOn(0, first, 'add', 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActorDiedError);
    expect((err as ActorDiedError).actorName).toBe(first.actorName);
    // The replacement kept its own state, untouched by the refused call; pool.call reaches it.
    expect(await pool.call(0, 'add', 1)).toBe(8);
    expect(await pool.callOn(0, pool.actor(0), 'add', 1)).toBe(9);
  });

  it('detects a hung actor by heartbeat timeout and replaces it', async () => {
    const rec = recorder();
    pool = await ActorPool.create(Rollout, 1, () => [5], { heartbeatMs: 50, heartbeatTimeoutMs: 300, onEvent: (e) => rec.events.push(e) });
    const hung = pool.call(0, 'spin', 30_000).catch((e: unknown) => e);
    const died = await rec.next('died', 0);
    expect(died.death?.reason).toBe('unresponsive');
    expect(died.error?.message).toMatch(/no heartbeat answer within 300 ms/);
    expect(await hung).toBeInstanceOf(ActorDiedError);
    await rec.next('replaced', 0);
    expect(await pool.call(0, 'add', 1)).toBe(6);
    expect(pool.status()[0].respawns).toBe(1);
  });

  it('replaces an actor that answers heartbeats but stopped answering calls, at a deadline learned from its calls', async () => {
    const rec = recorder();
    pool = await ActorPool.create(Rollout, 1, () => [5], {
      heartbeatMs: 50,
      heartbeatTimeoutMs: 10_000,
      callDeadline: { floorMs: 300, factor: 10, minSamples: 3, firstCallsMs: 20_000 },
      onEvent: (e) => rec.events.push(e),
    });
    // A first call slower than the floor is not cut short: nothing is measured yet. (It is then the
    // slowest call measured: the deadline becomes 10 x its time, which the stalled call below waits out.)
    expect(await pool.call(0, 'echoAfter', 'slow start', 400)).toBe('slow start');
    for (let i = 0; i < 4; i++) expect(await pool.call(0, 'echoAfter', i, 1)).toBe(i);
    expect(rec.events.some((e) => e.type === 'died')).toBe(false);
    // Its event loop stays free (heartbeats answered) but this call never answers in time.
    const stalled = pool.call(0, 'echoAfter', 'never', 600_000).catch((e: unknown) => e);
    const died = await rec.next('died', 0);
    expect(died.death?.reason).toBe('unresponsive');
    expect(died.error?.message).toMatch(/stopped answering calls: echoAfter got no answer within \d+ ms/);
    expect(await stalled).toBeInstanceOf(ActorDiedError);
    await rec.next('replaced', 0);
    expect(await pool.call(0, 'add', 1)).toBe(6);
    expect(pool.status()[0].respawns).toBe(1);
  });

  it('terminate() stops every worker', async () => {
    pool = await ActorPool.create(Rollout, 3, () => [0], { heartbeatMs: 20 });
    const p = pool.call(0, 'forever').catch((e: unknown) => e);
    await pool.terminate();
    pool = undefined;
    expect(await p).toBeInstanceOf(ActorDiedError);
    await waitFor(() => spawner.live() === 0);
    expect(spawner.live()).toBe(0);
    expect(spawner.spawned()).toBeGreaterThan(0);
  });

  it('keeps the actors that start, reports the others and starts them in the background', async () => {
    const rec = recorder();
    let attempts1 = 0;
    pool = await ActorPool.create(Rollout, 2, (i) => [10 * i, `s${i}`, { failInConstructor: i === 1 && attempts1++ === 0 }], {
      heartbeatMs: 0,
      onEvent: (e) => rec.events.push(e),
    });
    expect(pool.size).toBe(2);
    const failed = await rec.next('startFailed', 1);
    expect(failed.error?.message).toMatch(/constructor refused start=10/);
    expect(rec.events.some((e) => e.type === 'startFailed' && e.index === 0)).toBe(false);
    // A call on the slot waits for its background start, which succeeds on the second try.
    expect(await pool.call(1, 'add', 1)).toBe(11);
    const started = await rec.next('started', 1);
    expect(pool.status()[1]).toMatchObject({ name: started.actorName, respawns: 0, state: 'idle' });
    expect(await pool.call(0, 'describe')).toBe('s0:0');
  });

  it('fails to start, with a clear message, only when no actor comes up', async () => {
    const live = spawner.live();
    const err = await ActorPool.create(Rollout, 2, (i) => [i, 'x', { failInConstructor: true }], { heartbeatMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActorPoolStartError);
    expect((err as Error).message).toMatch(/^none of the 2 actors started \(first error: .*constructor refused start=0/);
    expect((err as ActorPoolStartError).reasons).toHaveLength(2);
    await waitFor(() => spawner.live() === live);
  });

  it('gives a slot up when its replacements keep failing: calls reject at once, and whenAllGone resolves', async () => {
    const rec = recorder();
    pool = await ActorPool.create(Rollout, 1, () => [3], { heartbeatMs: 0, spawnAttempts: 2, onEvent: (e) => rec.events.push(e) });
    spawner.failSpawns(true);
    try {
      await pool.call(0, 'exitAfter', 10, 1).catch(() => undefined);
      const gone = await rec.next('gone', 0);
      expect(gone.error?.message).toMatch(/slot 0 is gone for good: 2 attempts to replace its actor failed \(last: spawn refused/);
      expect(rec.events.filter((e) => e.type === 'error' && e.index === 0)).toHaveLength(2);
      await pool.whenAllGone();
      expect(pool.isGone(0)).toBe(true);
      expect(pool.liveCount).toBe(0);
      expect(pool.status()[0].state).toBe('dead');
      // At once: no replacement is tried for a slot that is gone (a wait would time the test out).
      const spawnedBefore = spawner.spawned();
      await expect(pool.call(0, 'add', 1)).rejects.toThrow(/actor 0 is gone for good \(last error: spawn refused/);
      expect(spawner.spawned()).toBe(spawnedBefore);
    } finally {
      spawner.failSpawns(false);
    }
  });

  it('terminate() stops an actor that is still being built instead of waiting for it', async () => {
    const rec = recorder();
    let spin = 0;
    pool = await ActorPool.create(Rollout, 1, () => [0, 'slow', { constructorSpinMs: spin }], { heartbeatMs: 0, onEvent: (e) => rec.events.push(e) });
    spin = 20_000; // the replacement blocks its worker in the constructor for 20 s
    await pool.actor(0).terminate();
    await rec.next('died', 0);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    await pool.terminate();
    // The bound is the behaviour: well under the replacement's 20 s in its constructor.
    expect(performance.now() - t0).toBeLessThan(5_000);
    pool = undefined;
    expect(rec.events.some((e) => e.type === 'replaced')).toBe(false);
    await waitFor(() => spawner.live() === 0);
  });
});
