import type { ClusterLearnerReport, HostReport } from '../../workers/clusterClient';
import type { ActorStatusRecord } from '../../runs/records';

export interface HostRow extends HostReport {
  /** Steps per second of this run's actors on the host, in the last update. */
  stepsPerSecond: number;
}

/**
 * The hosts table's rows: the learner's report per host, with the speed of the run's actors on
 * each host summed from the actors panel's figures (actor name → host from the placements).
 */
export function hostRows(report: Pick<ClusterLearnerReport, 'hosts' | 'placements'>, actors: ActorStatusRecord['actors'], stats: readonly { stepsPerSecond: number }[]): HostRow[] {
  const hostOf = new Map(report.placements.map((p) => [p.actor, p.hostId]));
  const speed = new Map<string, number>();
  for (const a of actors) {
    const host = hostOf.get(a.name);
    const sps = stats[a.index]?.stepsPerSecond ?? 0;
    if (host !== undefined && a.state !== 'dead' && a.state !== 'replaced') speed.set(host, (speed.get(host) ?? 0) + sps);
  }
  return report.hosts
    .map((h) => ({ ...h, stepsPerSecond: speed.get(h.hostId) ?? 0 }))
    .sort((a, b) => (a.state === b.state ? a.hostName.localeCompare(b.hostName) : a.state === 'live' ? -1 : 1));
}
