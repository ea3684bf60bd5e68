/**
 * The swarm's learner: the set-policy orchestrator (src/swarm/setPolicy.ts) trained with the
 * engine's PPO (src/algorithms/ppo.ts, through the Agent), the actors that own the decomposition
 * episodes, and the central inference that answers them (src/swarm/swarmRollouts.ts).
 *
 * The reward (Kimi K2.5, section 3; src/swarm/parlReward.ts), with t the number of updates done:
 *   r = λ1(t)·r_parallel + λ2(t)·r_finish + r_perf,   λi(t) = scheduleValue(schedule_i, t)
 * Outcome only: nothing a decision is credited with depends on whether a claim was right.
 *   - r_perf, the F1 of the submitted answers, is paid once, at the episode's end;
 *   - r_finish = n_completed / n_assigned is paid in shares λ2/n_assigned to the assignments whose
 *     result came back and was read (something the orchestrator sees), or λ2 at the end when
 *     nothing was assigned (the neutral case);
 *   - r_parallel = min(n_subagents, cap)/cap is paid in shares λ1/cap to the decisions that created
 *     the first `cap` subagents (decisionCredit.ts).
 * Work planned for a launch happens at the launch, so each decision's reward sits at its STAGE: a
 * stage is a launch with the assignments it ran (the decision cap's launch is a stage at the end,
 * index T), or one direct, check or finish decision alone. With stage(t) the stage of decision t:
 *   ρ_s = Σ_{t: stage(t) = s} r_t,   ρ_T += r_perf       (the stage's reward; the outcome at the end)
 *   G_t = Σ_{s >= stage(t)} ρ_s                          (the reward to go of the decision's stage)
 * No discount (γ = 1: a discount per decision would pay for fewer tool calls, a hidden shaping
 * term). The learned critic (the value head) is the baseline, with GAE(λ) over the decisions:
 *   r'_t = G_t − G_{t+1}  (G_T = 0),   δ_t = r'_t + V_old(s_{t+1}) − V_old(s_t)  (V_old(s_T) = 0)
 *   A_t = δ_t + λ·A_{t+1},   R_t = A_t + V_old(s_t)      (R_t: the value target)
 * λ = 1 gives A_t = G_t − V_old(s_t): every decision is judged by the outcome that followed it,
 * against what the critic expected from the state it was taken in. PPO then normalises A per
 * minibatch and clips the ratio (see ppo.ts).
 */
import { Agent } from '../core/agent';
import { Rng, deriveSeed } from '../core/rng';
import { Ppo, type PpoBatch } from '../algorithms/ppo';
import type { SwarmEpisodeStats } from '../runs/records';
import { SwarmActor, makeSwarmSim, type SwarmEpisodeOutcome, type SwarmPending, type SwarmTaskSpec } from './swarmActor';
import { collectSwarmRollouts, SetInference, type DecisionMode, type SwarmActors, type SwarmEpisode, type SwarmRollouts } from './swarmRollouts';
import { decisionRewards, type CreditWeights } from './decisionCredit';
import { parlRewardForOutcome } from './parlReward';
import { lambdasAt } from './schedules';
import { SetPolicyModel, SP_OBS_DIM, SP_MAX_KINDS, SP_ROWS, activeRowsOf } from './setPolicy';
import type { LambdaSchedules, ScheduleSpec } from './types';
import { defaultParams } from '../config/algorithm';
import { PPO } from '../config/algorithms/ppo';

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

export interface SwarmTrainingOptions {
  spec: SwarmTaskSpec;
  seed: number;
  hidden: number;
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
  /** PPO's value-loss weight (default: the PPO descriptor's vfCoef). */
  vfCoef?: number;
}

/** Rejects training settings the learner cannot use, with a message saying which. */
export function validateCreditOptions(o: Pick<SwarmTrainingOptions, 'vfCoef' | 'gaeLambda'>): void {
  if (o.vfCoef !== undefined && !(Number.isFinite(o.vfCoef) && o.vfCoef > 0)) throw new Error(`swarm: vfCoef must be a positive number, got ${o.vfCoef}`);
  const lambda = o.gaeLambda ?? 1;
  if (!(lambda >= 0 && lambda <= 1)) throw new Error(`swarm: gaeLambda must be in [0, 1], got ${lambda}`);
}

/** The task spec the actors need: they record what each decision launched, created and got back (decisionCredit.ts). */
export function actorSpecOf(o: Pick<SwarmTrainingOptions, 'spec'>): SwarmTaskSpec {
  return { ...o.spec, recordCredit: true };
}

/** Local actors (in the learner's thread): the same calls a pool of remote SwarmActors answers. */
export class LocalSwarmActors implements SwarmActors {
  private readonly actors: SwarmActor[];
  constructor(spec: SwarmTaskSpec, count: number, seed: number) {
    this.actors = Array.from({ length: count }, (_, actorIndex) => new SwarmActor({ spec, actorIndex, seed }));
  }
  get size(): number {
    return this.actors.length;
  }
  async start(i: number, update: number, episodes: number, taskSeeds: number[] | null): Promise<SwarmPending> {
    return this.actors[i].start(update, episodes, taskSeeds);
  }
  async advance(i: number, actions: Int32Array): Promise<SwarmPending> {
    return this.actors[i].advance(actions);
  }
}

/**
 * Check a spec before anything trains: the rules must make a sim (a budget below the lower
 * bound, an unknown subagent kind, a bad limit all throw here, with the sim's message), and the
 * set policy must fit the kinds. Tries the first task seed of the run.
 */
export function validateSwarmSpec(spec: SwarmTaskSpec, seed: number): void {
  const sim = makeSwarmSim(spec, deriveSeed(seed, 0xd2, 0, 0, 0));
  if (sim.subagentKinds.length > SP_MAX_KINDS) throw new Error(`swarm: at most ${SP_MAX_KINDS} subagent kinds, got ${sim.subagentKinds.length}`);
  if (!(Number.isInteger(spec.maxDecisions) && spec.maxDecisions >= 1)) throw new Error(`swarm: maxDecisions must be a positive integer, got ${spec.maxDecisions}`);
  const perTask = spec.episodesPerTask ?? 1;
  if (!(Number.isInteger(perTask) && perTask >= 1)) throw new Error(`swarm: episodesPerTask must be a positive integer, got ${perTask}`);
}

/** The figures of one episode, with the PARL reward at λ1, λ2 (the 'swarm' record's shape). */
export function swarmEpisodeStats(o: SwarmEpisodeOutcome, w: CreditWeights): SwarmEpisodeStats {
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

/** Each decision's return G_t: the reward to go of its stage (see the file comment). */
export function decisionRewardsToGo(e: SwarmEpisode, w: CreditWeights): Float64Array {
  return stageReturns(e, w).g;
}

/**
 * G_t, each decision's stage (its launch's index, T for the decision cap's launch, else its own
 * index) and the episode's reward Σ_s ρ_s (r_perf at the end included).
 */
export function stageReturns(e: SwarmEpisode, w: CreditWeights): { g: Float64Array; stage: Int32Array; total: number } {
  const c = e.credit;
  if (!c) throw new Error("swarm: the learner needs the episode's credit parts (an actor that records them)");
  const T = e.decisions.length;
  if (c.assigned.length !== T) throw new Error(`swarm: credit for ${c.assigned.length} decisions, the episode has ${T}`);
  const r = decisionRewards(c, w);
  // An assignment's stage is its launch (T: the decision cap's launch); any other decision is its own.
  const stageOf = (t: number) => (c.launchedBy[t] >= 0 ? c.launchedBy[t] : c.assigned[t] ? T : t);
  const rho = new Float64Array(T + 1);
  rho[T] = e.outcome.rPerf; // the outcome, paid after every decision's stage: in every G_t
  for (let t = 0; t < T; t++) rho[stageOf(t)] += r[t];
  const toGo = new Float64Array(T + 2);
  for (let s = T; s >= 0; s--) toGo[s] = toGo[s + 1] + rho[s];
  const g = new Float64Array(T);
  const stage = new Int32Array(T);
  for (let t = 0; t < T; t++) {
    stage[t] = stageOf(t);
    g[t] = toGo[stage[t]];
  }
  return { g, stage, total: toGo[0] };
}

/** Writes an episode's decisions (s_t, a_t, log π_old(a_t|s_t), V_old(s_t)) into the batch rows from `row` on; returns the next row. */
function writeDecisions(
  rows: Pick<ReturnType<typeof emptyDecisionRows>, 'obs' | 'actions' | 'logProbs' | 'values'>,
  decisions: SwarmEpisode['decisions'],
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

/** The PPO batch of the episodes (stage returns, GAE(λ) against the value head, see the file comment); null with none. */
export function buildSwarmBatch(
  episodes: readonly SwarmEpisode[],
  w: CreditWeights,
  gaeLambda = 1,
): { batch: PpoBatch; stats: SwarmEpisodeStats[]; lengths: number[] } | null {
  if (!(gaeLambda >= 0 && gaeLambda <= 1)) throw new Error(`swarm: gaeLambda must be in [0, 1], got ${gaeLambda}`);
  if (episodes.length === 0) return null;
  const parts = episodes.map((e) => stageReturns(e, w));
  const stats = episodes.map((e) => swarmEpisodeStats(e.outcome, w));
  episodes.forEach((_e, k) => {
    if (Math.abs(parts[k].total - stats[k].total) > 1e-6) throw new Error(`swarm: the decisions' rewards sum to ${parts[k].total}, the episode's reward is ${stats[k].total}`);
  });
  const B = episodes.reduce((n, e) => n + e.decisions.length, 0);
  const { obs, actions, logProbs, values, advantages, returns } = emptyDecisionRows(B, SP_OBS_DIM);
  let row = 0;
  episodes.forEach((e, k) => {
    const T = e.decisions.length;
    const { g } = parts[k];
    const V = (t: number) => (t < T ? e.decisions[t].value : 0);
    let next = 0; // A_{t+1}
    for (let t = T - 1; t >= 0; t--) {
      const rPrime = g[t] - (t + 1 < T ? g[t + 1] : 0);
      next = rPrime + V(t + 1) - V(t) + gaeLambda * next;
      advantages[row + t] = next;
      returns[row + t] = next + V(t);
    }
    row = writeDecisions({ obs, actions, logProbs, values }, e.decisions, row);
  });
  return { batch: { obs, actions, batchSize: B, logProbs, values, advantages, returns }, stats, lengths: episodes.map((e) => e.decisions.length) };
}

/** Means over an update's episodes (the update record's swarm metrics). */
export function swarmUpdateMetrics(stats: readonly SwarmEpisodeStats[], outcomes: readonly SwarmEpisodeOutcome[]): Record<string, number> {
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

export interface SwarmUpdateResult {
  update: number;
  lambda1: number;
  lambda2: number;
  stats: SwarmEpisodeStats[];
  outcomes: SwarmEpisodeOutcome[];
  lengths: number[];
  metrics: Record<string, number>;
  rollouts: SwarmRollouts;
  seconds: number;
}

export class SwarmLearner {
  readonly model: SetPolicyModel;
  readonly agent: Agent<PpoBatch>;
  private schedules: LambdaSchedules;
  readonly inference: SetInference;
  updatesDone = 0;

  /** Validates the spec first (bad input is rejected before any network is built). */
  static create(o: SwarmTrainingOptions, actors?: SwarmActors): SwarmLearner {
    validateSwarmSpec(o.spec, o.seed);
    validateCreditOptions(o);
    return new SwarmLearner(o, actors ?? new LocalSwarmActors(actorSpecOf(o), o.actors, o.seed));
  }

  private constructor(
    readonly options: SwarmTrainingOptions,
    readonly actors: SwarmActors,
  ) {
    this.model = new SetPolicyModel({ hidden: options.hidden, seed: options.seed });
    const ppo = new Ppo(this.model, {
      ...defaultParams(PPO.settings),
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

  /** λ1's and λ2's schedules from the next update on (they can change while a run trains). */
  setSchedules(schedules: LambdaSchedules): void {
    this.schedules = schedules;
  }

  /** One update: collect every actor's episodes (central inference), then one PPO update. */
  async update(): Promise<SwarmUpdateResult> {
    const t0 = performance.now();
    const u = this.updatesDone;
    const lambdas = lambdasAt(this.schedules, u);
    this.inference.mode = 'sample';
    const rollouts = await collectSwarmRollouts(this.actors, this.inference, { update: u, episodesPerActor: this.options.episodesPerActor });
    const w: CreditWeights = { ...lambdas, parallelCap: this.options.parallelCap };
    const built = buildSwarmBatch(rollouts.episodes, w, this.options.gaeLambda ?? 1);
    let metrics: Record<string, number> = {};
    if (built) {
      this.model.activeRows = activeRowsOf(built.batch.obs, built.batch.batchSize);
      try {
        metrics = this.agent.learn(built.batch);
      } finally {
        this.model.activeRows = SP_ROWS;
      }
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
      metrics: { ...metrics, ...lambdas, ...swarmUpdateMetrics(stats, outcomes), forwardCalls: rollouts.forwardCalls, ticks: rollouts.ticks, forwardCallsPerTick: rollouts.forwardCalls / Math.max(1, rollouts.ticks) },
      rollouts,
      seconds: (performance.now() - t0) / 1000,
    };
  }

  /**
   * The policy on fixed task seeds (spread over the actors); no learning. `mode` (see
   * swarmRollouts.ts): 'sample' (default) plays the stochastic policy PPO trains, its draws from
   * the seeded inference stream (so two calls differ, a run repeats); 'typeArgmax' and 'argmax'
   * are deterministic. An undertrained pointer head is nearly flat, and its argmax picks the same
   * subtask again and again (duplicates that fill the context), so the deterministic modes judge
   * a policy that was never trained.
   */
  async evaluate(taskSeeds: readonly number[], mode: DecisionMode = 'sample'): Promise<SwarmEpisodeOutcome[]> {
    const n = this.actors.size;
    const per = Math.ceil(taskSeeds.length / n);
    const seedsOf = (i: number) => taskSeeds.slice(i * per, (i + 1) * per);
    this.inference.mode = mode;
    try {
      // Every actor runs `per` episodes; the seeds past the end are repeats, dropped below.
      const padded = (i: number) => Array.from({ length: per }, (_, j) => seedsOf(i)[j] ?? taskSeeds[0]);
      const r = await collectSwarmRollouts(this.actors, this.inference, { update: -1, episodesPerActor: per, taskSeeds: padded, keepObs: false });
      return r.episodes.filter((e) => e.slot < seedsOf(e.actorIndex).length).map((e) => e.outcome);
    } finally {
      this.inference.mode = 'sample';
    }
  }

  dispose(): void {
    this.agent.dispose();
  }
}
