/**
 * Settings of the agent swarm (Kimi K2.5's PARL): the task, the subagents, the orchestrator's
 * limits, the PARL reward and the λ annealing schedules. Keys start with `swarm.`.
 */
import type { Setting } from './settingKinds';
import { choice, int, num } from './settingKinds';

const SCHEDULES = ['linear', 'cosine', 'exponential', 'step', 'constant'] as const;
const CHECKPOINTS = ['small', 'large', 'small-u10', 'large-u50', 'large-u100'] as const;
const SIZES = ['easy', 'medium', 'hard'] as const;

export const SWARM_SETTINGS = {
  'swarm.task': choice('swarm task', 'Swarm task', ['wideSearch', 'taskGraph'] as const, 'wideSearch', 'Wide search (K independent items) or a task graph (subtasks with dependencies).'),
  'swarm.items': int('swarm task', 'Items K', 1, 100, 32, 'Wide search: how many independent items to resolve.'),
  'swarm.difficulty': choice('swarm task', 'Item difficulty', SIZES, 'medium', 'Wide search: grid side of each item search (3, 5 or 8).'),
  'swarm.graphDifficulty': choice('swarm task', 'Graph size', SIZES, 'medium', 'Task graph: width, depth and work lengths of the generated DAGs.'),
  'swarm.subagent': choice('swarm agents', 'Subagent checkpoint', CHECKPOINTS, 'large', 'The frozen subagent policy (public/subagents/<name>.ckpt, made by npm run subagents).'),
  'swarm.curriculumSwitch': int('swarm agents', 'Switch to large at update', 0, 5_000, 0, 'Curriculum: from this update on the subagents are the large checkpoint (0 = never switch).'),
  'swarm.subagentTemperature': num('swarm agents', 'Subagent temperature', 0.1, 2, 1, 'Subagents sample from softmax(logits / τ).'),
  'swarm.maxMainSteps': int('swarm limits', 'Orchestrator step cap', 4, 1_500, 64, "Cap on the orchestrator's own steps (direct work steps, 1 per assign)."),
  'swarm.subagentStepCap': int('swarm limits', 'Subagent step cap', 4, 200, 40, 'Steps one subagent (or one direct run) may take on its subtask.'),
  'swarm.contextBudget': int('swarm limits', 'Context budget', 8, 5_000, 96, 'Orchestrator context: direct work uses 1 per step, each subagent result swarm.contextPerResult.'),
  'swarm.directStepCap': int('swarm limits', 'Direct step cap', 4, 200, 40, "Steps one direct run (the orchestrator's own work on a subtask) may take."),
  'swarm.contextPerResult': num('swarm limits', 'Context per subagent result', 0, 50, 1, 'Context units each subagent result (duplicates and failures included) costs when read back.'),
  'swarm.deadline': num('swarm limits', 'Soft deadline (× serial)', 0, 0.99, 0, 'r_perf = score × latency factor: full credit at critical steps ≤ deadline × serial baseline, falling linearly to the late floor at the late point (0 = no deadline).'),
  'swarm.lateFloor': num('swarm limits', 'Late floor', 0, 1, 1, 'Latency factor of an episode at the late point or slower.'),
  'swarm.lateAt': num('swarm limits', 'Late point (× serial)', 0.01, 1, 1, 'Critical steps (× serial baseline) where the latency factor reaches the late floor; at or below the deadline it is a hard deadline.'),
  'swarm.maxSubagents': int('swarm limits', 'Subagents per stage', 1, 100, 100, 'Most subagents one assign stage may create.'),
  'swarm.lambda1': num('swarm reward', 'λ1 start (parallel)', 0, 2, 0.5, 'Weight of r_parallel (instantiation reward) at the start of training.'),
  'swarm.lambda1Schedule': choice('swarm reward', 'λ1 schedule', SCHEDULES, 'linear', 'How λ1 anneals to zero over the horizon (constant: never).'),
  'swarm.lambda2': num('swarm reward', 'λ2 start (finish)', 0, 2, 0.5, 'Weight of r_finish (completed / assigned) at the start of training.'),
  'swarm.lambda2Schedule': choice('swarm reward', 'λ2 schedule', SCHEDULES, 'linear', 'How λ2 anneals to zero over the horizon (constant: never).'),
  'swarm.annealUpdates': int('swarm reward', 'Anneal horizon (updates)', 1, 5_000, 60, 'Orchestrator updates over which λ1 and λ2 reach zero.'),
  'swarm.parallelCap': int('swarm reward', 'r_parallel cap', 1, 500, 64, 'r_parallel = min(subagents assigned, cap) / cap.'),
  'swarm.updates': int('swarm training', 'Orchestrator updates', 1, 5_000, 120, 'PPO updates of the orchestrator (each on envsPerActor episodes per actor).'),
  'swarm.lr': num('swarm training', 'Orchestrator learning rate', 1e-5, 0.1, 1e-3, 'Adam step size of the orchestrator PPO.', true),
  'swarm.entropyCoef': num('swarm training', 'Orchestrator entropy bonus', 0, 0.2, 0.01, 'Entropy weight in the orchestrator PPO loss.'),
  'swarm.epochs': int('swarm training', 'PPO epochs', 1, 20, 4, 'Passes over each batch of orchestrator decisions.'),
  'swarm.initDirectBias': num('swarm training', 'Initial direct bias', 0, 10, 0, "Added to the direct action's initial logit: the orchestrator starts as a single agent doing the work itself."),
  'swarm.hidden': int('swarm training', 'Orchestrator hidden units', 8, 256, 64, 'Width of the orchestrator policy and value networks (one hidden layer each).'),
  'swarm.traceEvery': int('swarm training', 'Trace every N updates', 0, 1_000, 10, 'Emit an episode trace (with its serial twin) every N updates; 0 = never.'),
} as const satisfies Record<string, Setting>;
