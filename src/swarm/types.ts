/**
 * Shared types of the swarm layer. The episode data shapes (Stage, StageRecord, SubtaskRun, ...)
 * are defined in the env layer, where the orchestration simulator produces them, and re-exported
 * here so swarm code has one place to import from.
 */
export type {
  Stage,
  StageAction,
  StageRecord,
  SubtaskRun,
  RunOutcome,
  EpisodeLog,
  SubtaskSpec,
  SwarmTask,
} from '../envs/swarm/types';

export type ScheduleKind = 'linear' | 'cosine' | 'exponential' | 'step' | 'constant';

/** An annealing schedule for λ1 or λ2 (see src/swarm/schedules.ts for the formulas). */
export interface ScheduleSpec {
  kind: ScheduleKind;
  /** Value at step 0. */
  start: number;
  /** Steps to reach zero (> 0; ignored by 'constant'). */
  horizon: number;
  /** 'exponential': decay rate k > 0 (default 5). */
  rate?: number;
  /** 'step': number of equal stages before the horizon, halving each stage (default 4). */
  stages?: number;
}

export interface SchedulePoint {
  step: number;
  value: number;
}

/** λ1 (instantiation reward) and λ2 (finish reward) annealed over training. */
export interface LambdaSchedules {
  lambda1: ScheduleSpec;
  lambda2: ScheduleSpec;
}

export interface LatencyStats {
  /** Σ_t (S_main(t) + max_i S_sub,i(t)). */
  criticalSteps: number;
  /** Every step of every agent: Σ_t (S_main(t) + Σ_i S_sub,i(t)). */
  totalSteps: number;
  serialBaseline: number;
  lowerBound: number | null;
  /** serialBaseline / criticalSteps (0 when criticalSteps is 0). */
  speedup: number;
  numStages: number;
  /** Stages that launched at least one subagent. */
  numParallelStages: number;
  /** Mean subagents per stage, over the stages that launched any (0 if none did). */
  avgParallelismLaunching: number;
  /** Mean subagents per stage, over all stages. */
  avgParallelismAllStages: number;
  /** Most subagents in one stage. */
  maxParallelism: number;
}
