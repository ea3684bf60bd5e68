/**
 * A Node learner joining the cluster: connects with the credentials file and installs a
 * {@link NatsActorSpawner} as the process's actor spawner, so every remoteClass / ActorPool the
 * engine builds gets its actors from the cluster's hosts.
 */
import { hostname } from 'node:os';
import { setActorSpawner } from '../core/remote/spawner';
import { connectCluster } from './connect';
import { readCreds } from './creds';
import { NatsActorSpawner } from './natsSpawner';
import { jetstreamExperience } from './jetstreamExperience';
import { setStreamedExperienceFactory } from './segmentSource';
import type { ConsumerStats } from './experience';

export interface ClusterLearnerLink {
  spawner: NatsActorSpawner;
  close(): Promise<void>;
}

export async function joinClusterAsLearner(server: string, credsPath: string, log: (line: string) => void): Promise<ClusterLearnerLink> {
  const creds = readCreds(credsPath);
  const nc = await connectCluster({ servers: [server], token: creds.token, name: `learner ${hostname()}:${process.pid}` });
  let rejectNotices = 0;
  const spawner = new NatsActorSpawner(nc, {
    onReject: (kind, why, actor) => {
      // One line per rejection for the first few, then a count at the end.
      if (++rejectNotices <= 5) log(`warning: rejected a ${kind} message from ${actor}: ${why}`);
    },
  });
  await spawner.discover();
  const hosts = spawner.liveHosts();
  log(`cluster: ${nc.getServer()}, ${hosts.length} actor host${hosts.length === 1 ? '' : 's'} (${hosts.reduce((a, h) => a + h.capacity, 0)} slots)`);
  setActorSpawner(spawner);
  // The async (IMPALA) loop's segments and weights go through JetStream.
  let streamStats: ConsumerStats | null = null;
  setStreamedExperienceFactory((o) =>
    jetstreamExperience(spawner, o, {
      onStats: (s) => (streamStats = s),
      onReject: (kind, why) => {
        if (++rejectNotices <= 5) log(`warning: rejected a ${kind} segment from the stream: ${why}`);
      },
    }),
  );
  return {
    spawner,
    async close() {
      setStreamedExperienceFactory(null);
      await spawner.close();
      if (streamStats) {
        const s: ConsumerStats = streamStats;
        log(`cluster stream: ${s.taken} segments learned, ${s.redelivered} redelivered; rejected ${s.rejected.malformed} malformed, ${s.rejected.oversized} oversized, ${s.rejected.replayed} replayed`);
      }
      const r = spawner.stats.rejected;
      log(`cluster: ${spawner.stats.framesReceived} frames in, ${spawner.stats.framesSent} out; rejected ${r.malformed} malformed, ${r.oversized} oversized, ${r.replayed} replayed`);
      await nc.drain().catch(() => undefined);
    },
  };
}
