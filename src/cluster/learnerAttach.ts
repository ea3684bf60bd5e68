/**
 * Makes this process (or Web Worker) a cluster learner over a connection it already has, on any
 * platform: installs a {@link NatsActorSpawner} as the actor spawner, so every remoteClass /
 * ActorPool the engine builds gets its actors from the cluster's hosts, and routes the async
 * (IMPALA) loop's segments and weights through JetStream. The Node CLI (learner.ts) connects over
 * TCP with the credentials file; the page's learner worker over a WebSocket (wsConnect.ts).
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { setActorSpawner, type ActorSpawner } from '../core/remote/spawner';
import type { ConsumerStats } from './experience';
import { defaultPack, jetstreamExperience } from './jetstreamExperience';
import { NatsActorSpawner, type ActorPlacement, type HostReport, type NatsSpawnerOptions } from './natsSpawner';
import type { TransportStats } from './protocol';
import { setStreamedExperienceFactory } from '../engine/streamedExperience';

export interface LearnerAttachment {
  readonly spawner: NatsActorSpawner;
  /** The stream consumer's counters once the async loop has opened the run's stream; null before. */
  streamStats(): ConsumerStats | null;
  /** What the page's cluster panel shows. */
  report(): ClusterLearnerReport;
  /** Uninstalls the spawner (installing `restore`) and stops our actors; the connection stays the caller's. */
  detach(restore?: ActorSpawner): Promise<void>;
}

export interface ClusterLearnerReport {
  server: string;
  hosts: HostReport[];
  placements: ActorPlacement[];
  frames: TransportStats;
  stream: { taken: number; redelivered: number; rejected: ConsumerStats['rejected'] } | null;
}

export interface AttachOptions extends NatsSpawnerOptions {
  /** Notices (the first few rejections); counts are in the report either way. */
  log?(line: string): void;
  /** Segments per stream message (`--cluster-pack`); default {@link defaultPack} of the run's segment (T × envs per actor). */
  pack?: number;
  /** The cluster's address as the person gave it, for messages (default: the server the connection uses). */
  server?: string;
}

export function attachLearner(nc: NatsConnection, o: AttachOptions = {}): LearnerAttachment {
  let rejectNotices = 0;
  const notice = (line: string): void => {
    // One line per rejection for the first few, then only the counts.
    if (++rejectNotices <= 5) o.log?.(line);
  };
  const spawner = new NatsActorSpawner(nc, { ...o, onReject: (kind, why, actor) => notice(`warning: rejected a ${kind} message from ${actor}: ${why}`) });
  setActorSpawner(spawner);
  let streamStats: ConsumerStats | null = null;
  setStreamedExperienceFactory((x) => {
    const pack = o.pack ?? defaultPack(x.config.settings['sampling.segmentLength'] * x.config.settings.envsPerActor);
    o.log?.(`cluster: ${pack} segment${pack === 1 ? '' : 's'} per stream message${o.pack === undefined ? ' (the default for this segment size; --cluster-pack K to choose)' : ''}`);
    return jetstreamExperience(spawner, x, {
      pack,
      ...(o.server !== undefined ? { server: o.server } : {}),
      onStats: (s) => (streamStats = s),
      onReject: (kind, why) => notice(`warning: rejected a ${kind} segment from the stream: ${why}`),
    });
  });
  return {
    spawner,
    streamStats: () => streamStats,
    report() {
      const s: ConsumerStats | null = streamStats;
      return {
        server: nc.getServer(),
        hosts: spawner.hostReports(),
        placements: spawner.placements(),
        frames: { ...spawner.stats, rejected: { ...spawner.stats.rejected } },
        stream: s ? { taken: s.taken, redelivered: s.redelivered, rejected: { ...s.rejected } } : null,
      };
    },
    async detach(restore) {
      setStreamedExperienceFactory(null);
      setActorSpawner(restore);
      await spawner.close();
    },
  };
}
