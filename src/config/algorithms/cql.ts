/** CQL (Kumar et al. 2020) on top of SAC: offline RL from a dataset file, then evaluated in the env. */
import { defineAlgorithm } from '../algorithm';
import { flag, int, num } from '../settingKinds';
import { BOX_ACTION_ALGORITHM, SMALL_RELU_NET } from './boxDescriptor';
import { offlineSettings, offPolicySettings } from './continuousShared';

/** The Pendulum preset's settings, shared by its datasets. */
const CQL_PENDULUM = {
  'cql.numSampledActions': 4,
  'cql.batchSize': 128,
  'env.id': 'Pendulum-v1',
  actors: 1,
  ...SMALL_RELU_NET,
  'cql.actorLr': 1e-3,
  'cql.criticLr': 1e-3,
  'cql.alphaLr': 1e-3,
  'cql.gradientSteps': 5_000,
  'cql.evalEvery': 1_000,
  'run.targetReturn': -200,
} as const;

export const CQL = defineAlgorithm({
  id: 'cql',
  prefix: 'cql',
  label: 'CQL (offline)',
  loop: 'offline',
  updateBatch: (s) => s['cql.batchSize'],
  ...BOX_ACTION_ALGORITHM,
  // SAC part: SB3 defaults (lr 3e-4, τ 0.005, batch 256). CQL part: the official code's
  // CQL(H) with min_q_weight 5 and 10 sampled actions of each kind (Kumar et al. 2020, app. F).
  settings: {
    ...offPolicySettings('cql', { lr: 3e-4, gamma: 0.99, bufferSize: 1_000_000, batchSize: 256, learningStarts: 0 }),
    alphaLr: num('cql', 'α learning rate', 1e-5, 0.05, 3e-4, 'Adam step size of log α (SAC part).', true),
    initAlpha: num('cql', 'Initial α', 0.001, 10, 1, 'SAC entropy temperature at the start.', true),
    autotune: flag('cql', 'Tune α', true, 'SAC part: move α so that the entropy tracks −|A|.'),
    cqlAlpha: num('cql', 'Conservative weight α_cql', 0, 20, 5, 'Weight of the term that lowers Q on actions outside the data (0: plain SAC on the dataset).'),
    numSampledActions: int('cql', 'Sampled actions N', 1, 50, 10, 'Uniform and policy actions per state in the logsumexp estimate.'),
    ...offlineSettings('cql'),
  },
  presets: [
    {
      name: 'cql-pendulum',
      title: 'CQL on Pendulum from a shipped dataset (offline RL)',
      description: 'Learns only from saved transitions of mixed quality, keeping Q low on actions the data never tried, and is then evaluated in the environment.',
      // CQL(H), α_cql 5 (official code's default); SAC lr 1e-3 as rl-zoo's Pendulum SAC; nets
      // [64, 64] relu as the SAC Pendulum preset. Changed for speed: N = 4 sampled actions (official
      // 10) and batch 128 (SB3 256), as each step evaluates the critics on B·2N extra actions.
      settings: CQL_PENDULUM,
    },
    {
      name: 'cql-pendulum-medium',
      title: 'CQL on Pendulum from narrow data (one half-trained policy)',
      description: 'The data holds only one mediocre policy’s own actions: without the conservative term (α_cql 0) Q is never corrected on the actions the data lacks and the policy falls apart; with it CQL comes out about as good as the data, a little ahead of behaviour cloning.',
      // The cql-pendulum settings unchanged, on public/datasets/pendulum-medium.json (greedy and
      // σ 0.1 episodes of SAC stopped at 2,500 steps; BENCHMARKS.md, offline-pendulum).
      settings: { ...CQL_PENDULUM, 'cql.dataset': 'pendulum-medium' },
    },
  ],
  load: () => import('../../algorithms/cql'),
});
