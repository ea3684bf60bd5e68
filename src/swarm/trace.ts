/**
 * Episode traces: what happened in one orchestrated episode, stage by stage, with the totals and
 * the critical path. Plain data (JSON-serialisable), built from the simulator's `EpisodeLog`.
 */
import { episodeLatencyStats, stageCriticalSubSteps } from './criticalSteps';
import type { CriticalPathEntry, EpisodeTrace } from '../runs/traces';
import type { EpisodeLog, Stage, StageRecord } from './types';

export type { CriticalPathEntry, EpisodeTotals, EpisodeTrace } from '../runs/traces';

/** The stages of a trace in the form criticalSteps() takes. */
export function stagesFromRecords(records: readonly StageRecord[]): Stage[] {
  return records.map((r) => ({ mainSteps: r.mainSteps, subagentSteps: r.subagents.map((s) => s.steps) }));
}

function criticalEntry(r: StageRecord): CriticalPathEntry {
  const stage: Stage = { mainSteps: r.mainSteps, subagentSteps: r.subagents.map((s) => s.steps) };
  const slowest = stageCriticalSubSteps(stage);
  const steps = r.mainSteps + slowest;
  if (r.subagents.length > 0) {
    const who = r.subagents.find((s) => s.steps === slowest);
    return { stage: r.index, action: r.action, setBy: 'subagent', subtaskId: who ? who.subtaskId : null, steps };
  }
  return { stage: r.index, action: r.action, setBy: 'orchestrator', subtaskId: r.direct ? r.direct.subtaskId : null, steps };
}

export function buildEpisodeTrace(log: EpisodeLog): EpisodeTrace {
  const stages = stagesFromRecords(log.stages);
  const stats = episodeLatencyStats(stages, { serialBaseline: log.serialBaseline, lowerBound: log.lowerBound });
  const last = log.stages.length > 0 ? log.stages[log.stages.length - 1].criticalStepsSoFar : 0;
  if (last !== stats.criticalSteps) {
    throw new Error(`buildEpisodeTrace: the log's running critical steps (${last}) disagree with criticalSteps() (${stats.criticalSteps})`);
  }
  const { serialBaseline: _s, lowerBound: _l, ...latency } = stats;
  return {
    task: log.task,
    numSubtasks: log.numSubtasks,
    finished: log.finished,
    stages: log.stages.map((r) => ({
      ...r,
      subtaskIds: [...r.subtaskIds],
      subagents: r.subagents.map((s) => ({ ...s })),
      direct: r.direct ? { ...r.direct } : null,
    })),
    totals: {
      ...latency,
      serialBaseline: log.serialBaseline,
      lowerBound: log.lowerBound,
      rPerf: log.rPerf,
      nAssigned: log.nAssigned,
      nCompleted: log.nCompleted,
      finishRate: log.nAssigned > 0 ? log.nCompleted / log.nAssigned : 0,
      nDirect: log.nDirect,
      nDirectCompleted: log.nDirectCompleted,
      nSubtasksDone: log.nSubtasksDone,
      contextUsed: log.contextUsed,
      contextBudget: log.contextBudget,
      mainStepsUsed: log.mainStepsUsed,
      mainStepCap: log.mainStepCap,
      budgetExhausted: log.budgetExhausted,
    },
    criticalPath: log.stages.map(criticalEntry),
  };
}
