/**
 * The trace record a run keeps of a swarm episode, as plain JSON-serialisable data: the
 * decomposition trace (stages, subagents, checks, retries). The swarm builds it
 * (src/swarm/swarmTrace.ts); runs keep it and the timeline draws it.
 */
import type { DecompStageKind, DecompStageRecord, ItemOutcome } from '../envs/swarm/decomposition';

export type RetryReason = 'refuted' | 'failed' | 'unchecked';

export interface SwarmTraceSubagent {
  /** Creation order over the episode (0, 1, ...). */
  id: number;
  kind: string;
  stage: number;
  start: number;
  end: number;
  items: { subtask: number; outcome: ItemOutcome }[];
}

/** One orchestrator stage: launching a plan, working directly, checking a claim, or finishing. */
export interface SwarmTraceStage {
  index: number;
  kind: DecompStageKind;
  start: number;
  /** The orchestrator's own steps end at start + mainSteps; the stage ends at `end`. */
  mainSteps: number;
  end: number;
  /** direct / check: the subtask. */
  subtask: number | null;
  /** direct: how it ended; check: 'right' or 'wrong'. */
  result: DecompStageRecord['result'];
}

export interface SwarmTraceCheck {
  stage: number;
  subtask: number;
  /** When the check ended (its result is known then). */
  at: number;
  passed: boolean;
  /** The subagent whose claim was checked, or null (the orchestrator's own claim, or not found). */
  subagent: number | null;
  /** Kind of the agent that made the checked claim ('orchestrator' for direct work), or null if unknown. */
  claimBy: string | null;
}

export interface SwarmTraceRetry {
  stage: number;
  subtask: number;
  reason: RetryReason;
  /** The subagent given it again, or null when the orchestrator did it itself. */
  subagent: number | null;
  /** When the new attempt started. */
  at: number;
}

export interface SwarmTraceTotals {
  criticalSteps: number;
  criticalBudget: number;
  serialBaseline: number;
  lowerBound: number;
  totalCompute: number;
  rPerf: number;
  contextUsed: number;
  contextBudget: number;
  endReason: 'finish' | 'budget';
  nSubagents: number;
  nChecks: number;
  nChecksWrong: number;
}

export interface SwarmTrace {
  numSubtasks: number;
  /** The subagent kinds the orchestrator could create. */
  kinds: string[];
  /** How the orchestrator's actions were drawn: sampled from π, or its greedy (per-type argmax) choice. */
  mode: 'sampled' | 'greedy';
  taskSeed: number;
  decisions: number;
  /** Ended by the decision cap. */
  capped: boolean;
  stages: SwarmTraceStage[];
  subagents: SwarmTraceSubagent[];
  checks: SwarmTraceCheck[];
  retries: SwarmTraceRetry[];
  totals: SwarmTraceTotals;
  /** Entries past the caps were left out (the totals still cover the whole episode). */
  truncated: boolean;
}
