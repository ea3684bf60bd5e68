import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { NatsConnection } from '@nats-io/nats-core';
import { connectCluster } from '../../../src/cluster/connect';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import type { RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';
import { ActorPool, type PoolEvent } from '../../../src/core/remote/actorPool';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { ClusterEcho } from './fixtures/clusterActors';
import { killChild, startHostProcess, testServer, waitFor } from './helpers';

/** Two producers that keep asking their actors for 50-step segments until `target` arrived. */
async function produce(pool: ActorPool<ClusterEcho>, target: number, counts: { used: number; lost: number }): Promise<void> {
  await Promise.all(
    [0, 1].map(async (i) => {
      while (counts.used < target) {
        try {
          const seg = await pool.call(i, 'segment', 50, 20);
          if (seg.steps === 50 && seg.obs.length === 50) counts.used++;
        } catch {
          counts.lost++;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }),
  );
}

describe('cluster actors survive hosts and servers going away', () => {
  const children: ChildProcess[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  const servers: RunningNatsServer[] = [];
  const serve = async (o: Parameters<typeof testServer>[0]): Promise<RunningNatsServer> => {
    const s = await testServer(o);
    servers.push(s);
    return s;
  };

  afterAll(async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await Promise.all(children.map((c) => killChild(c, 'SIGKILL')));
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('a SIGKILLed host is detected within the heartbeat and its actor replaced on another host; the run completes', async () => {
    const token = generateToken();
    const server = await serve({ token });
    const a = await startHostProcess(server.url, token, 2, 'host-a');
    const b = await startHostProcess(server.url, token, 2, 'host-b');
    children.push(a, b);
    const nc: NatsConnection = await connectCluster({ servers: [server.url], token, name: 'learner' });
    const spawner = new NatsActorSpawner(nc, { hostTimeoutMs: 1000 });
    closers.push(() => nc.close(), () => spawner.close());
    await waitFor(() => spawner.liveHosts().length === 2, 10_000, 'both hosts');
    const events: (PoolEvent & { at: number })[] = [];
    const pool = await ActorPool.create(remoteClass(ClusterEcho, { spawner }), 2, (i) => [`actor ${i}`], {
      heartbeatMs: 200,
      heartbeatTimeoutMs: 5000,
      onEvent: (e) => events.push({ ...e, at: Date.now() }),
    });
    closers.push(() => pool.terminate());
    // One actor per host (fewest of ours per slot first).
    expect(spawner.liveHosts().map((h) => h.running).sort()).toEqual([1, 1]);

    const counts = { used: 0, lost: 0 };
    const run = produce(pool, 120, counts);
    await waitFor(() => counts.used >= 20, 10_000, 'segments before the kill');
    const killedAt = Date.now();
    a.kill('SIGKILL');
    await run;
    const died = events.find((e) => e.type === 'died');
    const replaced = events.find((e) => e.type === 'replaced');
    expect(died, 'a death event').toBeDefined();
    expect(died?.error?.message).toMatch(/host-a/);
    // Detected by the host beat (1 s), well before the pool's 5 s call heartbeat.
    expect((died?.at ?? Infinity) - killedAt).toBeLessThan(2500);
    expect(replaced, 'a replacement').toBeDefined();
    expect(counts.used).toBeGreaterThanOrEqual(120);
    // The call in flight on the killed host was lost, and counted.
    expect(counts.lost).toBeGreaterThanOrEqual(1);
    await waitFor(() => spawner.liveHosts().length === 1, 5000, 'host-a forgotten');
    expect(spawner.liveHosts()[0].hostName).toBe('host-b');
    expect(spawner.liveHosts()[0].running).toBe(2);
  }, 40_000);

  it('the server stopped for 5 s and started again: clients reconnect and the calls go on', async () => {
    const token = generateToken();
    const first = await serve({ token });
    const port = first.port;
    const host = await startHostProcess(first.url, token, 2, 'host-c');
    children.push(host);
    const nc = await connectCluster({ servers: [first.url], token, name: 'learner 2' });
    const spawner = new NatsActorSpawner(nc, { hostTimeoutMs: 1000 });
    closers.push(() => nc.close(), () => spawner.close());
    await waitFor(() => spawner.liveHosts().some((h) => h.hostName === 'host-c'), 10_000, 'host-c');
    const events: PoolEvent[] = [];
    const pool = await ActorPool.create(remoteClass(ClusterEcho, { spawner }), 2, (i) => [`r${i}`], { heartbeatMs: 500, heartbeatTimeoutMs: 15_000, onEvent: (e) => events.push(e) });
    closers.push(() => pool.terminate());
    const counts = { used: 0, lost: 0 };
    const run = produce(pool, 80, counts);
    await waitFor(() => counts.used >= 10, 10_000, 'segments before the outage');
    await first.stop();
    const during = counts.used;
    await new Promise((r) => setTimeout(r, 5000));
    expect(counts.used - during).toBeLessThanOrEqual(2); // at most the answers already on their way
    await serve({ token, port });
    await run;
    expect(counts.used).toBeGreaterThanOrEqual(80);
    // The calls cut off by the outage were sent again and answered: no actor was replaced or lost.
    expect(events.filter((e) => e.type === 'died')).toEqual([]);
    expect(counts.lost).toBe(0);
  }, 40_000);
});
