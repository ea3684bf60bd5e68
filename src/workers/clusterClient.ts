/**
 * The page's client of the cluster: join links, ids, the tab's limits, the reports the cluster panel
 * shows, and this tab's actor host (NATS and the host code load only when a tab contributes).
 * The UI reaches the cluster only through this module.
 */
import type { TabHost, TabHostOptions } from '../cluster/tabHost';

export { randomId } from '../cluster/ids';
export { joinLinkFor, parseJoinFragment, tokenProblem, wsUrlProblem, type JoinTarget } from '../cluster/joinLink';
export { MAX_TAB_ACTORS } from '../cluster/protocol';
export type { ClusterLearnerReport } from '../cluster/learnerAttach';
export type { HostReport } from '../cluster/natsSpawner';
export type { TabHost, TabHostOptions, TabHostReport } from '../cluster/tabHost';

/** Offers this tab's Web Workers as cluster actors. */
export async function offerTabActors(o: Omit<TabHostOptions, 'spawner'>): Promise<TabHost> {
  const [tabHost, { browserSpawner }] = await Promise.all([import('../cluster/tabHost'), import('./browserSpawner')]);
  return tabHost.offerTabActors({ ...o, spawner: browserSpawner });
}
