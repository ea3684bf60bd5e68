/**
 * The learner of the second swarm: the set-policy orchestrator (src/swarm/setPolicy.ts) trained
 * with the engine's PPO (src/algorithms/ppo.ts, through the Agent), the actors that own the
 * decomposition episodes, and the central inference that answers them (src/swarm/decompRollouts.ts).
 *
 * Each finished episode is paid the PARL reward (src/swarm/parlReward.ts) at its last decision:
 *   r = λ1(t)·r_parallel + λ2(t)·r_finish + r_perf,   λi(t) = scheduleValue(schedule_i, t)
 * with t the number of updates done. No discount (γ = 1: a discount per
 * decision would pay for fewer tool calls, a hidden shaping term). Advantages are GAE over the
 * episode's decisions t = 0..T−1, with the reward r only at the last one:
 *   δ_t = V_old(s_{t+1}) − V_old(s_t)  (t < T−1),   δ_{T−1} = r − V_old(s_{T−1})
 *   A_t = δ_t + λ·A_{t+1},   R_t = A_t + V_old(s_t)       (the value target)
 * λ = 1 is Monte Carlo (A_t = r − V_old(s_t), R_t = r): unbiased, but every decision of a
 * ~100-decision episode shares one noisy return. λ < 1 credits a decision with the change of the
 * value estimate around it (less variance, bias while V is poor). Episodes have different
 * lengths; each is its own recursion (no decision borrows from another episode).
 *
 * Group baseline (spec.episodesPerTask = n > 1): n episodes of an update play the same task
 * (same seed, so the same subtasks and, for the same attempts, the same draws). Then the baseline
 * of episode e is the mean return of the OTHER n − 1 runs of its task (leave-one-out, as RLOO and
 * the group baselines of LLM RL):
 *   A_t = r_e − (Σ_{e' in group} r_e' − r_e) / (n − 1),   R_t = r_e
 * which removes how hard the task was from the advantage without a learned value (V is still
 * trained on R_t, for the value loss).
 * Per-decision credit (credit 'decision'): the reward is split over the decisions that produced it
 * (decisionCredit.ts: r_t with Σ_t r_t = r; each right submitted claim's F1 share to the decision
 * that first gave that answer, each completed item's r_finish share to the decision that assigned
 * it, each subagent's r_parallel share to the decision that created it). Work planned for a launch
 * happens at the launch, so credit moves in time by STAGE: a stage is a launch with the
 * assignments it ran (the decision cap's launch is a stage at the end, index T), or one direct,
 * check or finish decision alone. With stage(t) the stage of decision t and P its assignments:
 *   ρ_s = Σ_{t: stage(t) = s} r_t                  (the stage's reward, at the stage's index s)
 *   G_t = Σ_{s >= stage(t)} ρ_s  +  d_t,   d_t = r_t − mean_{j in P} r_j  for an assignment, else 0
 * The first part is the reward to go of the stage (Σ_s ρ_s = r: decisions of the first stage get
 * the episode's return); d_t, zero on average over a stage's assignments, ranks them within the
 * stage: a duplicate that added nothing, or a result lost to the context, falls below the stage's
 * mean, an item that added a right claim rises above it, and the launch gets the stage's mean (a
 * plan is not worth more or less for launching it now). The baseline is the group's at the same
 * decision index, from the other runs of the task:
 *   A_t = G_t − mean_{e' ≠ e in group} G_{e'}(t)   (G_{e'}(t) = 0 past the end of e'),   R_t = G_t
 * (any function of the other, independent runs is a valid baseline), or without groups GAE over
 * the per-decision returns, with r'_t = G_t − G_{t+1}: δ_t = r'_t + V_old(s_{t+1}) − V_old(s_t).
 * Stage credit with a learned critic (credit 'stage-critic'): the same G_t, but the baseline is
 * the value head's estimate of the state the decision was taken in, groups or not (the group's
 * G at the same decision INDEX compares states of unrelated runs):
 *   r'_t = G_t − G_{t+1}  (G_T = 0),   δ_t = r'_t + V_old(s_{t+1}) − V_old(s_t)  (V_old(s_T) = 0)
 *   A_t = δ_t + λ·A_{t+1},   R_t = A_t + V_old(s_t)
 * (Σ_{k≥t} r'_k = G_t, so λ = 1 gives A_t = G_t − V_old(s_t), R_t = G_t; V is trained on R_t.)
 * With firstStageBaseline 'group', the decisions of the episode's first stage (the lowest stage
 * index s_0 = min_t stage(t); their G_t = r + d_t) are judged against the leave-one-out group mean
 * of the final return instead, since they all start from the task's one initial state:
 *   A_t = G_t − (Σ_{e' in group} r_e' − r_e) / (n − 1)   for stage(t) = s_0   (R_t as above)
 * PPO then normalises A per minibatch and clips the ratio (see ppo.ts).
 */
import { Agent } from '../core/agent';
import { Rng, deriveSeed } from '../core/rng';
import { Ppo, type PpoBatch } from '../algorithms/ppo';
import type { SwarmEpisodeStats } from '../runs/records';
import { DecompActor, makeDecompSim, type DecompEpisodeOutcome, type DecompPending, type DecompTaskSpec } from './decompActor';
import { collectDecompRollouts, SetInference, type DecisionMode, type DecompActors, type DecompEpisode, type DecompRollouts } from './decompRollouts';
import { decisionRewards, endReward, PARALLEL_CREDITS, PERF_CREDITS, type CreditWeights, type ParallelCredit, type PerfCredit } from './decisionCredit';
import { parlRewardForOutcome } from './parlReward';
import { lambdasAt } from './schedules';
import { SetPolicyModel, SP_OBS_DIM, SP_MAX_KINDS, SP_ROWS, activeRowsOf } from './setPolicy';
import { DEMO_REHEARSAL, DemoRehearsal, type Demonstrations } from './demoStart';
import type { LambdaSchedules, ScheduleSpec } from './types';

/** Zeroed rows for B decisions of an observation of obsDim floats. */
function emptyDecisionRows(B: number, obsDim: number) {
  return {
    obs: new Float32Array(B * obsDim),
    actions: new Int32Array(B),
    logProbs: new Float32Array(B),
    values: new Float32Array(B),
    advantages: new Float32Array(B),
    returns: new Float32Array(B),
  };
}

export interface DecompTrainingOptions {
  spec: DecompTaskSpec;
  seed: number;
  hidden: number;
  /** Initial bias of the 'direct' type logit (see setPolicy.ts). */
  startBias: number;
  lr: number;
  entCoef: number;
  updateEpochs: number;
  numMinibatches: number;
  updates: number;
  actors: number;
  episodesPerActor: number;
  lambda1: ScheduleSpec;
  lambda2: ScheduleSpec;
  parallelCap: number;
  /** GAE λ over an episode's decisions (default 1: Monte Carlo returns). */
  gaeLambda?: number;
  /**
   * How the episode's reward is credited to its decisions (default DEFAULT_DECOMP_CREDIT,
   * 'stage-critic'; 'episode': the whole return at the last decision; 'decision': per-decision credit
   * against the group; see the file comment and decisionCredit.ts).
   */
  credit?: DecompCreditMode;
  /** With credit 'stage-critic': the baseline of the first stage's decisions (default 'value', see the file comment). */
  firstStageBaseline?: FirstStageBaseline;
  /** PPO's value-loss weight (default PPO_DEFAULTS.vfCoef). */
  vfCoef?: number;
  /** With per-decision or stage credit: who gets r_parallel's shares (default 'creator'; see decisionCredit.ts). */
  parallelCredit?: ParallelCredit;
  /** With per-decision or stage credit: how r_perf is split (default 'right-claims'; see decisionCredit.ts). */
  perfCredit?: PerfCredit;
}

export const DECOMP_CREDIT_MODES = ['episode', 'decision', 'stage-critic'] as const;
export type DecompCreditMode = (typeof DECOMP_CREDIT_MODES)[number];
/** The credit when none is named: adopted on seeds 1-5 (median eval r_perf 0.719 -> 0.833, BENCHMARKS.md). */
export const DEFAULT_DECOMP_CREDIT: DecompCreditMode = 'stage-critic';
export const FIRST_STAGE_BASELINES = ['value', 'group'] as const;
export type FirstStageBaseline = (typeof FIRST_STAGE_BASELINES)[number];

/** Rejects credit settings that do not name a mode, or that the mode cannot use, with a message saying which. */
export function validateCreditOptions(o: Pick<DecompTrainingOptions, 'credit' | 'firstStageBaseline' | 'vfCoef' | 'gaeLambda' | 'spec' | 'parallelCredit' | 'perfCredit'>): void {
  const credit: unknown = o.credit ?? DEFAULT_DECOMP_CREDIT;
  if (!(DECOMP_CREDIT_MODES as readonly unknown[]).includes(credit)) throw new Error(`swarm-v2: credit must be one of ${DECOMP_CREDIT_MODES.join(', ')}, got ${String(credit)}`);
  if (o.firstStageBaseline !== undefined) {
    if (!(FIRST_STAGE_BASELINES as readonly unknown[]).includes(o.firstStageBaseline)) throw new Error(`swarm-v2: firstStageBaseline must be one of ${FIRST_STAGE_BASELINES.join(', ')}, got ${String(o.firstStageBaseline)}`);
    if (credit !== 'stage-critic') throw new Error(`swarm-v2: firstStageBaseline applies only to credit 'stage-critic', the credit is '${String(credit)}'`);
    if (o.firstStageBaseline === 'group' && (o.spec.episodesPerTask ?? 1) < 2) throw new Error('swarm-v2: firstStageBaseline group needs episodesPerTask >= 2 (runs of the same task to compare)');
  }
  if (o.vfCoef !== undefined && !(Number.isFinite(o.vfCoef) && o.vfCoef > 0)) throw new Error(`swarm-v2: vfCoef must be a positive number, got ${o.vfCoef}`);
  // How the per-decision shares are split: only per-decision or stage credit has shares to split.
  const splits: [string, unknown, readonly string[]][] = [
    ['parallelCredit', o.parallelCredit, PARALLEL_CREDITS],
    ['perfCredit', o.perfCredit, PERF_CREDITS],
  ];
  for (const [name, value, allowed] of splits) {
    if (value === undefined) continue;
    if (!allowed.includes(value as string)) throw new Error(`swarm-v2: ${name} must be one of ${allowed.join(', ')}, got ${String(value)}`);
    if (credit === 'episode') throw new Error(`swarm-v2: ${name} applies only to credit 'decision' or 'stage-critic' (with 'episode' every decision gets the episode's return)`);
  }
  const lambda = o.gaeLambda ?? 1;
  if (!(lambda >= 0 && lambda <= 1)) throw new Error(`swarm-v2: gaeLambda must be in [0, 1], got ${lambda}`);
}

/** The task spec the actors need: per-decision credit asks them to record what each decision produced. */
export function actorSpecOf(o: Pick<DecompTrainingOptions, 'spec' | 'credit'>): DecompTaskSpec {
  const credit = o.credit ?? DEFAULT_DECOMP_CREDIT;
  return credit === 'decision' || credit === 'stage-critic' ? { ...o.spec, recordCredit: true } : o.spec;
}

/** Local actors (in the learner's thread): the same calls a pool of remote DecompActors answers. */
export class LocalDecompActors implements DecompActors {
  private readonly actors: DecompActor[];
  constructor(spec: DecompTaskSpec, count: number, seed: number) {
    this.actors = Array.from({ length: count }, (_, actorIndex) => new DecompActor({ spec, actorIndex, seed }));
  }
  get size(): number {
    return this.actors.length;
  }
  async start(i: number, update: number, episodes: number, taskSeeds: number[] | null): Promise<DecompPending> {
    return this.actors[i].start(update, episodes, taskSeeds);
  }
  async advance(i: number, actions: Int32Array): Promise<DecompPending> {
    return this.actors[i].advance(actions);
  }
}

/**
 * Check a spec before anything trains: the rules must make a sim (a budget below the lower
 * bound, an unknown subagent kind, a bad limit all throw here, with the sim's message), and the
 * set policy must fit the kinds. Tries the first task seed of the run.
 */
export function validateDecompSpec(spec: DecompTaskSpec, seed: number): void {
  const sim = makeDecompSim(spec, deriveSeed(seed, 0xd2, 0, 0, 0));
  if (sim.subagentKinds.length > SP_MAX_KINDS) throw new Error(`swarm-v2: at most ${SP_MAX_KINDS} subagent kinds, got ${sim.subagentKinds.length}`);
  if (!(Number.isInteger(spec.maxDecisions) && spec.maxDecisions >= 1)) throw new Error(`swarm-v2: maxDecisions must be a positive integer, got ${spec.maxDecisions}`);
  const perTask = spec.episodesPerTask ?? 1;
  if (!(Number.isInteger(perTask) && perTask >= 1)) throw new Error(`swarm-v2: episodesPerTask must be a positive integer, got ${perTask}`);
}

/** The figures of one episode, with the PARL reward at λ1, λ2 (the 'swarm' record's shape). */
export function decompEpisodeStats(o: DecompEpisodeOutcome, w: CreditWeights): SwarmEpisodeStats {
  const r = parlRewardForOutcome(o, w);
  const launched = o.launches.filter((n) => n > 0);
  return {
    criticalSteps: o.criticalSteps,
    totalSteps: o.totalCompute,
    serialBaseline: o.serialBaseline,
    lowerBound: o.lowerBound,
    avgParallelism: launched.length > 0 ? launched.reduce((a, b) => a + b, 0) / launched.length : 0,
    maxParallelism: launched.length > 0 ? Math.max(...launched) : 0,
    finishRate: r.rFinish,
    rPerf: r.rPerf,
    rParallel: r.rParallel,
    rFinish: r.rFinish,
    lambda1: w.lambda1,
    lambda2: w.lambda2,
    shapedParallel: r.shapedParallel,
    shapedFinish: r.shapedFinish,
    total: r.total,
  };
}

/** Each decision's return G_t under per-decision credit (stage reward to go plus d_t, see the file comment). */
export function decisionRewardsToGo(e: DecompEpisode, w: CreditWeights): Float64Array {
  return stageReturns(e, w).g;
}

/**
 * G_t, each decision's stage (its launch's index, T for the decision cap's launch, else its own
 * index) and the sum of the per-decision rewards (the episode's reward, when the parts are whole).
 */
export function stageReturns(e: DecompEpisode, w: CreditWeights): { g: Float64Array; stage: Int32Array; total: number } {
  const c = e.credit;
  if (!c) throw new Error("swarm-v2: per-decision credit needs the episode's credit parts (an actor that records them)");
  const T = e.decisions.length;
  if (c.perf.length !== T) throw new Error(`swarm-v2: credit for ${c.perf.length} decisions, the episode has ${T}`);
  const r = decisionRewards(c, w);
  // An assignment's stage is its launch (T: the decision cap's launch); any other decision is its own.
  const stageOf = (t: number) => (c.launchedBy[t] >= 0 ? c.launchedBy[t] : c.assigned[t] ? T : t);
  const rho = new Float64Array(T + 1);
  rho[T] = endReward(c, w); // paid after every decision's stage: in every G_t
  const planSum = new Float64Array(T + 1);
  const planSize = new Int32Array(T + 1);
  for (let t = 0; t < T; t++) {
    const s = stageOf(t);
    rho[s] += r[t];
    if (s !== t) {
      planSum[s] += r[t];
      planSize[s] += 1;
    }
  }
  const toGo = new Float64Array(T + 2);
  for (let s = T; s >= 0; s--) toGo[s] = toGo[s + 1] + rho[s];
  const g = new Float64Array(T);
  const stage = new Int32Array(T);
  for (let t = 0; t < T; t++) {
    const s = stageOf(t);
    stage[t] = s;
    g[t] = toGo[s] + (s !== t ? r[t] - planSum[s] / planSize[s] : 0);
  }
  return { g, stage, total: toGo[0] };
}

/** Writes an episode's decisions (s_t, a_t, log π_old(a_t|s_t), V_old(s_t)) into the batch rows from `row` on; returns the next row. */
function writeDecisions(
  rows: Pick<ReturnType<typeof emptyDecisionRows>, 'obs' | 'actions' | 'logProbs' | 'values'>,
  decisions: DecompEpisode['decisions'],
  row: number,
): number {
  for (const d of decisions) {
    rows.obs.set(d.obs, row * SP_OBS_DIM);
    rows.actions[row] = d.action;
    rows.logProbs[row] = d.logProb;
    rows.values[row] = d.value;
    row += 1;
  }
  return row;
}

/** The PPO batch of the episodes (GAE(λ) over each episode's decisions, see the file comment); null with none. */
export function buildDecompBatch(
  episodes: readonly DecompEpisode[],
  w: CreditWeights,
  gaeLambda = 1,
  groupBaseline = false,
  credit: DecompCreditMode = 'episode',
  firstStageBaseline: FirstStageBaseline = 'value',
): { batch: PpoBatch; stats: SwarmEpisodeStats[]; lengths: number[] } | null {
  if (!(gaeLambda >= 0 && gaeLambda <= 1)) throw new Error(`swarm-v2: gaeLambda must be in [0, 1], got ${gaeLambda}`);
  if (episodes.length === 0) return null;
  if (credit === 'decision') return buildDecisionCreditBatch(episodes, w, gaeLambda, groupBaseline);
  if (credit === 'stage-critic') return buildStageCriticBatch(episodes, w, gaeLambda, firstStageBaseline);
  const totals = episodes.map((e) => decompEpisodeStats(e.outcome, w).total);
  const othersMean = groupBaseline ? leaveOneOutMeans(episodes, totals) : null;
  const B = episodes.reduce((n, e) => n + e.decisions.length, 0);
  const { obs, actions, logProbs, values, advantages, returns } = emptyDecisionRows(B, SP_OBS_DIM);
  const stats: SwarmEpisodeStats[] = [];
  const lengths: number[] = [];
  let row = 0;
  for (const [k, e] of episodes.entries()) {
    const st = decompEpisodeStats(e.outcome, w);
    const T = e.decisions.length;
    const others = othersMean?.[k] ?? null;
    if (others !== null) {
      for (let t = 0; t < T; t++) {
        advantages[row + t] = st.total - others;
        returns[row + t] = st.total;
      }
    }
    let next = 0; // A_{t+1}
    for (let t = T - 1; t >= 0 && others === null; t--) {
      const d = e.decisions[t];
      const delta = (t === T - 1 ? st.total : e.decisions[t + 1].value) - d.value;
      next = delta + gaeLambda * next;
      advantages[row + t] = next;
      returns[row + t] = next + d.value;
    }
    row = writeDecisions({ obs, actions, logProbs, values }, e.decisions, row);
    stats.push(st);
    lengths.push(e.decisions.length);
  }
  return { batch: { obs, actions, batchSize: B, logProbs, values, advantages, returns }, stats, lengths };
}

/** buildDecompBatch with per-decision credit (see the file comment). */
function buildDecisionCreditBatch(
  episodes: readonly DecompEpisode[],
  w: CreditWeights,
  gaeLambda: number,
  groupBaseline: boolean,
): { batch: PpoBatch; stats: SwarmEpisodeStats[]; lengths: number[] } {
  const parts = episodes.map((e) => stageReturns(e, w));
  const toGo = parts.map((p) => p.g);
  const stats = checkedStats(episodes, w, parts);
  const groups = new Map<string, number[]>();
  if (groupBaseline) episodes.forEach((e, k) => groups.set(taskGroupKey(e), [...(groups.get(taskGroupKey(e)) ?? []), k]));
  const B = episodes.reduce((n, e) => n + e.decisions.length, 0);
  const { obs, actions, logProbs, values, advantages, returns } = emptyDecisionRows(B, SP_OBS_DIM);
  let row = 0;
  episodes.forEach((e, k) => {
    const T = e.decisions.length;
    const g = toGo[k];
    const others = (groups.get(taskGroupKey(e)) ?? []).filter((j) => j !== k);
    if (others.length > 0) {
      for (let t = 0; t < T; t++) {
        const b = others.reduce((a, j) => a + (t < toGo[j].length ? toGo[j][t] : 0), 0) / others.length;
        advantages[row + t] = g[t] - b;
        returns[row + t] = g[t];
      }
    } else {
      let next = 0; // A_{t+1}
      for (let t = T - 1; t >= 0; t--) {
        const r = g[t] - (t + 1 < T ? g[t + 1] : 0);
        const delta = r + (t + 1 < T ? e.decisions[t + 1].value : 0) - e.decisions[t].value;
        next = delta + gaeLambda * next;
        advantages[row + t] = next;
        returns[row + t] = next + e.decisions[t].value;
      }
    }
    row = writeDecisions({ obs, actions, logProbs, values }, e.decisions, row);
  });
  return { batch: { obs, actions, batchSize: B, logProbs, values, advantages, returns }, stats, lengths: episodes.map((e) => e.decisions.length) };
}

/**
 * Per episode, the mean return of the OTHER runs of its task in this batch (same actor, same task
 * seed): (Σ_{e' in group} r_e' − r_e) / (n − 1); null where the episode is its task's only run.
 */
function leaveOneOutMeans(episodes: readonly DecompEpisode[], totals: readonly number[]): (number | null)[] {
  const groups = new Map<string, { sum: number; n: number }>();
  episodes.forEach((e, k) => {
    const g = groups.get(taskGroupKey(e)) ?? { sum: 0, n: 0 };
    groups.set(taskGroupKey(e), { sum: g.sum + totals[k], n: g.n + 1 });
  });
  return episodes.map((e, k) => {
    const g = groups.get(taskGroupKey(e));
    return g && g.n > 1 ? (g.sum - totals[k]) / (g.n - 1) : null;
  });
}

/** The runs of one task in a batch: the same actor and task seed. */
function taskGroupKey(e: DecompEpisode): string {
  return `${e.actorIndex}:${e.outcome.taskSeed}`;
}

/** Checks that the per-decision rewards of each episode (stageReturns' totals) sum to its PARL reward; returns each episode's stats. */
function checkedStats(episodes: readonly DecompEpisode[], w: CreditWeights, parts: readonly { total: number }[]): SwarmEpisodeStats[] {
  const stats = episodes.map((e) => decompEpisodeStats(e.outcome, w));
  episodes.forEach((_e, k) => {
    const sum = parts[k].total;
    if (Math.abs(sum - stats[k].total) > 1e-6) throw new Error(`swarm-v2: per-decision rewards sum to ${sum}, the episode's reward is ${stats[k].total}`);
  });
  return stats;
}

/** buildDecompBatch with stage credit and the value head as the baseline (credit 'stage-critic', see the file comment). */
function buildStageCriticBatch(
  episodes: readonly DecompEpisode[],
  w: CreditWeights,
  gaeLambda: number,
  firstStageBaseline: FirstStageBaseline,
): { batch: PpoBatch; stats: SwarmEpisodeStats[]; lengths: number[] } {
  const parts = episodes.map((e) => stageReturns(e, w));
  const stats = checkedStats(episodes, w, parts);
  const othersMean = firstStageBaseline === 'group' ? leaveOneOutMeans(episodes, stats.map((x) => x.total)) : null;
  const B = episodes.reduce((n, e) => n + e.decisions.length, 0);
  const { obs, actions, logProbs, values, advantages, returns } = emptyDecisionRows(B, SP_OBS_DIM);
  let row = 0;
  episodes.forEach((e, k) => {
    const T = e.decisions.length;
    const { g, stage } = parts[k];
    const V = (t: number) => (t < T ? e.decisions[t].value : 0);
    let next = 0; // A_{t+1}
    for (let t = T - 1; t >= 0; t--) {
      const rPrime = g[t] - (t + 1 < T ? g[t + 1] : 0);
      next = rPrime + V(t + 1) - V(t) + gaeLambda * next;
      advantages[row + t] = next;
      returns[row + t] = next + V(t);
    }
    const others = othersMean?.[k] ?? null;
    if (others !== null && T > 0) {
      const first = stage.reduce((m, s) => Math.min(m, s), T);
      for (let t = 0; t < T; t++) if (stage[t] === first) advantages[row + t] = g[t] - others;
    }
    row = writeDecisions({ obs, actions, logProbs, values }, e.decisions, row);
  });
  return { batch: { obs, actions, batchSize: B, logProbs, values, advantages, returns }, stats, lengths: episodes.map((e) => e.decisions.length) };
}

/** Means over an update's episodes (the update record's swarm metrics). */
export function decompUpdateMetrics(stats: readonly SwarmEpisodeStats[], outcomes: readonly DecompEpisodeOutcome[]): Record<string, number> {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    rPerf: mean(stats.map((x) => x.rPerf)),
    finishRate: mean(stats.map((x) => x.finishRate)),
    avgParallelism: mean(stats.map((x) => x.avgParallelism)),
    criticalSteps: mean(stats.map((x) => x.criticalSteps)),
    serialBaseline: mean(stats.map((x) => x.serialBaseline)),
    criticalOverSerial: mean(stats.map((x) => x.criticalSteps / Math.max(1, x.serialBaseline))),
    totalCompute: mean(stats.map((x) => x.totalSteps)),
    subagents: mean(outcomes.map((o) => o.nSubagents)),
    checks: mean(outcomes.map((o) => o.nChecks)),
    directs: mean(outcomes.map((o) => o.nDirect)),
    decisions: mean(outcomes.map((o) => o.decisions)),
    // Batching: subtasks handed out per subagent created over the update (0 when none was created).
    subtasksPerSubagent: outcomes.reduce((a, o) => a + o.nAssigned, 0) / Math.max(1, outcomes.reduce((a, o) => a + o.nSubagents, 0)),
    contextUsed: mean(outcomes.map((o) => o.contextUsed / Math.max(1, o.contextBudget))),
  };
}

export interface DecompUpdateResult {
  update: number;
  lambda1: number;
  lambda2: number;
  stats: SwarmEpisodeStats[];
  outcomes: DecompEpisodeOutcome[];
  lengths: number[];
  metrics: Record<string, number>;
  rollouts: DecompRollouts;
  seconds: number;
}

export class DecompLearner {
  readonly model: SetPolicyModel;
  readonly agent: Agent<PpoBatch>;
  private schedules: LambdaSchedules;
  readonly inference: SetInference;
  updatesDone = 0;
  /** When set (rehearse), one step on the demonstrations follows each PPO update (demoStart.ts). */
  private rehearsal: DemoRehearsal | null = null;

  /** Validates the spec first (bad input is rejected before any network is built). */
  static create(o: DecompTrainingOptions, actors?: DecompActors): DecompLearner {
    validateDecompSpec(o.spec, o.seed);
    validateCreditOptions(o);
    // Per-decision credit needs the actors to record what each decision produced.
    return new DecompLearner(o, actors ?? new LocalDecompActors(actorSpecOf(o), o.actors, o.seed));
  }

  private constructor(
    readonly options: DecompTrainingOptions,
    readonly actors: DecompActors,
  ) {
    this.model = new SetPolicyModel({ hidden: options.hidden, seed: options.seed, startBias: options.startBias });
    const ppo = new Ppo(this.model, {
      lr: options.lr,
      entCoef: options.entCoef,
      updateEpochs: options.updateEpochs,
      numMinibatches: options.numMinibatches,
      ...(options.vfCoef === undefined ? {} : { vfCoef: options.vfCoef }),
      gamma: 1,
      gaeLambda: 1,
      seed: options.seed,
    });
    this.agent = new Agent<PpoBatch>(ppo);
    this.schedules = { lambda1: options.lambda1, lambda2: options.lambda2 };
    this.inference = new SetInference(this.model, new Rng(deriveSeed(options.seed, 0x5e71)));
  }

  /** Rehearse `demos` after each update from now on, the rate falling to 0 over the run's anneal horizon (λ1's). */
  rehearse(demos: Demonstrations): void {
    this.rehearsal?.dispose();
    this.rehearsal = new DemoRehearsal(this.model, demos, { ...DEMO_REHEARSAL, horizon: this.options.lambda1.horizon, seed: this.options.seed });
  }

  /** λ1's and λ2's schedules from the next update on (they can change while a run trains). */
  setSchedules(schedules: LambdaSchedules): void {
    this.schedules = schedules;
  }

  /** One update: collect every actor's episodes (central inference), then one PPO update. */
  async update(): Promise<DecompUpdateResult> {
    const t0 = performance.now();
    const u = this.updatesDone;
    const lambdas = lambdasAt(this.schedules, u);
    this.inference.mode = 'sample';
    const rollouts = await collectDecompRollouts(this.actors, this.inference, { update: u, episodesPerActor: this.options.episodesPerActor });
    const w: CreditWeights = { ...lambdas, parallelCap: this.options.parallelCap, parallelCredit: this.options.parallelCredit ?? 'creator', perfCredit: this.options.perfCredit ?? 'right-claims' };
    const built = buildDecompBatch(rollouts.episodes, w, this.options.gaeLambda ?? 1, (this.options.spec.episodesPerTask ?? 1) > 1, this.options.credit ?? DEFAULT_DECOMP_CREDIT, this.options.firstStageBaseline ?? 'value');
    let metrics: Record<string, number> = {};
    if (built) {
      this.model.activeRows = activeRowsOf(built.batch.obs, built.batch.batchSize);
      try {
        metrics = this.agent.learn(built.batch);
      } finally {
        this.model.activeRows = SP_ROWS;
      }
      const demoLoss = this.rehearsal?.step(u) ?? null;
      if (demoLoss !== null) metrics = { ...metrics, demoNll: demoLoss };
    }
    this.updatesDone += 1;
    const outcomes = rollouts.episodes.map((e) => e.outcome);
    const stats = built?.stats ?? [];
    return {
      update: u,
      ...lambdas,
      stats,
      outcomes,
      lengths: built?.lengths ?? [],
      metrics: { ...metrics, ...lambdas, ...decompUpdateMetrics(stats, outcomes), forwardCalls: rollouts.forwardCalls, ticks: rollouts.ticks, forwardCallsPerTick: rollouts.forwardCalls / Math.max(1, rollouts.ticks) },
      rollouts,
      seconds: (performance.now() - t0) / 1000,
    };
  }

  /**
   * The policy on fixed task seeds (spread over the actors); no learning. `mode` (see
   * decompRollouts.ts): 'sample' (default) plays the stochastic policy PPO trains, its draws from
   * the seeded inference stream (so two calls differ, a run repeats); 'typeArgmax' and 'argmax'
   * are deterministic. An undertrained pointer head is nearly flat, and its argmax picks the same
   * subtask again and again (duplicates that fill the context), so the deterministic modes judge
   * a policy that was never trained.
   */
  async evaluate(taskSeeds: readonly number[], mode: DecisionMode = 'sample'): Promise<DecompEpisodeOutcome[]> {
    const n = this.actors.size;
    const per = Math.ceil(taskSeeds.length / n);
    const seedsOf = (i: number) => taskSeeds.slice(i * per, (i + 1) * per);
    this.inference.mode = mode;
    try {
      // Every actor runs `per` episodes; the seeds past the end are repeats, dropped below.
      const padded = (i: number) => Array.from({ length: per }, (_, j) => seedsOf(i)[j] ?? taskSeeds[0]);
      const r = await collectDecompRollouts(this.actors, this.inference, { update: -1, episodesPerActor: per, taskSeeds: padded, keepObs: false });
      return r.episodes.filter((e) => e.slot < seedsOf(e.actorIndex).length).map((e) => e.outcome);
    } finally {
      this.inference.mode = 'sample';
    }
  }

  dispose(): void {
    this.rehearsal?.dispose();
    this.agent.dispose();
  }
}
