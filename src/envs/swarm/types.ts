/**
 * Plain data shapes of the swarm tasks and the orchestration simulator. They live here, in the env
 * layer, because the simulator (an env) produces them and envs may import nothing above them;
 * `src/swarm/types.ts` re-exports them for the swarm layer. Everything here is JSON-serialisable.
 */
import type { ItemProblem } from './itemSearch';

/** How one run of a subtask (by a subagent, or by the orchestrator itself) ended. */
export type RunOutcome =
  /** The worker claimed the right cell: the subtask is complete. */
  | 'done'
  /** The worker claimed a wrong cell (its answer is wrong) or gave no answer. */
  | 'failed'
  /** The run hit its step cap (or the orchestrator ran out of steps or context mid-run). */
  | 'timeout';

export interface SubtaskRun {
  subtaskId: number;
  /** Steps the worker took on the subtask's item env. */
  steps: number;
  outcome: RunOutcome;
  /** Cell index (y * gridSize + x) the worker claimed, or null when it claimed none. */
  answer: number | null;
  /**
   * A spurious subagent: the orchestrator asked for more subagents than it had ready subtasks, so
   * this one got a duplicate of another subtask. Its work runs (and costs steps) but its result is
   * discarded: the outcome is always 'failed' and it never completes anything.
   */
  duplicate?: boolean;
}

/**
 * One orchestrator stage, the unit of critical steps:
 * it costs `mainSteps + max(subagentSteps)` critical steps (max over an empty list = 0).
 */
export interface Stage {
  /** The orchestrator's own steps in the stage (1 for assign and finish; the work steps for direct). */
  mainSteps: number;
  /** Steps of each subagent that ran in the stage. */
  subagentSteps: number[];
}

export type StageAction = 'direct' | 'assign' | 'finish';

/** One stage as the simulator recorded it (the per-stage entry of an episode trace). */
export interface StageRecord {
  index: number;
  action: StageAction;
  /** The subtasks the stage worked on (one for direct, the assigned ones for assign, none for finish). */
  subtaskIds: number[];
  /** One record per subagent, in the order of `subtaskIds` (empty unless `action` is 'assign'). */
  subagents: SubtaskRun[];
  /** The orchestrator's own run on a subtask (only when `action` is 'direct'). */
  direct: SubtaskRun | null;
  mainSteps: number;
  /** Critical steps of stages 0..index inclusive. */
  criticalStepsSoFar: number;
  /** Context units used by the end of this stage. */
  contextUsedSoFar: number;
}

/** What the simulator knows at the end of an episode; `buildEpisodeTrace` (src/swarm/trace.ts) adds totals. */
export interface EpisodeLog {
  task: 'wideSearch' | 'taskGraph';
  numSubtasks: number;
  stages: StageRecord[];
  /** Subtask runs handed to subagents (retries count again). Direct runs are not assignments. */
  nAssigned: number;
  /** Subagent runs that ended 'done'. */
  nCompleted: number;
  /** Runs the orchestrator did itself, and how many of those ended 'done'. */
  nDirect: number;
  nDirectCompleted: number;
  /** Subtasks complete at the end (by anyone). */
  nSubtasksDone: number;
  /** r_perf: `quality` × `latencyFactor` (just `quality` when the limits set no deadline). */
  rPerf: number;
  /** Task outcome (item-F1 for wide search, completed fraction for the task graph). */
  quality: number;
  /** The soft-deadline factor of the episode's critical steps (1 with no deadline). */
  latencyFactor: number;
  /** The task's serial baseline and lower bound, in worker steps (no orchestration overhead). */
  serialBaseline: number;
  lowerBound: number | null;
  contextBudget: number;
  contextUsed: number;
  /** Cap on the orchestrator's steps in direct and assign stages. */
  mainStepCap: number;
  /** The orchestrator's steps, finish included (so at most mainStepCap + 1). */
  mainStepsUsed: number;
  finished: boolean;
  /** True when the episode ended because no stage but finish was possible (steps or context spent). */
  budgetExhausted: boolean;
}

/** One subtask of a swarm task: its small problem and the subtasks whose output it needs. */
export interface SubtaskSpec {
  id: number;
  /** Ids of subtasks that must be done before this one can start (empty for wide search). */
  deps: number[];
  /** The hidden item the worker must find (its `target` is the answer). */
  problem: ItemProblem;
  /** Fewest steps that solve the problem (walk to the target, then claim). */
  minSteps: number;
}

/** The interface both swarm tasks implement so the orchestration simulator can run them. */
export interface SwarmTask {
  readonly kind: 'wideSearch' | 'taskGraph';
  readonly subtasks: readonly SubtaskSpec[];
  /** Fewest worker steps with no parallelism: the sum of every subtask's `minSteps`. */
  readonly serialBaseline: number;
  /** Fewest worker steps on the longest chain of dependent work (null if the task defines none). */
  readonly lowerBound: number | null;
  /**
   * r_perf of an episode. `reported` maps subtask id to the answer the orchestrator reports;
   * `done` lists the subtasks complete at the end.
   */
  performance(reported: ReadonlyMap<number, number>, done: ReadonlySet<number>): number;
}
