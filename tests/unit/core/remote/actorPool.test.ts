import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ActorPool, type PoolEvent } from '../../../../src/core/remote/actorPool';
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
});
