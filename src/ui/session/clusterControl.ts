/**
 * The Cluster panel's actions: contribute this tab's actors to a cluster (its Web Workers run
 * actors for another tab's or process's learner), and train this tab's runs with the cluster's
 * actors (the learner worker connects; see src/cluster/tabLearner.ts). The two are independent:
 * a teacher's tab may do both, a student's tab only contributes.
 */
import { randomId, tokenProblem, wsUrlProblem, type JoinTarget, type TabHost, type TabHostOptions } from '../../workers/clusterClient';
import type { ClusterLearnerStatus, ClusterLearnOptions } from '../../workers/learnerProtocol';
import { createClusterStore, type ClusterStore } from './clusterStore';

const REPORT_EVERY_MS = 1_000;

/** The part of the page's learner handle (workers/learnerClient.ts) the cluster control uses. */
export interface ClusterLearnerHandle {
  cluster: {
    clusterLearn(options: ClusterLearnOptions, onReport: (report: ClusterLearnerStatus) => void): Promise<void>;
    clusterLeave(): Promise<void>;
  };
  proxy<T extends (...args: never[]) => unknown>(fn: T): T;
}

export interface ClusterControlDeps {
  store: ClusterStore;
  /** Calls back with the page's learner worker now and after each restart (learnerClient's watchLearners). */
  watchLearners(watch: (handle: ClusterLearnerHandle) => void): () => void;
  /** Starts this tab's actor host (src/cluster/tabHost.ts with the page's Web Worker spawner). */
  offerActors(o: Omit<TabHostOptions, 'spawner'>): Promise<TabHost>;
}

export interface ClusterControl {
  /** Takes an address (or a whole join link) and a token typed into the panel; false (and a problem shown) when unusable. */
  use(urlOrLink: string, token: string): boolean;
  contribute(): Promise<void>;
  stopContributing(): Promise<void>;
  learn(): Promise<void>;
  stopLearning(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createClusterControl({ store, watchLearners, offerActors }: ClusterControlDeps): ClusterControl {
  let host: TabHost | null = null;
  let hostTimer: ReturnType<typeof setInterval> | null = null;
  let learner: ClusterLearnerHandle | null = null;
  let unwatch: (() => void) | null = null;
  const hostPatch = store.getState().setHost;
  const learnerPatch = store.getState().setLearner;

  const attachLearner = async (handle: ClusterLearnerHandle, target: JoinTarget): Promise<void> => {
    learner = handle;
    learnerPatch({ phase: 'connecting', error: null });
    const onReport = (report: ClusterLearnerStatus): void => {
      if (learner === handle) learnerPatch({ report });
    };
    try {
      await handle.cluster.clusterLearn({ url: target.url, token: target.token, name: `learner ${store.getState().name}` }, handle.proxy(onReport));
      if (learner === handle) learnerPatch({ phase: 'on' });
    } catch (err) {
      if (learner !== handle) return;
      unwatch?.();
      unwatch = null;
      learner = null;
      learnerPatch({ phase: 'off', error: message(err), report: null });
    }
  };

  return {
    use(urlOrLink, token) {
      const s = store.getState();
      let url = urlOrLink.trim();
      let tok = token.trim();
      const hashAt = url.indexOf('#');
      if (hashAt >= 0) {
        // A whole join link pasted in: take its address and token.
        const params = new URLSearchParams(url.slice(hashAt + 1));
        url = params.get('join') ?? url;
        tok = params.get('token') ?? tok;
      }
      const problem = wsUrlProblem(url) ?? tokenProblem(tok);
      s.setTarget(problem ? s.target : { url, token: tok }, problem, s.joinedByLink);
      return problem === null;
    },

    async contribute() {
      const s = store.getState();
      if (!s.target || s.host.phase !== 'off') return;
      hostPatch({ phase: 'connecting', error: null, report: null });
      try {
        const started = await offerActors({ url: s.target.url, token: s.target.token, hostName: s.name || `tab-${randomId(2)}`, capacity: s.offer });
        host = started;
        hostPatch({ phase: 'on', report: started.report() });
        hostTimer = setInterval(() => hostPatch({ report: started.report() }), REPORT_EVERY_MS);
      } catch (err) {
        hostPatch({ phase: 'off', error: message(err) });
      }
    },

    async stopContributing() {
      if (hostTimer) clearInterval(hostTimer);
      hostTimer = null;
      const h = host;
      host = null;
      hostPatch({ phase: 'off', report: null });
      await h?.close().catch((err: unknown) => hostPatch({ error: message(err) }));
    },

    async learn() {
      const s = store.getState();
      const target = s.target;
      if (!target || s.learner.phase !== 'off') return;
      learnerPatch({ phase: 'connecting', error: null, report: null });
      // Now (once the page has its learner worker) and again on a worker that replaces a crashed one.
      unwatch = watchLearners((handle) => void attachLearner(handle, target));
    },

    async stopLearning() {
      const handle = learner;
      if (!handle) return;
      try {
        await handle.cluster.clusterLeave();
      } catch (err) {
        learnerPatch({ error: message(err) });
        return;
      }
      unwatch?.();
      unwatch = null;
      learner = null;
      learnerPatch({ phase: 'off', report: null, error: null });
    },
  };
}

/** The page's cluster store (one per page). */
export const useCluster = createClusterStore(`tab-${randomId(2)}`, 2);
