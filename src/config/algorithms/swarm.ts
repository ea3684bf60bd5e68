/**
 * The agent swarm: a set-policy orchestrator (pointer heads over up to
 * 100 candidate subtasks and the subagent kinds, src/swarm/setPolicy.ts) trained with the engine's
 * PPO on the decomposition task (src/envs/swarm/decomposition.ts): heterogeneous subtasks with
 * chains, specialist subagent kinds, claims with a confidence and no oracle (checking costs steps),
 * a context budget that each result read back fills in proportion to its size, and a HARD
 * critical-step budget. Reward r = λ1·r_parallel + λ2·r_finish + r_perf (src/swarm/parlReward.ts:
 * r_parallel bounded, r_finish neutral when nothing is assigned).
 *
 * Every preset trains the SAME initial policy (seed aside) on the SAME rules; each preset's
 * description says exactly which settings differ from swarm-annealed.
 */
import { defineAlgorithm } from '../algorithm';
import { choice, int, live, num } from '../settingKinds';

const SCHEDULES = ['linear', 'cosine', 'exponential', 'step', 'constant'] as const;
/** Where the subagent kinds' skills come from: the hand table, measured from the shipped checkpoints, or drawn anew per task and hidden (latent). */
export const SWARM_SKILLS = ['table', 'checkpoints', 'latent'] as const;
/** The annealed preset's settings; every other preset changes only what its description names. */
const ANNEALED = {
  actors: 2,
  envsPerActor: 4,
  'run.envSteps': 5_000_000,
  'run.targetReturn': 1000,
  'swarm.subtasks': 40,
  'swarm.skills': 'latent',
  'swarm.lambda1': 0.3,
  'swarm.lambda1Schedule': 'linear',
  'swarm.lambda2': 0.3,
  'swarm.lambda2Schedule': 'linear',
} as const;

export const SWARM = defineAlgorithm({
  id: 'swarm',
  prefix: 'swarm',
  label: 'Agent swarm (set policy, decomposition task, PPO)',
  family: 'swarm',
  loop: 'swarm',
  /** A minibatch of decisions: one episode per env, at most one decision per subtask and a few launches each. */
  updateBatch: (s) => (s.actors * s.envsPerActor * Math.min(s['swarm.maxDecisions'], s['swarm.subtasks'] + 8)) / s['swarm.numMinibatches'],
  actor: 'SwarmActor',
  lightActors: true,
  network: null,
  settings: {
    subtasks: int('swarm task', 'Subtasks N', 4, 100, 40, 'Decomposition task: heterogeneous subtasks (lookup, search, reason; sizes 1-8; some in chains).'),
    chainFraction: num('swarm task', 'Share in chains', 0, 1, 0.3, 'Share of the subtasks linked in chains that must run in order.'),
    maxChainLength: int('swarm task', 'Longest chain', 2, 10, 3, 'Most links in one chain.'),
    skills: choice('swarm agents', 'Subagent skills', SWARM_SKILLS, 'table', "Skill profile of each subagent kind: the hand table, measured from the shipped checkpoints (public/subagents/manifest.json), or latent: drawn anew for every task from a prior (which kind is the specialist, how well its confidence is calibrated) and seen only through checks, agreements and latencies."),
    budgetFraction: num('swarm limits', 'Critical budget (× serial)', 0.02, 1, 0.25, 'Hard cap on the critical steps of an episode, as a fraction of the serial baseline; below the lower bound the run is refused.'),
    contextFraction: num('swarm limits', 'Context (× one result per subtask)', 0.05, 4, 0.8, 'Orchestrator context, as a fraction of Σ (2 + size): what reading one result per subtask would take.'),
    subagentStepCap: int('swarm limits', 'Subagent step cap', 4, 500, 64, 'Steps one subagent may run; later items time out.'),
    maxDecisions: int('swarm limits', 'Decision cap', 8, 5_000, 200, 'Tool calls of the orchestrator per episode; at the cap the plan is launched and the episode finished.'),
    lambda1: live(num('swarm reward', 'λ1 start (parallel)', 0, 2, 0.3, 'Weight of r_parallel = min(subagents, cap)/cap at the start.')),
    lambda1Schedule: live(choice('swarm reward', 'λ1 schedule', SCHEDULES, 'linear', 'How λ1 anneals to zero over the horizon (constant: never).')),
    lambda2: live(num('swarm reward', 'λ2 start (finish)', 0, 2, 0.3, 'Weight of r_finish = completed/assigned (1 when nothing assigned) at the start.')),
    lambda2Schedule: live(choice('swarm reward', 'λ2 schedule', SCHEDULES, 'linear', 'How λ2 anneals to zero over the horizon (constant: never).')),
    annealUpdates: int('swarm reward', 'Anneal horizon (updates)', 1, 5_000, 30, 'Updates over which λ1 and λ2 reach zero.'),
    parallelCap: int('swarm reward', 'r_parallel cap', 1, 500, 16, 'r_parallel = min(subagents created, cap) / cap.'),
    updates: int('swarm training', 'Orchestrator updates', 1, 5_000, 60, 'PPO updates (each on envsPerActor episodes per actor).'),
    lr: live(num('swarm training', 'Learning rate', 1e-5, 0.1, 3e-3, 'Adam step size of the set policy.', true)),
    entCoef: live(num('swarm training', 'Entropy bonus', 0, 0.2, 0.01, 'Entropy weight in the PPO loss.')),
    updateEpochs: int('swarm training', 'PPO epochs', 1, 20, 2, 'Passes over each batch of decisions.'),
    numMinibatches: int('swarm training', 'Minibatches', 1, 64, 2, 'Minibatches per epoch.'),
    hidden: int('swarm training', 'Hidden units', 8, 256, 16, 'Width of the set encoder, the pointer heads and the value head.'),
    traceEvery: int('swarm training', 'Trace every N updates', 0, 1_000, 10, 'Record one episode for the timeline every N updates; 0 = never.'),
    episodesPerTask: int('swarm training', 'Episodes per task', 1, 16, 4, 'Training episodes that play the same task (the same subtasks and skills, different draws of the policy).'),
    gaeLambda: num('swarm training', 'GAE λ', 0, 1, 1, "λ of the advantages over an episode's decisions (1: Monte Carlo, each decision gets the episode's return)."),
  },
  presets: [
    {
      name: 'swarm-annealed',
      title: 'Agent swarm: λ1, λ2 annealed to zero',
      description: 'The reference: 60 updates, each on two actors’ runs of one task; λ1 = λ2 = 0.3, both linear to zero over the first half, on 40-subtask decomposition tasks whose subagent skills are drawn anew for every task and hidden, under a hard budget of 0.25 × serial; r_perf is paid at the end, and each decision is judged against a learned critic.',
      settings: { ...ANNEALED },
    },
    {
      name: 'swarm-no-shaping',
      title: 'Agent swarm: no shaping',
      description: 'Only change from swarm-annealed: λ1 = λ2 = 0 (r_perf alone).',
      settings: { ...ANNEALED, 'swarm.lambda1': 0, 'swarm.lambda2': 0 },
    },
    {
      name: 'swarm-lambda1-only',
      title: 'Agent swarm: λ1 only',
      description: 'Only change from swarm-annealed: λ2 = 0 (r_parallel annealed as there, no r_finish).',
      settings: { ...ANNEALED, 'swarm.lambda2': 0 },
    },
    {
      name: 'swarm-lambda2-only',
      title: 'Agent swarm: λ2 only',
      description: 'Only change from swarm-annealed: λ1 = 0 (r_finish annealed as there, no r_parallel).',
      settings: { ...ANNEALED, 'swarm.lambda1': 0 },
    },
    {
      name: 'swarm-constant-lambda1',
      title: 'Agent swarm: λ1 never anneals',
      description: 'Only change from swarm-annealed: the λ1 schedule is constant (λ1 stays 0.3).',
      settings: { ...ANNEALED, 'swarm.lambda1Schedule': 'constant' },
    },
    {
      name: 'swarm-scale',
      title: 'Agent swarm: 100 subtasks, up to 100 subagents',
      description: 'Changes from swarm-annealed: 100 subtasks (serial baseline near 1,500 steps), decision cap 500, 1 actor × 4 episodes per update.',
      settings: { ...ANNEALED, actors: 1, envsPerActor: 4, 'swarm.subtasks': 100, 'swarm.maxDecisions': 500, 'swarm.updates': 60, 'swarm.annealUpdates': 30 },
    },
  ],
});
