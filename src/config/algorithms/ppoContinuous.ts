/** PPO with a diagonal Gaussian policy (state-independent log-std), as CleanRL's ppo_continuous_action.py. */
import { defineAlgorithm } from '../algorithm';
import { flag, int, num } from '../settingKinds';

export const PPO_CONTINUOUS = defineAlgorithm({
  id: 'ppo-continuous',
  prefix: 'ppo-continuous',
  label: 'PPO (Gaussian)',
  family: 'classic',
  loop: 'onPolicyContinuous',
  /** A minibatch of a round's steps: actors × envs × T / minibatches. */
  updateBatch: (s) => (s.actors * s.envsPerActor * s['sampling.segmentLength']) / s['ppo-continuous.numMinibatches'],
  actor: 'ContinuousRolloutActor',
  network: null,
  actionSpace: 'box',
  // Defaults: CleanRL ppo_continuous_action.py (lr 3e-4 annealed, γ 0.99, λ 0.95, 10 epochs,
  // 32 minibatches, clip 0.2, ent 0, vf 0.5, max grad norm 0.5).
  settings: {
    lr: num('ppo-continuous', 'Learning rate', 1e-5, 0.05, 3e-4, 'Adam step size.', true),
    gamma: num('ppo-continuous', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
    gaeLambda: num('ppo-continuous', 'GAE λ', 0, 1, 0.95, 'Bias/variance trade-off of the advantage estimate.'),
    clipCoef: num('ppo-continuous', 'Clip ε', 0.01, 0.5, 0.2, 'The ratio π/π_old is clipped to [1−ε, 1+ε].'),
    updateEpochs: int('ppo-continuous', 'Epochs', 1, 20, 10, 'Passes over each batch.'),
    numMinibatches: int('ppo-continuous', 'Minibatches', 1, 64, 32, 'Minibatches per epoch.'),
    entCoef: num('ppo-continuous', 'Entropy bonus', 0, 0.1, 0, 'Weight of the entropy bonus.'),
    vfCoef: num('ppo-continuous', 'Value-loss weight', 0, 2, 0.5, 'Weight of the value loss.'),
    maxGradNorm: num('ppo-continuous', 'Max gradient norm', 0.05, 100, 0.5, 'Global gradient-norm clipping.'),
    annealLr: flag('ppo-continuous', 'Anneal learning rate', true, 'Decay the learning rate linearly to 0 over the budget.'),
  },
  presets: [
    {
      name: 'ppo-continuous-pendulum',
      title: 'Gaussian PPO on Pendulum (on-policy, state-independent σ)',
      description: 'A Gaussian policy whose spread σ is learned alongside the mean: on-policy, so it needs many more steps than SAC or TD3.',
      // rl-baselines3-zoo hyperparams/ppo.yml Pendulum-v1: 4 envs, n_steps 1024, γ 0.9, λ 0.95,
      // 10 epochs, batch 64 (→ 64 minibatches of 4096), lr 1e-3, clip 0.2, ent 0, 1e5 steps (and
      // gSDE and observation/reward normalisation, which this playground lacks).
      settings: {
        'env.id': 'Pendulum-v1',
        actors: 2,
        envsPerActor: 2,
        'sampling.segmentLength': 1_024,
        'model.hidden': 64,
        'model.layers': 2,
        'model.activation': 'tanh',
        'ppo-continuous.lr': 1e-3,
        'ppo-continuous.gamma': 0.9,
        'ppo-continuous.gaeLambda': 0.95,
        'ppo-continuous.updateEpochs': 10,
        'ppo-continuous.numMinibatches': 64,
        'run.targetReturn': -200,
        'run.envSteps': 200_000,
      },
    },
  ],
  load: () => import('../../algorithms/ppoContinuous'),
});
