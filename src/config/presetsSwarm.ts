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
import type { Preset } from './presets';
import type { ExperimentSettings } from './settings';

const BASE: Partial<ExperimentSettings> = {
  algorithm: 'swarm-ppo',
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
};

export const SWARM_PRESETS: readonly Preset[] = [
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
];
