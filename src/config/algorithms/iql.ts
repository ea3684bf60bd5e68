/** Independent Q-learning (Tan 1993): QMIX's agents, each trained alone on the team reward. Settings: EPyMARL's iql.yaml (see qmixFamily.ts). */
import { defineAlgorithm } from '../algorithm';
import { qLearningSettings, SPREAD_RUN } from './qmixFamily';

export const IQL = defineAlgorithm({
  id: 'iql',
  prefix: 'iql',
  label: 'Independent Q-learning (multi-agent)',
  family: 'marl',
  loop: 'marl',
  /** Whole episodes per gradient step. */
  updateBatch: (s) => s['iql.batchSize'],
  actor: 'MarlActor',
  network: null,
  settings: qLearningSettings('iql'),
  presets: [
    {
      name: 'iql-spread',
      title: 'Independent Q-learners on simple_spread',
      description: 'Each agent learns its own Q-values as if the others were part of the environment: no mixing, the baseline for VDN and QMIX.',
      settings: SPREAD_RUN,
    },
  ],
  load: () => import('../../algorithms/qmix').then((m) => m.iql),
});
