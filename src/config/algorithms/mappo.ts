/**
 * MAPPO (Yu et al. 2022): one PPO actor shared by every agent, a centralised critic on the global
 * state. Defaults follow the authors' MPE scripts (marlbenchmark/on-policy, train_mpe_spread.sh and
 * config.py): lr and critic_lr 7e-4, γ 0.99, gae_lambda 0.95, clip_param 0.2, entropy_coef 0.01,
 * ppo_epoch 10, num_mini_batch 1, hidden_size 64 (two layers), max_grad_norm 10, and
 * n_rollout_threads 128 × episode_length 25: 128 whole episodes per update.
 */
import { makeMpeEnv } from '../../envs/mpe';
import { defineAlgorithm } from '../algorithm';
import { SPREAD_TARGET } from '../returnScales';
import { flag, int, num } from '../settingKinds';

const G = 'mappo';

/**
 * The preset's changes, for a curve that rises within a couple of minutes on a 2-core machine: an
 * update every 8 episodes (one collection round of 2 actors × 4 envs) at lr 2e-3. Chosen on seed 1
 * from lr 7e-4 and 2e-3 at 16 episodes, 2e-3 at 8, 3e-3 without the entropy bonus at 8 (its
 * entropy fell to 0.25 and its return back below random by 25,000 steps), with the critic of the
 * time before it saw t / T (src/algorithms/mappo.ts); kept after that fix (BENCHMARKS.md, "marl").
 */
const FAST = { 'mappo.lr': 2e-3, 'mappo.criticLr': 2e-3, 'mappo.episodesPerUpdate': 8 } as const;

export const MAPPO = defineAlgorithm({
  id: 'mappo',
  prefix: 'mappo',
  label: 'MAPPO (multi-agent)',
  family: 'marl',
  loop: 'marl',
  /** Rows of one minibatch: every agent's steps of the update's episodes, split into minibatches. */
  updateBatch: (s) => {
    const env = makeMpeEnv(s['marl.env']);
    return (s['mappo.episodesPerUpdate'] * env.maxCycles * env.possibleAgents.length) / s['mappo.numMinibatches'];
  },
  actor: 'MarlActor',
  network: null,
  settings: {
    lr: num(G, 'Actor learning rate', 1e-5, 0.05, 7e-4, 'Adam step size of the shared actor.'),
    criticLr: num(G, 'Critic learning rate', 1e-5, 0.05, 7e-4, 'Adam step size of the centralised critic.'),
    gamma: num(G, 'Discount γ', 0.5, 1, 0.99, 'Weight of future rewards.'),
    gaeLambda: num(G, 'GAE λ', 0, 1, 0.95, 'Bias–variance trade-off of the advantages (1: Monte Carlo, 0: one-step TD).'),
    clipCoef: num(G, 'Clip ε', 0.01, 1, 0.2, 'How far one update may move the probability ratio π_new / π_old.'),
    entCoef: num(G, 'Entropy bonus', 0, 0.5, 0.01, 'Weight of the policy entropy in the actor loss (keeps exploring).'),
    epochs: int(G, 'Epochs', 1, 50, 10, 'Passes over each batch of episodes.'),
    numMinibatches: int(G, 'Minibatches', 1, 64, 1, 'Minibatches per epoch.'),
    hidden: int(G, 'Hidden units', 8, 256, 64, 'Width of both hidden layers of the actor and the critic.'),
    maxGradNorm: num(G, 'Gradient clip', 0.01, 100, 10, 'Global-norm clip of each gradient.'),
    episodesPerUpdate: int(G, 'Episodes per update', 1, 1_024, 128, 'Whole episodes of every agent collected with the same weights before one update.'),
    agentId: flag(G, 'Agent id', true, "Give the shared actor its agent's one-hot id beside its observation."),
  },
  presets: [
    {
      name: 'mappo-spread',
      title: 'MAPPO on simple_spread (3 agents cover 3 landmarks)',
      description: 'Cooperative navigation with one policy shared by the three agents, each acting on what it sees, and a critic that sees them all. A random team scores about −79, a scripted one −24; the target is −60.',
      settings: { actors: 2, envsPerActor: 4, 'marl.env': 'simple_spread_v3', 'run.envSteps': 40_000, 'run.targetReturn': SPREAD_TARGET, ...FAST },
    },
  ],
  load: () => import('../../algorithms/mappo').then((m) => m.mappo),
});
