/** The page's cluster control: the real learner worker, and actors in this tab's Web Workers (loaded on first use). */
import { offerTabActors } from '../../workers/clusterClient';
import { watchLearners } from '../../workers/learnerClient';
import { createClusterControl, useCluster } from './clusterControl';

export const clusterControl = createClusterControl({
  store: useCluster,
  watchLearners,
  offerActors: offerTabActors,
});
