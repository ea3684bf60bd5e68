/**
 * Settings of the parallel engine: how actors sample, where inference runs, and each
 * algorithm's hyperparameters (keys prefixed by the algorithm). Defaults follow CleanRL and
 * SB3's rl-zoo for CartPole where they exist; the presets cite their sources.
 */
import { choice, flag, int, num, only, type Setting } from './settingKinds';

const SEGMENTS = ['a2c', 'ppo', 'impala', 'dqn'];
const ON_POLICY_SEGMENTS = ['a2c', 'ppo', 'impala'];

export const INFERENCE_PLACEMENTS = ['actor', 'learner'] as const;

export const ENGINE_SETTINGS = {
  inference: only(ON_POLICY_SEGMENTS, choice('parallel', 'Inference placement', INFERENCE_PLACEMENTS, 'actor', 'actor: each actor acts with its own policy copy (IMPALA style); learner: actors only step envs and the learner runs one batched forward pass for all (SEED style).')),
  'sampling.segmentLength': only(SEGMENTS, int('parallel', 'Segment length T', 4, 1_024, 128, 'Steps each env copy runs per segment before the actor sends it (one message per segment).')),
  'sampling.broadcastInterval': only(['impala'], int('parallel', 'Broadcast interval', 1, 100, 1, 'Async mode: the learner sends new weights to the actors every this many updates.')),
  'sampling.queueCapacity': only(['impala'], int('parallel', 'Queue capacity', 1, 64, 4, 'Async mode: segments waiting for the learner; a full queue makes actors wait (backpressure).')),
  'sampling.segmentsPerBatch': only(['impala'], int('parallel', 'Segments per batch', 1, 16, 2, 'Async mode: segments the learner takes from the queue for one update.')),

  'ppo.lr': num('ppo', 'Learning rate', 1e-5, 0.05, 2.5e-4, 'Adam step size.', true),
  'ppo.gamma': num('ppo', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
  'ppo.gaeLambda': num('ppo', 'GAE λ', 0, 1, 0.95, 'Bias/variance trade-off of the advantage estimate.'),
  'ppo.clip': num('ppo', 'Clip ε', 0.01, 0.5, 0.2, 'The ratio π/π_old is clipped to [1−ε, 1+ε] in the surrogate objective.'),
  'ppo.epochs': int('ppo', 'Epochs', 1, 20, 4, 'Passes over each batch.'),
  'ppo.minibatches': int('ppo', 'Minibatches', 1, 64, 4, 'Minibatches per epoch.'),
  'ppo.entCoef': num('ppo', 'Entropy bonus', 0, 0.1, 0.01, 'Weight of the entropy bonus that keeps the policy exploring.'),
  'ppo.vfCoef': num('ppo', 'Value-loss weight', 0, 2, 0.5, 'Weight of the value loss in the total loss.'),
  'ppo.maxGradNorm': num('ppo', 'Max gradient norm', 0.05, 100, 0.5, 'Global gradient-norm clipping.'),
  'ppo.annealLr': flag('ppo', 'Anneal learning rate', true, 'Decay the learning rate linearly to zero over the budget.'),

  'a2c.lr': num('a2c', 'Learning rate', 1e-5, 0.05, 7e-4, 'RMSprop step size.', true),
  'a2c.gamma': num('a2c', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
  'a2c.gaeLambda': num('a2c', 'GAE λ', 0, 1, 1, 'λ = 1 gives plain n-step returns, as in A2C.'),
  'a2c.entCoef': num('a2c', 'Entropy bonus', 0, 0.1, 0, 'Weight of the entropy bonus.'),
  'a2c.vfCoef': num('a2c', 'Value-loss weight', 0, 2, 0.5, 'Weight of the value loss.'),
  'a2c.maxGradNorm': num('a2c', 'Max gradient norm', 0.05, 100, 0.5, 'Global gradient-norm clipping.'),

  'impala.lr': num('impala', 'Learning rate', 1e-5, 0.05, 6e-4, 'RMSprop step size.', true),
  'impala.gamma': num('impala', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
  'impala.entCoef': num('impala', 'Entropy bonus', 0, 0.1, 0.01, 'Weight of the entropy bonus.'),
  'impala.vfCoef': num('impala', 'Value-loss weight', 0, 2, 0.5, 'Weight of the value (baseline) loss.'),
  'impala.rhoBar': num('impala', 'ρ̄ (V-trace)', 0.1, 10, 1, 'Clip of the importance weight ρ in the V-trace targets.'),
  'impala.cBar': num('impala', 'c̄ (V-trace)', 0.1, 10, 1, 'Clip of the trace-cutting coefficient c.'),
  'impala.maxGradNorm': num('impala', 'Max gradient norm', 0.05, 100, 40, 'Global gradient-norm clipping.'),

  'dqn.lr': num('dqn', 'Learning rate', 1e-5, 0.05, 2.5e-4, 'Adam step size.', true),
  'dqn.gamma': num('dqn', 'Discount γ', 0.8, 1, 0.99, 'Weight of future rewards.'),
  'dqn.bufferSize': int('dqn', 'Replay buffer', 1_000, 1_000_000, 10_000, 'Transitions the replay buffer keeps.'),
  'dqn.batchSize': int('dqn', 'Batch size', 8, 1_024, 128, 'Transitions per gradient step.'),
  'dqn.learningStarts': int('dqn', 'Learning starts', 0, 100_000, 10_000, 'Environment steps of random play before the first update.'),
  'dqn.trainFrequency': int('dqn', 'Train frequency', 1, 64, 10, 'Environment steps per gradient step.'),
  'dqn.targetUpdate': int('dqn', 'Target update interval', 1, 100_000, 500, 'Environment steps between target-network syncs.'),
  'dqn.epsStart': num('dqn', 'ε start', 0, 1, 1, 'Initial exploration rate.'),
  'dqn.epsEnd': num('dqn', 'ε end', 0, 1, 0.05, 'Final exploration rate.'),
  'dqn.epsFraction': num('dqn', 'ε decay fraction', 0.01, 1, 0.5, 'Fraction of the budget over which ε decays linearly.'),
  'dqn.double': flag('dqn', 'Double DQN', true, 'Pick the next action with the online net, value it with the target net.'),

  'es.sigma': num('es', 'Noise σ', 0.001, 1, 0.02, 'Standard deviation of the parameter perturbations.'),
  'es.lr': num('es', 'Learning rate', 1e-4, 1, 0.01, 'Adam step size on the ES gradient estimate.', true),
  'es.pairs': int('es', 'Antithetic pairs', 1, 256, 25, 'Perturbation pairs (±ε) evaluated per generation, spread over the actors.'),
  'es.l2': num('es', 'L2 coefficient', 0, 0.1, 0.005, 'Weight decay on the parameters.'),
} as const satisfies Record<string, Setting>;
