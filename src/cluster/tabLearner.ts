/**
 * A browser learner's cluster link (the page's learner worker; a teacher's tab in classroom mode) (a teacher's tab in classroom mode): connects to the cluster's
 * WebSocket listener and attaches as the learner (src/cluster/learnerAttach.ts, the same code the
 * Node CLI's --cluster uses), so the runs that follow get their actors from the cluster's hosts.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import type { ActorSpawner } from '../core/remote/spawner';
import { attachLearner, type ClusterLearnerReport } from './learnerAttach';
import { connectClusterWs } from './wsConnect';

export interface ClusterLearnOptions {
  /** The cluster's WebSocket listener: ws:// on loopback, wss:// elsewhere. */
  url: string;
  token: string;
  /** How this learner names itself to the server (its connection name). */
  name: string;
}

export interface ClusterLearnerStatus extends ClusterLearnerReport {
  /** False while the connection is down (the client reconnects for ever). */
  connected: boolean;
}

const REPORT_EVERY_MS = 1_000;

export interface WorkerClusterLearner {
  /** Stops our actors, installs `restore` as the spawner again and closes the connection. */
  leave(restore: ActorSpawner): Promise<void>;
}

export async function joinAsClusterLearner(o: ClusterLearnOptions, onReport: (report: ClusterLearnerStatus) => void | Promise<void>): Promise<WorkerClusterLearner> {
  const nc: NatsConnection = await connectClusterWs({ url: o.url, token: o.token, name: o.name });
  const attached = attachLearner(nc, { server: o.url });
  let connected = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') connected = false;
      else if (s.type === 'reconnect') connected = true;
    }
  })();
  await attached.spawner.discover();
  const report = (): void => {
    // The page may be gone or busy: a lost report is replaced by the next one.
    Promise.resolve(onReport({ ...attached.report(), connected })).catch(() => undefined);
  };
  report();
  const timer = setInterval(report, REPORT_EVERY_MS);
  return {
    async leave(restore) {
      clearInterval(timer);
      await attached.detach(restore);
      await nc.drain().catch(() => undefined);
    },
  };
}
