/** Settings and preset pieces the Box-action descriptors share (DDPG, TD3, SAC, CQL, BC). */
import { NOISE_PROCESSES } from '../../core/ouNoise';
import { choice, int, num } from '../settingKinds';

/** Replay and learning-rate settings every off-policy continuous algorithm has, under its own prefix. */
export function offPolicySettings<P extends string>(prefix: P, d: { lr: number; gamma: number; bufferSize: number; batchSize: number; learningStarts: number }) {
  return {
    actorLr: num(prefix, 'Actor learning rate', 1e-5, 0.05, d.lr, 'Adam step size of the actor.', true),
    criticLr: num(prefix, 'Critic learning rate', 1e-5, 0.05, d.lr, 'Adam step size of the critic(s).', true),
    gamma: num(prefix, 'Discount γ', 0.8, 1, d.gamma, 'Weight of future rewards.'),
    tau: num(prefix, 'Target rate τ', 0.0001, 1, 0.005, 'Polyak rate of the target networks: θ′ ← τθ + (1 − τ)θ′.', true),
    bufferSize: int(prefix, 'Replay buffer', 1_000, 1_000_000, d.bufferSize, 'Transitions the replay buffer keeps.'),
    batchSize: int(prefix, 'Batch size', 16, 1_024, d.batchSize, 'Transitions per gradient step.'),
    learningStarts: int(prefix, 'Learning starts', 0, 100_000, d.learningStarts, 'Environment steps of uniformly random actions before the first update.'),
  };
}

/**
 * The exploration noise of the deterministic-policy algorithms (DDPG, TD3): its scale σ and its
 * process, independent Gaussian draws or an Ornstein-Uhlenbeck process (core/ouNoise.ts).
 */
export function explorationSettings<P extends string>(prefix: P, sigma: number) {
  return {
    explorationNoise: num(prefix, 'Exploration noise σ', 0, 2, sigma, 'Scale of the noise added to μ(s), in units of the action half-range (the Gaussian std, or the OU process\'s σ).'),
    explorationProcess: choice(
      prefix,
      'Exploration noise process',
      NOISE_PROCESSES,
      'gaussian',
      'gaussian: independent draws each step; ou: Ornstein-Uhlenbeck, x ← x + 0.15·(0 − x)·0.01 + σ·√0.01·N(0, 1), reset each episode (correlated pushes).',
    ),
  };
}

/** The parallel and network settings of the Pendulum presets: one actor, small relu nets (fast in wasm). */
export const PENDULUM_RUN = {
  'env.id': 'Pendulum-v1',
  actors: 1,
  envsPerActor: 1,
  'sampling.segmentLength': 16,
  'sampling.updateToData': 1,
  'model.hidden': 64,
  'model.layers': 2,
  'model.activation': 'relu',
  'run.targetReturn': -200,
  'run.envSteps': 20_000,
} as const;

/** The datasets the app ships in public/datasets/ (made by `npm run dataset`, see src/cli/dataset.ts). */
export const DATASETS = ['pendulum-mixed', 'pendulum-medium'] as const;

/** Settings of the offline loop: the dataset, the number of gradient steps, and how it is evaluated. */
export function offlineSettings<P extends string>(prefix: P) {
  return {
    dataset: choice(prefix, 'Dataset', DATASETS, 'pendulum-mixed', 'Transitions to learn from (public/datasets/NAME.json); the env must match.'),
    gradientSteps: int(prefix, 'Gradient steps', 100, 1_000_000, 20_000, 'Updates on the dataset before the run ends.'),
    evalEvery: int(prefix, 'Evaluate every', 10, 100_000, 1_000, 'Gradient steps between evaluations in the environment.'),
    evalEpisodes: int(prefix, 'Evaluation episodes', 1, 100, 5, 'Greedy episodes per evaluation.'),
  };
}
