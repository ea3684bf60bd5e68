/**
 * The PARL reward, second version (Kimi K2.5 report, section 3), with the terms as the report means
 * them:
 *
 *   r_PARL = λ1 · r_parallel + λ2 · r_finish + r_perf
 *
 *   r_parallel = min(n_subagents, cap) / cap      bounded: past `cap` subagents nothing more is paid
 *   r_finish   = n_completed / n_assigned         when n_assigned > 0
 *              = 1 (NEUTRAL)                       when n_assigned = 0
 *
 * Neutral, precisely: an episode that assigns nothing gets the same λ2 term (λ2 · 1) as one whose
 * every assignment completes. So r_finish can only LOWER the reward of an episode that assigns work
 * and some of it fails; it never pays for assigning as such (the first version's r_finish = 0 at
 * n_assigned = 0 made it a second instantiation bonus). Equivalently, λ2 · (r_finish − 1) is a pure
 * failure penalty, 0 without assignments: the two forms differ by the constant λ2 for every
 * episode, which no advantage estimate sees. `rFinishDefined` says whether the ratio existed.
 *
 * Counts on the decomposition task (src/envs/swarm/decomposition.ts): n_subagents = subagents
 * created, n_assigned = items handed to them, n_completed = items whose claim came back and was
 * read into the context (timeouts, lost results and budget cuts are not completed).
 */
export interface ParlRewardInput {
  rPerf: number;
  nSubagents: number;
  nAssigned: number;
  nCompleted: number;
  lambda1: number;
  lambda2: number;
  /** Subagents at which r_parallel saturates. */
  parallelCap: number;
}

export interface ParlRewardResult {
  total: number;
  rPerf: number;
  rParallel: number;
  /** completed / assigned, or 1 (neutral) when nothing was assigned. */
  rFinish: number;
  rFinishDefined: boolean;
  shapedParallel: number;
  shapedFinish: number;
}

export function parlReward(input: ParlRewardInput): ParlRewardResult {
  const { rPerf, nSubagents, nAssigned, nCompleted, lambda1, lambda2, parallelCap } = input;
  const count = (name: string, v: number, max = Infinity) => {
    if (!(Number.isInteger(v) && v >= 0 && v <= max)) throw new Error(`parlReward: ${name} must be an integer in 0..${max}, got ${v}`);
  };
  count('nSubagents', nSubagents);
  count('nAssigned', nAssigned);
  count('nCompleted', nCompleted, nAssigned);
  if (nSubagents > nAssigned) throw new Error(`parlReward: ${nSubagents} subagents cannot have fewer items (${nAssigned}); each gets at least one`);
  if (!(Number.isFinite(parallelCap) && parallelCap > 0)) throw new Error(`parlReward: parallelCap must be positive, got ${parallelCap}`);
  for (const [name, v] of [['rPerf', rPerf], ['lambda1', lambda1], ['lambda2', lambda2]] as const) {
    if (!Number.isFinite(v)) throw new Error(`parlReward: ${name} must be finite, got ${v}`);
  }
  const rParallel = Math.min(nSubagents, parallelCap) / parallelCap;
  const rFinishDefined = nAssigned > 0;
  const rFinish = rFinishDefined ? nCompleted / nAssigned : 1;
  const shapedParallel = lambda1 * rParallel;
  const shapedFinish = lambda2 * rFinish;
  return { total: shapedParallel + shapedFinish + rPerf, rPerf, rParallel, rFinish, rFinishDefined, shapedParallel, shapedFinish };
}

/** The reward of a decomposition episode's outcome. */
export function parlRewardForOutcome(
  o: { rPerf: number; nSubagents: number; nAssigned: number; nCompleted: number },
  weights: { lambda1: number; lambda2: number; parallelCap: number },
): ParlRewardResult {
  return parlReward({ rPerf: o.rPerf, nSubagents: o.nSubagents, nAssigned: o.nAssigned, nCompleted: o.nCompleted, ...weights });
}
