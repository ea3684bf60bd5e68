/**
 * QMIX (Rashid et al. 2018): per-agent recurrent Q-networks with parameter sharing, mixed into
 * Q_tot by a monotonic network whose weights come from hypernetworks of the global state.
 * Settings: pymarl / EPyMARL's qmix.yaml (see qmixFamily.ts); mixing_embed_dim 32, hypernet_embed 64.
 */
import { defineAlgorithm } from '../algorithm';
import { int } from '../settingKinds';
import { qLearningSettings, SPREAD_RUN } from './qmixFamily';

export const QMIX = defineAlgorithm({
  id: 'qmix',
  prefix: 'qmix',
  label: 'QMIX (multi-agent)',
  family: 'marl',
  loop: 'marl',
  /** Whole episodes per gradient step. */
  updateBatch: (s) => s['qmix.batchSize'],
  actor: 'MarlActor',
  network: null,
  settings: {
    ...qLearningSettings('qmix'),
    embedDim: int('qmix', 'Mixing width', 4, 256, 32, 'Width E of the mixing layer (mixing_embed_dim).'),
    hypernetEmbed: int('qmix', 'Hypernetwork width', 4, 256, 64, 'Hidden width of the hypernetworks that make the mixing weights.'),
  },
  presets: [
    {
      name: 'qmix-spread',
      title: 'QMIX on simple_spread (monotonic value mixing)',
      description: "Three agents share one recurrent Q-network; a mixer fed the global state adds their values monotonically into the team's, so each agent's greedy action is the team's.",
      settings: SPREAD_RUN,
    },
  ],
  load: () => import('../../algorithms/qmix').then((m) => m.qmix),
});
