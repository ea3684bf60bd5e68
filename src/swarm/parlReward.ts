/**
 * The PARL reward (Kimi K2.5 report, section 3):
 *
 *   r_PARL = λ1 · r_parallel + λ2 · r_finish + r_perf
 *
 *   r_parallel = min(n_assigned, cap) / cap   instantiation reward, bounded so that spawning
 *                                              without limit pays nothing more (fights serial collapse)
 *   r_finish   = n_completed / n_assigned      subagent finish rate, 0 when nothing was assigned
 *                                              (fights spurious parallelism)
 *
 * λ1 and λ2 are annealed to zero during training (src/swarm/schedules.ts).
 */
import type { EpisodeLog, ParlRewardInput, ParlRewardResult } from './types';

export function parlReward(input: ParlRewardInput): ParlRewardResult {
  const { rPerf, nAssigned, nCompleted, lambda1, lambda2, parallelCap } = input;
  if (!Number.isInteger(nAssigned) || nAssigned < 0) throw new Error(`parlReward: nAssigned must be a non-negative integer, got ${nAssigned}`);
  if (!Number.isInteger(nCompleted) || nCompleted < 0 || nCompleted > nAssigned) {
    throw new Error(`parlReward: nCompleted must be an integer in 0..nAssigned (${nAssigned}), got ${nCompleted}`);
  }
  if (!(Number.isFinite(parallelCap) && parallelCap > 0)) throw new Error(`parlReward: parallelCap must be positive, got ${parallelCap}`);
  for (const [name, v] of [['rPerf', rPerf], ['lambda1', lambda1], ['lambda2', lambda2]] as const) {
    if (!Number.isFinite(v)) throw new Error(`parlReward: ${name} must be finite, got ${v}`);
  }
  const rParallel = Math.min(nAssigned, parallelCap) / parallelCap;
  const rFinish = nAssigned > 0 ? nCompleted / nAssigned : 0;
  const shapedParallel = lambda1 * rParallel;
  const shapedFinish = lambda2 * rFinish;
  return { total: shapedParallel + shapedFinish + rPerf, rPerf, rParallel, rFinish, shapedParallel, shapedFinish };
}

/** The PARL reward of a simulated episode (counts only subagent assignments, not direct work). */
export function parlRewardForEpisode(
  log: Pick<EpisodeLog, 'rPerf' | 'nAssigned' | 'nCompleted'>,
  weights: { lambda1: number; lambda2: number; parallelCap: number },
): ParlRewardResult {
  return parlReward({ rPerf: log.rPerf, nAssigned: log.nAssigned, nCompleted: log.nCompleted, ...weights });
}
