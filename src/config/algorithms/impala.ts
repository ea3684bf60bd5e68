/** IMPALA with V-trace (Espeholt et al. 2018): asynchronous actors, off-policy correction. */
import { defineAlgorithm } from '../algorithm';
import { live, num } from '../settingKinds';

export const IMPALA = defineAlgorithm({
  id: 'impala',
  prefix: 'impala',
  label: 'IMPALA (V-trace)',
  family: 'classic',
  loop: 'async',
  /** The segments one update takes from the queue: segments × envs × T. */
  updateBatch: (s) => s['sampling.segmentsPerBatch'] * s.envsPerActor * s['sampling.segmentLength'],
  actor: 'RolloutActor',
  network: 'actorCritic',
  settings: {
    lr: live(num('impala', 'Learning rate', 1e-5, 0.05, 6e-4, 'RMSprop step size.', true)),
    gamma: num('impala', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
    entCoef: live(num('impala', 'Entropy bonus', 0, 0.1, 0.01, 'Weight of the entropy bonus.')),
    vfCoef: num('impala', 'Value-loss weight', 0, 2, 0.5, 'Weight of the value (baseline) loss.'),
    clipRhoThreshold: live(num('impala', 'ρ̄ (V-trace)', 0.1, 10, 1, 'Clip of the importance weight ρ in the V-trace value targets.')),
    clipPgRhoThreshold: live(num('impala', 'ρ̄ of the policy gradient', 0.1, 10, 1, 'Clip of the importance weight in the policy-gradient term.')),
    clipCThreshold: live(num('impala', 'c̄ (V-trace)', 0.1, 10, 1, 'Clip of the trace-cutting coefficient c.')),
    maxGradNorm: num('impala', 'Max gradient norm', 0.05, 100, 40, 'Global gradient-norm clipping.'),
  },
  presets: [
    {
      name: 'impala-cartpole',
      title: 'IMPALA on CartPole (asynchronous actors, V-trace)',
      description: 'Asynchronous actors keep sampling with slightly stale weights while the learner trains; V-trace corrects for the policy lag that the histogram shows.',
      // IMPALA (Espeholt et al. 2018): ρ̄ = c̄ = 1, entropy 0.01, value weight 0.5, RMSprop; the
      // learning rate, segment length and batch are sized for CartPole rather than Atari.
      settings: {
        'env.id': 'CartPole-v1',
        actors: 2,
        envsPerActor: 4,
        'sampling.segmentLength': 32,
        'sampling.queueCapacity': 4,
        'sampling.segmentsPerBatch': 2,
        'sampling.broadcastInterval': 1,
        'model.hidden': 64,
        'model.layers': 2,
        'impala.lr': 1e-3,
        'impala.gamma': 0.99,
        'impala.entCoef': 0.01,
        'run.envSteps': 500_000,
      },
    },
  ],
  load: () => import('../../algorithms/impala'),
});
