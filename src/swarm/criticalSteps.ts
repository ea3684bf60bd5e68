/**
 * Critical steps, the report's latency measure (section 3):
 *
 *   CriticalSteps = Σ_t ( S_main(t) + max_i S_sub,i(t) )
 *
 * summed over the orchestrator's stages t, where S_main(t) is the orchestrator's own steps in the
 * stage and the max runs over the subagents of that stage (0 when there are none). Subagents of
 * one stage run concurrently, so only the slowest one adds latency. Beside it: total steps (every
 * step of every agent, the compute bill), the serial baseline (the same work done with no
 * subagents) and, where the task has one, the lower bound (the longest chain of dependent work).
 */
import type { LatencyStats, Stage } from './types';

function checkStages(stages: readonly Stage[]): void {
  stages.forEach((s, t) => {
    if (!(Number.isFinite(s.mainSteps) && s.mainSteps >= 0)) {
      throw new Error(`criticalSteps: stage ${t} has mainSteps ${s.mainSteps}; steps must be non-negative`);
    }
    for (const v of s.subagentSteps) {
      if (!(Number.isFinite(v) && v >= 0)) throw new Error(`criticalSteps: stage ${t} has a subagent with ${v} steps; steps must be non-negative`);
    }
  });
}

/** Steps of the slowest subagent of a stage (0 with no subagents). */
export function stageCriticalSubSteps(stage: Stage): number {
  let m = 0;
  for (const v of stage.subagentSteps) if (v > m) m = v;
  return m;
}

/** Σ_t (S_main(t) + max_i S_sub,i(t)). */
export function criticalSteps(stages: readonly Stage[]): number {
  checkStages(stages);
  let sum = 0;
  for (const s of stages) sum += s.mainSteps + stageCriticalSubSteps(s);
  return sum;
}

/** Every step of every agent: Σ_t (S_main(t) + Σ_i S_sub,i(t)). */
export function totalSteps(stages: readonly Stage[]): number {
  checkStages(stages);
  let sum = 0;
  for (const s of stages) {
    sum += s.mainSteps;
    for (const v of s.subagentSteps) sum += v;
  }
  return sum;
}

export function episodeLatencyStats(
  stages: readonly Stage[],
  options: { serialBaseline: number; lowerBound?: number | null },
): LatencyStats {
  const critical = criticalSteps(stages);
  const total = totalSteps(stages);
  let launched = 0;
  let subagents = 0;
  let maxParallelism = 0;
  for (const s of stages) {
    const n = s.subagentSteps.length;
    subagents += n;
    if (n > 0) launched += 1;
    maxParallelism = Math.max(maxParallelism, n);
  }
  return {
    criticalSteps: critical,
    totalSteps: total,
    serialBaseline: options.serialBaseline,
    lowerBound: options.lowerBound ?? null,
    speedup: critical > 0 ? options.serialBaseline / critical : 0,
    numStages: stages.length,
    numParallelStages: launched,
    avgParallelismLaunching: launched > 0 ? subagents / launched : 0,
    avgParallelismAllStages: stages.length > 0 ? subagents / stages.length : 0,
    maxParallelism,
  };
}
