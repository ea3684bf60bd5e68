/**
 * The agent swarm's settings (`swarm.*`) read into the options of its parts: the task and its
 * limits, the λ schedules and the update plan, the orchestrator and its PPO, the frozen subagents.
 * Plain data only (no tfjs): the swarm loop and its pieces in src/swarm/ take these.
 */
import { resolveLimits } from '../envs/swarm/orchestration';
import type { SwarmTaskConfig } from '../swarm/tasks';
import type { LambdaSchedules } from '../swarm/types';
import type { ExperimentSettings } from './settings';

/** The task every episode is drawn from, with the orchestrator's limits. */
export function swarmTaskConfigFrom(s: ExperimentSettings): SwarmTaskConfig {
  return {
    kind: s['swarm.task'],
    numItems: s['swarm.items'],
    difficulty: s['swarm.difficulty'],
    graphDifficulty: s['swarm.graphDifficulty'],
    limits: resolveLimits({
      maxMainSteps: s['swarm.maxMainSteps'],
      subagentStepCap: s['swarm.subagentStepCap'],
      directStepCap: s['swarm.directStepCap'],
      contextBudget: s['swarm.contextBudget'],
      contextPerResult: s['swarm.contextPerResult'],
      maxSubagentsPerStage: s['swarm.maxSubagents'],
      deadline: s['swarm.deadline'],
      lateFloor: s['swarm.lateFloor'],
      lateAt: s['swarm.lateAt'],
    }),
  };
}

/** λ1 and λ2 anneal over the same horizon, counted in orchestrator updates. */
export function lambdaSchedulesFrom(s: ExperimentSettings): LambdaSchedules {
  const H = s['swarm.annealUpdates'];
  return {
    lambda1: { kind: s['swarm.lambda1Schedule'], start: s['swarm.lambda1'], horizon: H },
    lambda2: { kind: s['swarm.lambda2Schedule'], start: s['swarm.lambda2'], horizon: H },
  };
}

/** How many updates, on how many episodes, with which reward weights and traces. */
export interface SwarmTrainingOptions {
  updates: number;
  /** Episodes each SwarmActor runs per update. */
  episodesPerActor: number;
  /** A trace record every N updates (0 = never). */
  traceEvery: number;
  schedules: LambdaSchedules;
  /** r_parallel = min(n_assigned, cap) / cap. */
  parallelCap: number;
}

export function swarmTrainingOptionsFrom(s: ExperimentSettings): SwarmTrainingOptions {
  return {
    updates: s['swarm.updates'],
    episodesPerActor: s.envsPerActor,
    traceEvery: s['swarm.traceEvery'],
    schedules: lambdaSchedulesFrom(s),
    parallelCap: s['swarm.parallelCap'],
  };
}

/** The trained orchestrator: its network and its PPO. */
export interface SwarmOrchestratorOptions {
  hidden: number[];
  /** Added to the direct action's initial logit. */
  directBias: number;
  lr: number;
  entCoef: number;
  updateEpochs: number;
  seed: number;
}

export function swarmOrchestratorOptionsFrom(s: ExperimentSettings): SwarmOrchestratorOptions {
  return {
    hidden: [s['swarm.hidden']],
    directBias: s['swarm.initDirectBias'],
    lr: s['swarm.lr'],
    entCoef: s['swarm.entCoef'],
    updateEpochs: s['swarm.updateEpochs'],
    seed: s.seed,
  };
}

/** The frozen subagents: which checkpoint, how they sample, and the curriculum's switch to 'large'. */
export interface SwarmSubagentOptions {
  checkpoint: ExperimentSettings['swarm.subagent'];
  /** Subagents sample from softmax(logits / τ). */
  temperature: number;
  /** From this update on the subagents are the large checkpoint (0 = never switch). */
  switchToLargeAt: number;
}

export function swarmSubagentOptionsFrom(s: ExperimentSettings): SwarmSubagentOptions {
  return {
    checkpoint: s['swarm.subagent'],
    temperature: s['swarm.subagentTemperature'],
    switchToLargeAt: s['swarm.curriculumSwitch'],
  };
}
