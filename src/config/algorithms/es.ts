/** Evolution strategies (Salimans et al. 2017): only seeds and returns travel between actors and learner. */
import { defineAlgorithm } from '../algorithm';
import { int, num } from '../settingKinds';

export const ES = defineAlgorithm({
  id: 'es',
  prefix: 'es',
  label: 'Evolution strategies',
  family: 'classic',
  loop: 'es',
  /** The population a generation scores: two perturbations a pair. */
  updateBatch: (s) => 2 * s['es.numPairs'],
  actor: 'RolloutActor',
  network: 'policy',
  settings: {
    sigma: num('es', 'Noise σ', 0.001, 1, 0.02, 'Standard deviation of the parameter perturbations.'),
    lr: num('es', 'Learning rate', 1e-4, 1, 0.01, 'Adam step size on the ES gradient estimate.', true),
    numPairs: int('es', 'Antithetic pairs', 1, 256, 25, 'Perturbation pairs (±ε) evaluated per generation, spread over the actors.'),
    l2Coeff: num('es', 'L2 coefficient', 0, 0.1, 0.005, 'Weight decay on the parameters.'),
  },
  presets: [
    {
      name: 'es-cartpole',
      title: 'Evolution strategies on CartPole (only seeds and returns travel)',
      description: 'OpenAI-style ES: actors score random perturbations of the weights from a shared seeded noise table, so each message is a handful of numbers, and it parallelises perfectly.',
      // Salimans et al. 2017: σ 0.02, Adam lr 0.01, L2 0.005, antithetic pairs, centred ranks.
      settings: {
        'env.id': 'CartPole-v1',
        actors: 2,
        'model.hidden': 16,
        'model.layers': 1,
        'es.sigma': 0.05,
        'es.lr': 0.03,
        'es.numPairs': 16,
        'run.envSteps': 1_000_000,
      },
    },
  ],
});
