/** Behaviour cloning: the offline baseline CQL is measured against (regress μ(s) on the dataset's actions). */
import { defineAlgorithm } from '../algorithm';
import { int, num } from '../settingKinds';
import { BOX_ACTION_ALGORITHM, SMALL_RELU_NET } from './boxDescriptor';
import { offlineSettings } from './continuousShared';

const BC_PENDULUM = {
  'env.id': 'Pendulum-v1',
  actors: 1,
  ...SMALL_RELU_NET,
  'bc.gradientSteps': 5_000,
  'run.targetReturn': -200,
} as const;

export const BC = defineAlgorithm({
  id: 'bc',
  prefix: 'bc',
  label: 'Behaviour cloning (offline)',
  loop: 'offline',
  updateBatch: (s) => s['bc.batchSize'],
  ...BOX_ACTION_ALGORITHM,
  settings: {
    lr: num('bc', 'Learning rate', 1e-5, 0.05, 1e-3, 'Adam step size.', true),
    batchSize: int('bc', 'Batch size', 16, 1_024, 256, 'Transitions per gradient step.'),
    ...offlineSettings('bc'),
  },
  presets: [
    {
      name: 'bc-pendulum',
      title: 'Behaviour cloning on Pendulum from the shipped dataset',
      description: 'Imitates the dataset’s average action in each state, good episodes and bad alike: the baseline offline RL has to beat.',
      // lr 1e-3 and batch 256, as the CQL preset's actor; the same nets and dataset.
      settings: BC_PENDULUM,
    },
    {
      name: 'bc-pendulum-medium',
      title: 'Behaviour cloning on Pendulum from narrow data (one half-trained policy)',
      description: 'Imitates one mediocre policy from its own greedy and slightly noisy episodes: the baseline for cql-pendulum-medium, which it trails by a little.',
      // bc-pendulum's settings on public/datasets/pendulum-medium.json (BENCHMARKS.md, offline-pendulum).
      settings: { ...BC_PENDULUM, 'bc.dataset': 'pendulum-medium' },
    },
  ],
  load: () => import('../../algorithms/bc'),
});
