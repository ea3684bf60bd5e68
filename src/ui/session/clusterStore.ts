/**
 * What the Cluster panel shows: where to connect (typed in, or from a join link), this tab's
 * part as an actor host (contributing actors) and as a learner (training with the cluster's
 * actors), with the reports each sends about once a second. Its own small store: the cluster
 * link lives beside a run, not inside one.
 */
import { create } from 'zustand';
import type { JoinTarget, TabHostReport } from '../../workers/clusterClient';
import type { ClusterLearnerStatus } from '../../workers/learnerProtocol';

/** off → connecting → on; an error sends it back to off with the reason. */
export type ClusterPhase = 'off' | 'connecting' | 'on';

export interface ClusterRole<R> {
  phase: ClusterPhase;
  error: string | null;
  report: R | null;
}

export interface ClusterState {
  /** Where to connect; null until the user gives an address and token or opens a join link. */
  target: JoinTarget | null;
  /** The page was opened with a join link (the panel says what that grants). */
  joinedByLink: boolean;
  /** Why the join link or the typed address cannot be used. */
  problem: string | null;
  /** This tab's name on the cluster (what a learner's hosts table shows). */
  name: string;
  /** Actor slots this tab offers when it contributes. */
  offer: number;
  host: ClusterRole<TabHostReport>;
  learner: ClusterRole<ClusterLearnerStatus>;
  setTarget(target: JoinTarget | null, problem?: string | null, byLink?: boolean): void;
  setName(name: string): void;
  setOffer(n: number): void;
  setHost(patch: Partial<ClusterRole<TabHostReport>>): void;
  setLearner(patch: Partial<ClusterRole<ClusterLearnerStatus>>): void;
}

const OFF = { phase: 'off', error: null, report: null } as const;

export function createClusterStore(defaultName: string, defaultOffer: number) {
  return create<ClusterState>()((set) => ({
    target: null,
    joinedByLink: false,
    problem: null,
    name: defaultName,
    offer: defaultOffer,
    host: { ...OFF },
    learner: { ...OFF },
    setTarget: (target, problem = null, byLink = false) => set({ target, problem, joinedByLink: byLink }),
    setName: (name) => set({ name: name.slice(0, 64) }),
    setOffer: (offer) => set({ offer }),
    setHost: (patch) => set((s) => ({ host: { ...s.host, ...patch } })),
    setLearner: (patch) => set((s) => ({ learner: { ...s.learner, ...patch } })),
  }));
}

export type ClusterStore = ReturnType<typeof createClusterStore>;
