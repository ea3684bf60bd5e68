/** DDPG (Lillicrap et al. 2016): deterministic actor, one critic, Gaussian (or Ornstein-Uhlenbeck) exploration noise, Ape-X style actors. */
import { defineAlgorithm } from '../algorithm';
import { BOX_ACTION_ALGORITHM } from './boxDescriptor';
import { explorationSettings, offPolicySettings, PENDULUM_RUN } from './continuousShared';

export const DDPG = defineAlgorithm({
  id: 'ddpg',
  prefix: 'ddpg',
  label: 'DDPG',
  loop: 'offPolicyContinuous',
  updateBatch: (s) => s['ddpg.batchSize'],
  ...BOX_ACTION_ALGORITHM,
  // Defaults: Stable-Baselines3 DDPG (learning_rate 1e-3 for actor and critic, tau 0.005, gamma 0.99,
  // batch_size 256, buffer_size 1e6, learning_starts 100) with rl-baselines3-zoo's Gaussian action
  // noise std 0.1 (hyperparams/ddpg.yml, Pendulum-v1; which also sets gamma 0.98, buffer 2e5,
  // learning_starts 1e4 and net_arch [400, 300]). Lillicrap et al. used 1e-4 / 1e-3 and τ = 0.001.
  settings: {
    ...offPolicySettings('ddpg', { lr: 1e-3, gamma: 0.99, bufferSize: 1_000_000, batchSize: 256, learningStarts: 100 }),
    ...explorationSettings('ddpg', 0.1),
  },
  presets: [
    {
      name: 'ddpg-pendulum',
      title: 'DDPG on Pendulum (continuous torque, replay, target networks)',
      description: 'A deterministic policy trained through a learned Q(s, a): actors add Gaussian noise to explore, the learner replays their transitions.',
      // rl-baselines3-zoo hyperparams/ddpg.yml Pendulum-v1: γ 0.98, buffer 2e5, learning_starts
      // 1e4, normal noise σ 0.1, lr 1e-3, train_freq 1, gradient_steps 1, 2e4 steps. Changed: nets
      // [64, 64] relu (zoo [400, 300]) so an update is fast enough on wasm, and learning_starts
      // 1000 (a tenth of the zoo's, which spends half its 2e4-step budget on random play).
      settings: {
        ...PENDULUM_RUN,
        'run.envSteps': 30_000,
        'ddpg.gamma': 0.98,
        'ddpg.bufferSize': 200_000,
        'ddpg.learningStarts': 1_000,
        'ddpg.explorationNoise': 0.1,
      },
    },
  ],
  load: () => import('../../algorithms/ddpg'),
});
