/**
 * PPO (Schulman et al. 2017) with synchronous actors. Setting defaults follow CleanRL's ppo.py;
 * the presets follow SB3's rl-zoo (hyperparams/ppo.yml), as each comment says.
 */
import { defineAlgorithm } from '../algorithm';
import { flag, int, live, num } from '../settingKinds';

// rl-zoo ppo.yml CartPole-v1: 8 envs, n_steps 32, batch 256, 20 epochs, γ 0.98, λ 0.8,
// lr 1e-3 and clip 0.2 (both linearly annealed in rl-zoo; here the lr is), ent 0, 1e5 steps.
const PPO_CARTPOLE = {
  'env.id': 'CartPole-v1',
  actors: 2,
  envsPerActor: 4,
  'sampling.segmentLength': 32,
  'model.hidden': 64,
  'model.layers': 2,
  'ppo.lr': 1e-3,
  'ppo.gamma': 0.98,
  'ppo.gaeLambda': 0.8,
  'ppo.updateEpochs': 20,
  'ppo.numMinibatches': 1,
  'ppo.entCoef': 0,
  'ppo.annealLr': true,
  'run.envSteps': 200_000,
} as const;

export const PPO = defineAlgorithm({
  id: 'ppo',
  prefix: 'ppo',
  label: 'PPO',
  family: 'classic',
  loop: 'sync',
  /** A minibatch of a round's steps: actors × envs × T / minibatches. */
  updateBatch: (s) => (s.actors * s.envsPerActor * s['sampling.segmentLength']) / s['ppo.numMinibatches'],
  actor: 'RolloutActor',
  network: 'actorCritic',
  settings: {
    lr: live(num('ppo', 'Learning rate', 1e-5, 0.05, 2.5e-4, 'Adam step size.', true)),
    gamma: num('ppo', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
    gaeLambda: num('ppo', 'GAE λ', 0, 1, 0.95, 'Bias/variance trade-off of the advantage estimate.'),
    clipCoef: live(num('ppo', 'Clip ε', 0.01, 0.5, 0.2, 'The ratio π/π_old is clipped to [1−ε, 1+ε] in the surrogate objective.')),
    updateEpochs: int('ppo', 'Epochs', 1, 20, 4, 'Passes over each batch.'),
    numMinibatches: int('ppo', 'Minibatches', 1, 64, 4, 'Minibatches per epoch.'),
    entCoef: live(num('ppo', 'Entropy bonus', 0, 0.1, 0.01, 'Weight of the entropy bonus that keeps the policy exploring.')),
    vfCoef: num('ppo', 'Value-loss weight', 0, 2, 0.5, 'Weight of the value loss in the total loss.'),
    maxGradNorm: num('ppo', 'Max gradient norm', 0.05, 100, 0.5, 'Global gradient-norm clipping.'),
    annealLr: flag('ppo', 'Anneal learning rate', true, 'Decay the learning rate linearly to zero over the budget.'),
  },
  presets: [
    {
      name: 'ppo-cartpole',
      title: 'PPO on CartPole (synchronous actors)',
      description: 'Synchronous PPO: every actor samples a fixed-length segment with the latest weights, then the learner takes clipped minibatch steps; solves CartPole in about 100k steps.',
      settings: PPO_CARTPOLE,
    },
    {
      name: 'ppo-cartpole-central',
      title: 'PPO on CartPole, inference on the learner (SEED style)',
      description: 'The same PPO, but the actors only step environments: the learner picks every action in one batched forward pass for all actors, on its GPU.',
      settings: { ...PPO_CARTPOLE, inference: 'learner' },
    },
    {
      name: 'ppo-acrobot',
      title: 'PPO on Acrobot (swing the double pendulum up)',
      description: 'PPO on a harder task with −1 reward per step: the return climbs from −500 toward −100 as the policy learns to pump energy into the swing.',
      // rl-zoo ppo.yml Acrobot-v1: γ 0.99, λ 0.94, 4 epochs, ent 0 (with 16 envs x 256 steps;
      // here 8 envs x 128 steps and 4 minibatches). Measured: mean −100 after about 44k steps.
      settings: {
        ...PPO_CARTPOLE,
        'env.id': 'Acrobot-v1',
        'sampling.segmentLength': 128,
        'ppo.gamma': 0.99,
        'ppo.gaeLambda': 0.94,
        'ppo.updateEpochs': 4,
        'ppo.numMinibatches': 4,
        'run.targetReturn': -100,
        'run.envSteps': 200_000,
      },
    },
  ],
  load: () => import('../../algorithms/ppo'),
});
