/**
 * A Node learner joining the cluster: connects with the credentials file and attaches as the
 * learner (learnerAttach.ts), so every remoteClass / ActorPool the engine builds gets its actors
 * from the cluster's hosts.
 */
import { hostname } from 'node:os';
import { connectCluster } from './connect';
import { readCreds } from './creds';
import { attachLearner } from './learnerAttach';
import type { NatsActorSpawner } from './natsSpawner';

export interface ClusterLearnerLink {
  spawner: NatsActorSpawner;
  close(): Promise<void>;
}

/** `pack`: segments per stream message (`--cluster-pack`; undefined: the default for the run's segment size). */
export async function joinClusterAsLearner(server: string, credsPath: string, log: (line: string) => void, pack?: number): Promise<ClusterLearnerLink> {
  const creds = readCreds(credsPath);
  const nc = await connectCluster({ servers: [server], token: creds.token, name: `learner ${hostname()}:${process.pid}` });
  const attached = attachLearner(nc, { log, server, ...(pack !== undefined ? { pack } : {}) });
  const spawner = attached.spawner;
  await spawner.discover();
  const hosts = spawner.liveHosts();
  log(`cluster: ${nc.getServer()}, ${hosts.length} actor host${hosts.length === 1 ? '' : 's'} (${hosts.reduce((a, h) => a + h.capacity, 0)} slots)`);
  return {
    spawner,
    async close() {
      const s = attached.streamStats();
      await attached.detach();
      if (s) log(`cluster stream: ${s.taken} segments learned, ${s.redelivered} redelivered; rejected ${s.rejected.malformed} malformed, ${s.rejected.oversized} oversized, ${s.rejected.replayed} replayed`);
      const r = spawner.stats.rejected;
      log(`cluster: ${spawner.stats.framesReceived} frames in, ${spawner.stats.framesSent} out; rejected ${r.malformed} malformed, ${r.oversized} oversized, ${r.replayed} replayed`);
      await nc.drain().catch(() => undefined);
    },
  };
}
