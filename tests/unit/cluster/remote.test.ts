import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { connectCluster } from '../../../src/cluster/connect';
import { encodeFrame } from '../../../src/cluster/codec';
import { HostService } from '../../../src/cluster/hostService';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import type { RunningNatsServer } from '../../../src/cluster/natsServer';
import { RemoteActorError } from '../../../src/core/remote/errors';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { ClusterEcho } from './fixtures/clusterActors';
import { testHostSpawner } from './fixtures/hostSpawner';
import { testServer, waitFor } from './helpers';

describe('remote actors over NATS', () => {
  let server: RunningNatsServer;
  let token: string;
  let hostConn: NatsConnection;
  let learnerConn: NatsConnection;
  let host: HostService;
  let spawner: NatsActorSpawner;

  beforeAll(async () => {
    const { generateToken } = await import('../../../src/cluster/serverConfig');
    token = generateToken();
    server = await testServer({ token });
    hostConn = await connectCluster({ servers: [server.url], token, name: 'test host' });
    host = new HostService(hostConn, { capacity: 3, hostName: 'host-a', spawner: testHostSpawner, beatMs: 200 });
    learnerConn = await connectCluster({ servers: [server.url], token, name: 'test learner' });
    // Small caps on the learner side, so an oversized frame fits under the server's payload limit.
    spawner = new NatsActorSpawner(learnerConn, { caps: { maxBytes: 64 * 1024, maxHeaderBytes: 16 * 1024, maxDepth: 12, maxNodes: 2000, maxStringLength: 4096, maxBlobs: 16 } });
  }, 30_000);

  afterAll(async () => {
    await spawner?.close();
    await host?.close();
    await learnerConn?.close();
    await hostConn?.close();
    await server?.stop();
  });

  it('constructs the class the host registered under the key and calls it, typed arrays both ways', async () => {
    const Echo = remoteClass(ClusterEcho, { spawner });
    const actor = await Echo.create('a');
    expect(await actor.add(2, 3)).toBe(5);
    const { sum, doubled } = await actor.sumAndDouble(new Float32Array([1, 2, 3.5]));
    expect(sum).toBe(6.5);
    expect(doubled).toBeInstanceOf(Float32Array);
    expect(Array.from(doubled)).toEqual([2, 4, 7]);
    expect(host.running).toBe(1);
    await actor.terminate();
    await waitFor(() => host.running === 0, 5000, 'the host to stop the actor');
  });

  it('a remote error comes back with its message, the remote stack and the host name', async () => {
    const actor = await remoteClass(ClusterEcho, { spawner }).create('b');
    const err = await actor.fail('bad input').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteActorError);
    const remote = err as RemoteActorError;
    expect(remote.remoteName).toBe('RangeError');
    expect(remote.message).toContain('bad input');
    expect(remote.message).toContain('host-a');
    expect(remote.remoteStack).toContain('clusterActors.ts');
    // The actor lives on after its method threw.
    expect(await actor.add(1, 1)).toBe(2);
    await actor.terminate();
  });

  it('refuses the module option: no code travels', async () => {
    const Echo = remoteClass(ClusterEcho, { spawner, module: 'file:///tmp/evil.mjs' });
    await expect(Echo.create('c')).rejects.toThrow(/no code travels/);
  });

  it('refuses a connection without the token or with a wrong one', async () => {
    await expect(connectCluster({ servers: [server.url], token: '', name: 'no token', timeoutMs: 3000 })).rejects.toThrow(/auth/i);
    await expect(connectCluster({ servers: [server.url], token: `${token.slice(0, -1)}x`, name: 'wrong token', timeoutMs: 3000 })).rejects.toThrow(/auth/i);
  });

  it('rejects and counts malformed, oversized and replayed frames, and keeps working', async () => {
    const spy = await connectCluster({ servers: [server.url], token, name: 'spy' });
    const seen: { subject: string; data: Uint8Array }[] = [];
    const sent: { subject: string; data: Uint8Array }[] = [];
    spy.subscribe('parl.actor.*.out', { callback: (_e, m) => void seen.push({ subject: m.subject, data: new Uint8Array(m.data) }) });
    spy.subscribe('parl.actor.*.in', { callback: (_e, m) => void sent.push({ subject: m.subject, data: new Uint8Array(m.data) }) });
    await spy.flush();
    const actor = await remoteClass(ClusterEcho, { spawner }).create('d');
    expect(await actor.add(20, 22)).toBe(42);
    await waitFor(() => seen.length >= 2, 5000, 'frames to spy on');
    const { subject, data } = seen[seen.length - 1];
    const before = structuredClone(spawner.stats.rejected);

    spy.publish(subject, new TextEncoder().encode('{"not":"a frame"}'));
    // A value nested deeper than the learner's cap, and a frame above its size cap.
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = [deep];
    spy.publish(subject, encodeFrame(1_000_000, { k: 'msg', m: { __parl: 'pong', seq: 1, deep } }));
    spy.publish(subject, encodeFrame(1_000_001, { k: 'msg', m: { id: 'x', type: 'RAW', value: new Float32Array(32 * 1024) } }));
    // The host's own last frame again, byte for byte.
    spy.publish(subject, data);
    // A well-formed frame with a fresh sequence number but a shape no actor sends.
    spy.publish(subject, encodeFrame(1_000_002, { k: 'msg', m: { id: 'y', type: 'GET', path: ['constructor'] } }));
    await spy.flush();
    await waitFor(() => spawner.stats.rejected.replayed > before.replayed, 5000, 'the replay to be counted');
    expect(spawner.stats.rejected.malformed - before.malformed).toBe(2);
    expect(spawner.stats.rejected.oversized - before.oversized).toBe(2);
    expect(spawner.stats.rejected.replayed - before.replayed).toBe(1);
    expect(await actor.add(1, 2)).toBe(3);

    // The host rejects a frame that asks comlink for a property path (GET), and a replayed request.
    const lastIn = sent[sent.length - 1];
    const hostBefore = structuredClone(host.stats.rejected);
    spy.publish(lastIn.subject, encodeFrame(1_000_000, { k: 'msg', m: { id: 'z', type: 'GET', path: ['constructor', 'constructor'] } }));
    spy.publish(lastIn.subject, lastIn.data);
    await spy.flush();
    await waitFor(() => host.stats.rejected.malformed - hostBefore.malformed >= 1 && host.stats.rejected.replayed - hostBefore.replayed >= 1, 5000, 'host rejections');
    expect(await actor.add(2, 2)).toBe(4);
    await actor.terminate();
    await spy.close();
  });

});
