/** A2C (Mnih et al. 2016, synchronous variant). Setting defaults follow SB3 / rl-zoo's a2c.yml. */
import { defineAlgorithm } from '../algorithm';
import { live, num } from '../settingKinds';

export const A2C = defineAlgorithm({
  id: 'a2c',
  prefix: 'a2c',
  label: 'A2C',
  family: 'classic',
  loop: 'sync',
  /** One update on every env step of a round: actors × envs × T. */
  updateBatch: (s) => s.actors * s.envsPerActor * s['sampling.segmentLength'],
  actor: 'RolloutActor',
  network: 'actorCritic',
  settings: {
    lr: live(num('a2c', 'Learning rate', 1e-5, 0.05, 7e-4, 'RMSprop step size.', true)),
    gamma: num('a2c', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
    gaeLambda: num('a2c', 'GAE λ', 0, 1, 1, 'λ = 1 gives plain n-step returns, as in A2C.'),
    entCoef: live(num('a2c', 'Entropy bonus', 0, 0.1, 0, 'Weight of the entropy bonus.')),
    vfCoef: num('a2c', 'Value-loss weight', 0, 2, 0.5, 'Weight of the value loss.'),
    maxGradNorm: num('a2c', 'Max gradient norm', 0.05, 100, 0.5, 'Global gradient-norm clipping.'),
  },
  presets: [
    {
      name: 'a2c-cartpole',
      title: 'A2C on CartPole (synchronous, short segments)',
      description: 'Advantage actor-critic: many short segments (5 steps per env) and one RMSprop step each; simple and steady, but it needs more samples than PPO.',
      // rl-zoo a2c.yml CartPole-v1: 8 envs, n_steps 5, ent 0, lr 7e-4, γ 0.99, λ 1, 5e5 steps.
      settings: {
        'env.id': 'CartPole-v1',
        actors: 2,
        envsPerActor: 4,
        'sampling.segmentLength': 5,
        'model.hidden': 64,
        'model.layers': 2,
        'a2c.lr': 7e-4,
        'a2c.gamma': 0.99,
        'a2c.gaeLambda': 1,
        'a2c.entCoef': 0,
        'run.envSteps': 500_000,
      },
    },
  ],
  load: () => import('../../algorithms/a2c'),
});
