import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { connectCluster } from '../../../src/cluster/connect';
import { HostService } from '../../../src/cluster/hostService';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import type { RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { ClusterEcho } from './fixtures/clusterActors';
import { testHostSpawner } from './fixtures/hostSpawner';
import { testServer, waitFor } from './helpers';

/**
 * A learner killed without a word (kill -9: its connection just closes) must not keep its actors'
 * slots until they time out for lack of calls: the same command run again needs them at once.
 */
describe("a learner's actors when its connection is gone", () => {
  let server: RunningNatsServer;
  let token: string;
  let hostConn: NatsConnection;
  let host: HostService;
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    token = generateToken();
    server = await testServer({ token });
    hostConn = await connectCluster({ servers: [server.url], token, name: 'host' });
    // Actors stop after a minute without calls (the default); only the learner's absence frees them sooner.
    host = new HostService(hostConn, { capacity: 2, hostName: 'full-host', spawner: testHostSpawner, beatMs: 200 });
  }, 30_000);

  afterAll(async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await host?.close();
    await hostConn?.close();
    await server?.stop();
  });

  async function learner(name: string): Promise<{ nc: NatsConnection; spawner: NatsActorSpawner }> {
    const nc = await connectCluster({ servers: [server.url], token, name });
    const spawner = new NatsActorSpawner(nc, { spawnWaitMs: 20_000 });
    closers.push(() => nc.close(), () => spawner.close());
    await waitFor(() => spawner.liveHosts().length === 1, 10_000, 'the host');
    return { nc, spawner };
  }

  it('a learner that is connected keeps its actors, calls or not', async () => {
    const a = await learner('learner a');
    const Echo = remoteClass(ClusterEcho, { spawner: a.spawner });
    const actors = await Promise.all([Echo.create('a0'), Echo.create('a1')]);
    expect(host.running).toBe(2);
    // Several probe periods and longer than the grace period, with no call at all.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(host.running).toBe(2);
    expect(await actors[0].add(1, 2)).toBe(3);
    await Promise.all(actors.map((x) => x.terminate()));
    await waitFor(() => host.running === 0, 5_000, 'the actors stopped');
  }, 30_000);

  it("a learner killed without a word: the next one gets the host's slots within seconds, not after the idle minute", async () => {
    const killed = await learner('learner killed');
    const Echo = remoteClass(ClusterEcho, { spawner: killed.spawner });
    await Promise.all([Echo.create('k0'), Echo.create('k1')]);
    expect(host.running).toBe(2);
    // Its connection ends with nothing said: no stop for its actors (what kill -9 of the process does).
    await killed.nc.close();

    const again = await learner('learner restarted');
    const startedAt = Date.now();
    const actors = await Promise.all([remoteClass(ClusterEcho, { spawner: again.spawner }).create('r0'), remoteClass(ClusterEcho, { spawner: again.spawner }).create('r1')]);
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(await actors[1].add(2, 2)).toBe(4);
    expect(host.running).toBe(2);
  }, 40_000);
});
