/**
 * Presets of the agent swarm, each showing one part of the PARL story (Kimi K2.5 report,
 * section 3). All train the orchestrator with PPO on wide search with K = 32 items on 5x5 grids,
 * under the SAME task rules; only the λ schedules differ. The rules are chosen so that each
 * phenomenon of the report is possible and none is forced:
 *
 * - Direct work is reliable and can finish the whole task: up to 40 steps per direct run, 320
 *   orchestrator steps and 256 context units, while serial work on 32 items takes about 190 steps.
 *   It is only slow in critical steps. So doing everything itself is a sound (local) optimum.
 * - Subagents are fast in critical steps but each run is capped at 12 steps, so some time out
 *   and need a retry, and each result read back costs 4 context units (failed ones and
 *   duplicates too). Assigning without retrying, or spending context on duplicates, loses item-F1.
 * - r_perf is item-F1 × a soft-deadline factor (full credit at critical steps ≤ serial / 3,
 *   down to 0.8 at serial / 2 and beyond): parallelism has real value in r_perf, but only a plan
 *   that runs most items at once earns it. A serial orchestrator that gets every item right
 *   earns 0.8, and so does one that hands out a few items now and then: the serial start is a
 *   plateau of r_perf, a comfortable place to stay.
 * - The orchestrator starts as a single agent (its direct logit starts at +9, so about 1 episode
 *   in 50 tries any subagent at all), as the report's model did before PARL training. Whether it
 *   leaves that start is learned. Returns are undiscounted (src/engine/loops/swarm.ts), so
 *   nothing but the reward pays for fewer decisions.
 * - Over-spawn (2 subagents per ready subtask) is on the menu: it buys r_parallel and nothing
 *   else, and costs context that retries may need.
 */
import { defineAlgorithm } from '../algorithm';
import { choice, int, live, num } from '../settingKinds';

const SCHEDULES = ['linear', 'cosine', 'exponential', 'step', 'constant'] as const;
const CHECKPOINTS = ['small', 'large', 'small-u10', 'large-u50', 'large-u100'] as const;
const SIZES = ['easy', 'medium', 'hard'] as const;

const BASE = {
  actors: 2,
  envsPerActor: 8,
  'run.envSteps': 5_000_000,
  'run.targetReturn': 1000,
  'swarm.task': 'wideSearch',
  'swarm.items': 32,
  'swarm.difficulty': 'medium',
  'swarm.subagent': 'large',
  'swarm.maxMainSteps': 320,
  'swarm.subagentStepCap': 12,
  'swarm.directStepCap': 40,
  'swarm.contextBudget': 256,
  'swarm.contextPerResult': 4,
  'swarm.deadline': 1 / 3,
  'swarm.lateFloor': 0.8,
  'swarm.lateAt': 1 / 2,
  'swarm.initDirectBias': 9,
  'swarm.updates': 60,
  'swarm.annealUpdates': 30,
  'swarm.traceEvery': 10,
} as const;

/**
 * The agent swarm (Kimi K2.5's PARL): a PPO-trained orchestrator hands subtasks to frozen
 * subagents. Its loop builds the orchestrator and the subagents itself (src/swarm/).
 */
export const SWARM_PPO = defineAlgorithm({
  id: 'swarm-ppo',
  prefix: 'swarm',
  label: 'Agent swarm (PARL orchestrator, PPO)',
  family: 'swarm',
  loop: 'swarm',
  /** Orchestrator decisions per PPO batch: a few dozen stages per episode, one episode per env. */
  updateBatch: (s) => s.actors * s.envsPerActor * 32,
  actor: 'SwarmActor',
  network: null,
  settings: {
    task: choice('swarm task', 'Swarm task', ['wideSearch', 'taskGraph'] as const, 'wideSearch', 'Wide search (K independent items) or a task graph (subtasks with dependencies).'),
    items: int('swarm task', 'Items K', 1, 100, 32, 'Wide search: how many independent items to resolve.'),
    difficulty: choice('swarm task', 'Item difficulty', SIZES, 'medium', 'Wide search: grid side of each item search (3, 5 or 8).'),
    graphDifficulty: choice('swarm task', 'Graph size', SIZES, 'medium', 'Task graph: width, depth and work lengths of the generated DAGs.'),
    subagent: choice('swarm agents', 'Subagent checkpoint', CHECKPOINTS, 'large', 'Which frozen subagent network the orchestrator hands work to: small or large, and earlier snapshots of their training (u10, u50, u100 updates).'),
    curriculumSwitch: int('swarm agents', 'Switch to large at update', 0, 5_000, 0, 'Curriculum: from this update on the subagents are the large checkpoint (0 = never switch).'),
    subagentTemperature: num('swarm agents', 'Subagent temperature', 0.1, 2, 1, 'Subagents sample from softmax(logits / τ).'),
    maxMainSteps: int('swarm limits', 'Orchestrator step cap', 4, 1_500, 64, "Cap on the orchestrator's own steps (direct work steps, 1 per assign)."),
    subagentStepCap: int('swarm limits', 'Subagent step cap', 4, 200, 40, 'Steps one subagent (or one direct run) may take on its subtask.'),
    contextBudget: int('swarm limits', 'Context budget', 8, 5_000, 96, 'How much the orchestrator can read: its own work costs 1 per step, and each subagent result costs the "context per subagent result" setting.'),
    directStepCap: int('swarm limits', 'Direct step cap', 4, 200, 40, "Steps one direct run (the orchestrator's own work on a subtask) may take."),
    contextPerResult: num('swarm limits', 'Context per subagent result', 0, 50, 1, 'Context units each subagent result (duplicates and failures included) costs when read back.'),
    deadline: num('swarm limits', 'Soft deadline (× serial)', 0, 0.99, 0, 'r_perf = score × latency factor: full credit at critical steps ≤ deadline × serial baseline, falling linearly to the late floor at the late point (0 = no deadline).'),
    lateFloor: num('swarm limits', 'Late floor', 0, 1, 1, 'Latency factor of an episode at the late point or slower.'),
    lateAt: num('swarm limits', 'Late point (× serial)', 0.01, 1, 1, 'Critical steps (× serial baseline) where the latency factor reaches the late floor; at or below the deadline it is a hard deadline.'),
    maxSubagents: int('swarm limits', 'Subagents per stage', 1, 100, 100, 'Most subagents one assign stage may create.'),
    lambda1: live(num('swarm reward', 'λ1 start (parallel)', 0, 2, 0.5, 'Weight of r_parallel (instantiation reward) at the start of training.')),
    lambda1Schedule: live(choice('swarm reward', 'λ1 schedule', SCHEDULES, 'linear', 'How λ1 anneals to zero over the horizon (constant: never).')),
    lambda2: live(num('swarm reward', 'λ2 start (finish)', 0, 2, 0.5, 'Weight of r_finish (completed / assigned) at the start of training.')),
    lambda2Schedule: live(choice('swarm reward', 'λ2 schedule', SCHEDULES, 'linear', 'How λ2 anneals to zero over the horizon (constant: never).')),
    annealUpdates: int('swarm reward', 'Anneal horizon (updates)', 1, 5_000, 60, 'Orchestrator updates over which λ1 and λ2 reach zero.'),
    parallelCap: int('swarm reward', 'r_parallel cap', 1, 500, 64, 'r_parallel = min(subagents assigned, cap) / cap.'),
    updates: int('swarm training', 'Orchestrator updates', 1, 5_000, 120, 'PPO updates of the orchestrator (each on envsPerActor episodes per actor).'),
    lr: live(num('swarm training', 'Orchestrator learning rate', 1e-5, 0.1, 1e-3, 'Adam step size of the orchestrator PPO.', true)),
    entCoef: live(num('swarm training', 'Orchestrator entropy bonus', 0, 0.2, 0.01, 'Entropy weight in the orchestrator PPO loss.')),
    updateEpochs: int('swarm training', 'PPO epochs', 1, 20, 4, 'Passes over each batch of orchestrator decisions.'),
    initDirectBias: num('swarm training', 'Initial direct bias', 0, 10, 0, "Added to the direct action's initial logit: the orchestrator starts as a single agent doing the work itself."),
    hidden: int('swarm training', 'Orchestrator hidden units', 8, 256, 64, 'Width of the orchestrator policy and value networks (one hidden layer each).'),
    traceEvery: int('swarm training', 'Trace every N updates', 0, 1_000, 10, 'Emit an episode trace (with its serial twin) every N updates; 0 = never.'),
  },
  presets: [
    {
      name: 'swarm-annealed',
      title: 'Agent swarm: λ1, λ2 annealed to zero',
      description: 'Staged reward shaping as in the report: r_parallel and r_finish pull the orchestrator into using subagents, then anneal away so that r_perf (item-F1) takes over.',
      settings: { ...BASE, 'swarm.lambda1': 0.5, 'swarm.lambda1Schedule': 'linear', 'swarm.lambda2': 0.5, 'swarm.lambda2Schedule': 'linear' },
    },
    {
      name: 'swarm-no-shaping',
      title: 'Agent swarm: no shaping (λ1 = λ2 = 0)',
      description: 'Only r_perf from the start: nothing pays for trying subagents, so the orchestrator can settle into doing the work itself (serial collapse).',
      settings: { ...BASE, 'swarm.lambda1': 0, 'swarm.lambda1Schedule': 'constant', 'swarm.lambda2': 0, 'swarm.lambda2Schedule': 'constant' },
    },
    {
      name: 'swarm-no-anneal',
      title: 'Agent swarm: λ1 constant, no finish reward',
      description: 'r_parallel never anneals and nothing checks that subagents finish, so spawning more subagents than there is work (spurious parallelism) keeps paying.',
      settings: { ...BASE, 'swarm.lambda1': 1, 'swarm.lambda1Schedule': 'constant', 'swarm.lambda2': 0, 'swarm.lambda2Schedule': 'constant', 'swarm.parallelCap': 100 },
    },
    {
      name: 'swarm-curriculum',
      title: 'Agent swarm: small subagents first, then large',
      description: 'The orchestrator first learns with weak small subagents (slow, often wrong), then the frozen large checkpoint replaces them mid-run and the same orchestrator policy profits.',
      settings: {
        ...BASE,
        'swarm.subagent': 'small',
        'swarm.curriculumSwitch': 30,
        'swarm.lambda1': 0.5,
        'swarm.lambda1Schedule': 'linear',
        'swarm.lambda2': 0.5,
        'swarm.lambda2Schedule': 'linear',
      },
    },
    {
      name: 'swarm-taskgraph',
      title: 'Agent swarm: task graph (subtasks with dependencies)',
      description: 'The annealed schedule on generated task graphs (medium): only ready subtasks can be assigned, so the orchestrator must follow the dependencies and parallelise each layer of the DAG.',
      // A DAG's lower bound is near serial / 3.5 (medium graphs), so the deadline sits at serial / 2
      // and the ramp runs to the serial baseline; graph subtasks are longer walks, so subagents
      // get 24 steps.
      settings: {
        ...BASE,
        'swarm.task': 'taskGraph',
        'swarm.subagentStepCap': 24,
        'swarm.deadline': 1 / 2,
        'swarm.lateAt': 1,
        'swarm.lambda1': 0.5,
        'swarm.lambda1Schedule': 'linear',
        'swarm.lambda2': 0.5,
        'swarm.lambda2Schedule': 'linear',
      },
    },
  ],
});
