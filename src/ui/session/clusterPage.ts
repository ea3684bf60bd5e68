/** The page's cluster control: the real learner worker, and actors in this tab's Web Workers (loaded on first use). */
import { watchLearners } from '../../workers/learnerClient';
import { createClusterControl, useCluster } from './clusterControl';

export const clusterControl = createClusterControl({
  store: useCluster,
  watchLearners,
  async offerActors(o) {
    // NATS and the host code load only when a tab contributes.
    const [{ offerTabActors }, { browserSpawner }] = await Promise.all([import('../../cluster/tabHost'), import('../../workers/browserSpawner')]);
    return offerTabActors({ ...o, spawner: browserSpawner });
  },
});
