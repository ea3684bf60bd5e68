/** REINFORCE (Williams 1992), PaddlePaddle PARL's QuickStart: whole episodes, one gradient step each. */
import { defineAlgorithm } from '../algorithm';
import { live, num } from '../settingKinds';

export const REINFORCE = defineAlgorithm({
  id: 'reinforce',
  prefix: 'reinforce',
  label: 'REINFORCE',
  family: 'classic',
  loop: 'episodic',
  /** Whole episodes from every env of a round: about 128 steps each. */
  updateBatch: (s) => s.actors * s.envsPerActor * 128,
  actor: 'RolloutActor',
  network: 'policy',
  settings: {
    lr: live(num('reinforce', 'Learning rate', 1e-5, 0.1, 0.01, 'Adam step size.', true)),
    gamma: num('reinforce', 'Discount γ', 0.8, 1, 0.99, 'How much future reward counts: G_t = Σ γ^k r_{t+k}.'),
    entCoef: live(num('reinforce', 'Entropy bonus', 0, 0.1, 0, 'Weight of the entropy term that keeps the policy exploring.')),
  },
  presets: [
    {
      name: 'quickstart',
      title: 'QuickStart: REINFORCE on CartPole',
      description:
        "PaddlePaddle PARL's QuickStart: a policy gradient learns to balance a pole from whole episodes collected by remote actors.",
      // PARL's QuickStart uses one episode per update, lr 1e-3 and a 4-20-2 tanh net. With a batch of
      // episodes from several actors per update, a larger step (1e-2) and 64 hidden units converge in
      // far fewer updates; the return normalisation keeps the step size stable.
      settings: {
        'env.id': 'CartPole-v1',
        actors: 2,
        envsPerActor: 4,
        'model.hidden': 64,
        'model.layers': 1,
        'model.activation': 'tanh',
        'reinforce.lr': 0.01,
        'reinforce.gamma': 0.99,
        'run.envSteps': 300_000,
      },
    },
  ],
  load: () => import('../../algorithms/reinforce'),
});
