/** SAC (Haarnoja et al. 2018): squashed-Gaussian actor, twin soft critics, automatic entropy tuning. */
import { defineAlgorithm } from '../algorithm';
import { flag, int, num } from '../settingKinds';
import { BOX_ACTION_ALGORITHM, MOUNTAINCAR_CONTINUOUS_RUN } from './boxDescriptor';
import { offPolicySettings, PENDULUM_RUN } from './continuousShared';

export const SAC = defineAlgorithm({
  id: 'sac',
  prefix: 'sac',
  label: 'SAC',
  loop: 'offPolicyContinuous',
  updateBatch: (s) => s['sac.batchSize'],
  ...BOX_ACTION_ALGORITHM,
  // Defaults: Stable-Baselines3 SAC (learning_rate 3e-4 for actor, critics and α, tau 0.005,
  // gamma 0.99, ent_coef 'auto' starting at 1.0, target_entropy 'auto' = −dim(A), batch_size 256,
  // buffer_size 1e6, learning_starts 100). rl-baselines3-zoo's Pendulum-v1 (hyperparams/sac.yml)
  // changes only learning_rate to 1e-3 over 20k steps.
  settings: {
    ...offPolicySettings('sac', { lr: 3e-4, gamma: 0.99, bufferSize: 1_000_000, batchSize: 256, learningStarts: 100 }),
    alphaLr: num('sac', 'α learning rate', 1e-5, 0.05, 3e-4, 'Adam step size of log α.', true),
    initAlpha: num('sac', 'Initial α', 0.001, 10, 1, 'Entropy temperature at the start (throughout when autotune is off).', true),
    autotune: flag('sac', 'Tune α', true, 'Move α so that the policy entropy tracks the target −|A|.'),
    // gSDE (Raffin, Kober & Stulp 2022), SB3's defaults: use_sde False, sde_sample_freq −1, log_std_init −3.
    useSde: flag('sac', 'gSDE exploration', false, 'State-dependent exploration: the noise is the last hidden layer times a random matrix, kept for a whole segment, so the pushes are smooth and consistent.'),
    sdeSampleFreq: int('sac', 'gSDE resample every', -1, 10_000, -1, 'Env steps between new exploration matrices on the actors (−1: only at the start of each segment).'),
    logStdInit: num('sac', 'gSDE initial log σ', -6, 1, -3, 'Initial log standard deviation of every entry of the exploration matrix.'),
  },
  presets: [
    {
      name: 'sac-pendulum',
      title: 'SAC on Pendulum (maximum-entropy RL, automatic temperature)',
      description: 'A stochastic squashed-Gaussian policy that trades return against entropy; α falls as the critics learn and the swing-up becomes sure.',
      // rl-baselines3-zoo hyperparams/sac.yml Pendulum-v1: learning_rate 1e-3, 2e4 steps, the rest
      // SB3 defaults (batch 256, learning_starts 100, γ 0.99, τ 0.005, α auto). Changed: nets
      // [64, 64] relu (SB3 [256, 256]) so an update is fast enough on wasm.
      settings: {
        ...PENDULUM_RUN,
        'sac.actorLr': 1e-3,
        'sac.criticLr': 1e-3,
        'sac.alphaLr': 1e-3,
      },
    },
    {
      name: 'sac-mountaincar-continuous',
      title: 'SAC on MountainCarContinuous (gSDE exploration, fixed temperature)',
      description: 'A sparse-reward task: state-dependent exploration pushes the car consistently for a whole segment, so it rocks back and forth until it first reaches the flag.',
      // rl-baselines3-zoo hyperparams/sac.yml MountainCarContinuous-v0: lr 3e-4, buffer 5e4,
      // batch 512, ent_coef 0.1, train_freq 32 with 32 gradient steps (segments of 32 at an
      // update-to-data ratio of 1), γ 0.9999, τ 0.01, learning_starts 0, use_sde True (with
      // sde_sample_freq −1: a new matrix at each rollout start), policy_kwargs log_std_init −3.67,
      // net_arch [64, 64], 5e4 steps.
      settings: {
        ...MOUNTAINCAR_CONTINUOUS_RUN,
        'sac.bufferSize': 50_000,
        'sac.batchSize': 512,
        'sac.gamma': 0.9999,
        'sac.tau': 0.01,
        'sac.learningStarts': 0,
        'sac.initAlpha': 0.1,
        'sac.autotune': false,
        'sac.useSde': true,
        'sac.sdeSampleFreq': -1,
        'sac.logStdInit': -3.67,
      },
    },
  ],
  load: () => import('../../algorithms/sac'),
});
