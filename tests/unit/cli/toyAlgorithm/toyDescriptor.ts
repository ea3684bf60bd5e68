/** The toy update rule's descriptor: what the registry line adds (tests only, never shipped). */
import { defineAlgorithm } from '../../../../src/config/algorithm';
import { num } from '../../../../src/config/settingKinds';

export const TOY = defineAlgorithm({
  id: 'toy-pg',
  prefix: 'toy',
  label: 'Toy policy gradient',
  family: 'classic',
  loop: 'episodic',
  actor: 'RolloutActor',
  network: 'policy',
  /** Whole episodes of every actor's envs: about 128 steps each. */
  updateBatch: (s) => s.actors * s.envsPerActor * 128,
  settings: {
    lr: num('toy', 'Learning rate', 1e-4, 0.5, 0.05, 'SGD step size.'),
  },
  presets: [
    {
      name: 'toy-cartpole',
      title: 'A toy policy gradient on CartPole',
      description: 'The smallest algorithm one module and one registry line can add.',
      settings: { 'env.id': 'CartPole-v1', actors: 1, envsPerActor: 2, 'model.hidden': 16, 'model.layers': 1, 'run.envSteps': 2_000 },
    },
  ],
  load: () => import('./toyPolicyGradient'),
});
