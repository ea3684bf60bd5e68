/** VDN (Sunehag et al. 2018): QMIX's agents with Q_tot = Σ_a Q_a. Settings: EPyMARL's vdn.yaml (see qmixFamily.ts). */
import { defineAlgorithm } from '../algorithm';
import { qLearningSettings, SPREAD_RUN } from './qmixFamily';

export const VDN = defineAlgorithm({
  id: 'vdn',
  prefix: 'vdn',
  label: 'VDN (multi-agent)',
  family: 'marl',
  loop: 'marl',
  /** Whole episodes per gradient step. */
  updateBatch: (s) => s['vdn.batchSize'],
  actor: 'MarlActor',
  network: null,
  settings: qLearningSettings('vdn'),
  presets: [
    {
      name: 'vdn-spread',
      title: 'VDN on simple_spread (summed agent values)',
      description: "The team's value is the plain sum of the agents' values: the baseline QMIX's state-dependent mixing improves on.",
      settings: SPREAD_RUN,
    },
  ],
  load: () => import('../../algorithms/qmix').then((m) => m.vdn),
});
