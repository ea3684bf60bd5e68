/**
 * A browser tab offering actors to the cluster (a student's tab in classroom mode): connects to
 * the cluster's WebSocket listener and runs the same {@link HostService} a Node actor host runs,
 * with the platform's spawner (Web Workers in a page), so its actors serve another tab's or
 * process's learner exactly as worker threads in `npm run actor-host` do.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import type { ActorSpawner } from '../core/remote/spawner';
import { HostService, type HostWork } from './hostService';
import { MAX_TAB_ACTORS, type RejectCounts } from './protocol';
import { connectClusterWs } from './wsConnect';

export interface TabHostOptions {
  url: string;
  token: string;
  /** The name learners see (the teacher's hosts table). */
  hostName: string;
  capacity: number;
  spawner: ActorSpawner;
}

export interface TabHostReport {
  hostId: string;
  hostName: string;
  connected: boolean;
  capacity: number;
  /** Actors running here now, by the names their learner gave them. */
  actors: string[];
  work: HostWork;
  rejected: RejectCounts;
}

export interface TabHost {
  report(): TabHostReport;
  /** Stops every actor here, stops offering slots and closes the connection. */
  close(): Promise<void>;
}

export async function offerTabActors(o: TabHostOptions): Promise<TabHost> {
  if (!Number.isInteger(o.capacity) || o.capacity < 1 || o.capacity > MAX_TAB_ACTORS) throw new RangeError(`a tab offers 1 to ${MAX_TAB_ACTORS} actors, not ${o.capacity}`);
  const nc: NatsConnection = await connectClusterWs({ url: o.url, token: o.token, name: `tab ${o.hostName}` });
  const host = new HostService(nc, { capacity: o.capacity, hostName: o.hostName, spawner: o.spawner });
  let connected = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') connected = false;
      else if (s.type === 'reconnect') connected = true;
    }
  })();
  return {
    report: () => ({
      hostId: host.hostId,
      hostName: o.hostName,
      connected,
      capacity: o.capacity,
      actors: host.actorNames(),
      work: { ...host.work },
      rejected: { ...host.stats.rejected },
    }),
    async close() {
      await host.close();
      await nc.drain().catch(() => undefined);
    },
  };
}
