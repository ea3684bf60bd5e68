import { afterAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { connectCluster } from '../../../src/cluster/connect';
import { explainStreamError, jetstreamExperience } from '../../../src/cluster/jetstreamExperience';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import type { RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';
import { resolveExperiment } from '../../../src/config/config';
import { testServer } from './helpers';

describe('a learner whose cluster dies mid-run', () => {
  let server: RunningNatsServer | undefined;
  let nc: NatsConnection | undefined;
  let spawner: NatsActorSpawner | undefined;
  afterAll(async () => {
    await spawner?.close();
    await nc?.close();
    await server?.stop();
  });

  it('ends with a reason a person understands: the cluster at its address stopped answering, and what to do', async () => {
    const token = generateToken();
    server = await testServer({ token });
    nc = await connectCluster({ servers: [server.url], token, name: 'learner' });
    spawner = new NatsActorSpawner(nc);
    const config = resolveExperiment('impala-cartpole', { seed: 2 });
    const stream = await jetstreamExperience(spawner, { config, capacity: 4, check: () => null }, { runId: 'rdead', server: server.url, giveUpAfterMs: 3000 });
    await stream.publishWeights(0, [new Float32Array(4)]);
    expect(spawner.disconnectedForMs()).toBeNull();

    await server.stop();
    // Waiting for segments (nobody publishes them): it rides out a short loss, then gives up with the reason.
    const err = await stream.take(2).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toContain(`the cluster at ${server.url} stopped answering`);
    expect(message).toMatch(/no connection for \d+ s\): check that its nats-server \(npm run cluster\) is running and reachable, then start the run again$/);
    expect(spawner.disconnectedForMs()).toBeGreaterThan(0);
  }, 60_000);

  it("storing weights or a checkpoint that times out says the same once the connection is down, and names a slow cluster otherwise", () => {
    const url = 'nats://10.0.0.7:4222';
    expect(explainStreamError(new Error('timeout'), url, 10_400).message).toMatch(/^the cluster at nats:\/\/10\.0\.0\.7:4222 stopped answering \(no connection for 10 s\): check that/);
    expect(explainStreamError(Object.assign(new Error('timeout'), { name: 'TimeoutError' }), url, null).message).toBe(`the cluster at ${url} did not answer in time (timeout): it may be overloaded or far away`);
    const other = new RangeError('bad segment');
    expect(explainStreamError(other, url, null)).toBe(other);
  });
});
