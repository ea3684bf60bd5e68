/**
 * MADDPG (Lowe et al. 2017): decentralised actors, centralised critics, Gumbel-softmax for
 * discrete actions; on competitive tasks one learner per side. Defaults and presets follow the
 * authors' code, openai/maddpg experiments/train.py: lr 1e-2 (actor and critic), γ 0.95,
 * batch 1024, num_units 64 (two hidden layers), 25-step episodes, one update every 100 steps
 * once batch × max_episode_len = 25,600 transitions are stored, target Polyak 1 − 0.99 = 0.01
 * (make_update_exp), gradients clipped to 0.5, the 1e-3 penalty on the actor's logits. One change:
 * the replay keeps 10,000 episodes (250,000 transitions, not 1e6) to fit a browser tab.
 */
import { defineAlgorithm } from '../algorithm';
import { SPREAD_TARGET } from '../returnScales';
import { int, live, num } from '../settingKinds';

const G = 'maddpg';

const REFERENCE = {
  actors: 2,
  envsPerActor: 4,
  'run.envSteps': 500_000,
  'maddpg.actorLr': 0.01,
  'maddpg.criticLr': 0.01,
  'maddpg.gamma': 0.95,
  'maddpg.tau': 0.01,
  'maddpg.hidden': 64,
  'maddpg.batchSize': 1024,
  'maddpg.bufferSize': 10_000,
  'maddpg.learningStarts': 25_600,
  'maddpg.trainEvery': 100,
  'maddpg.gradClip': 0.5,
  'maddpg.piReg': 0.001,
} as const;

export const MADDPG = defineAlgorithm({
  id: 'maddpg',
  prefix: 'maddpg',
  label: 'MADDPG (multi-agent)',
  family: 'marl',
  loop: 'marl',
  updateBatch: (s) => s['maddpg.batchSize'],
  actor: 'MarlActor',
  network: null,
  settings: {
    actorLr: live(num(G, 'Actor learning rate', 1e-5, 0.1, 0.01, 'Adam step size of every actor.', true)),
    criticLr: live(num(G, 'Critic learning rate', 1e-5, 0.1, 0.01, 'Adam step size of every centralised critic.', true)),
    gamma: num(G, 'Discount γ', 0.5, 1, 0.95, 'Weight of future rewards.'),
    tau: num(G, 'Target rate τ', 0.0001, 1, 0.01, 'Polyak rate of the target actors and critics after each gradient step.'),
    hidden: int(G, 'Hidden units', 8, 256, 64, 'Width of both hidden layers of every actor and critic.'),
    batchSize: int(G, 'Batch size', 16, 4_096, 1024, 'Transitions per gradient step.'),
    bufferSize: int(G, 'Replay (episodes)', 10, 40_000, 10_000, 'Whole episodes the replay keeps.'),
    learningStarts: int(G, 'Learning starts', 0, 1_000_000, 25_600, 'Environment steps collected before the first gradient step.'),
    trainEvery: int(G, 'Train every (steps)', 1, 10_000, 100, 'Environment steps per gradient step.'),
    gradClip: num(G, 'Gradient clip', 0.01, 100, 0.5, 'Global-norm clip of each actor and critic gradient.'),
    piReg: num(G, 'Logit penalty', 0, 0.1, 0.001, "Weight of mean(logits²) in each actor's loss."),
  },
  presets: [
    {
      name: 'maddpg-spread',
      title: 'MADDPG on simple_spread (3 agents cover 3 landmarks)',
      description: 'Cooperative navigation: each agent acts on what it sees, each critic judges with every observation and action; the agents learn to spread out over the landmarks without colliding.',
      settings: { ...REFERENCE, 'marl.env': 'simple_spread_v3', 'run.targetReturn': SPREAD_TARGET },
    },
    {
      name: 'maddpg-tag',
      title: 'MADDPG on simple_tag (3 predators against 1 prey, both learning)',
      description: 'Predator-prey: one MADDPG learner per side, every critic sees both sides; the faster prey learns to flee while the predators learn to corner it (catches per episode).',
      settings: { ...REFERENCE, 'marl.env': 'simple_tag_v3' },
    },
  ],
  load: () => import('../../algorithms/maddpg').then((m) => m.maddpg),
});
