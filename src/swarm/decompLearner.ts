/**
 * The learner of the second swarm: the set-policy orchestrator (src/swarm/setPolicy.ts) trained
 * with the engine's PPO (src/algorithms/ppo.ts, through the Agent), the actors that own the
 * decomposition episodes, and the central inference that answers them (src/swarm/decompRollouts.ts).
 *
 * Each finished episode is paid the PARL reward (src/swarm/parlRewardV2.ts) at its last decision:
 *   r = λ1(t)·r_parallel + λ2(t)·r_finish + r_perf,   λi(t) = scheduleValue(schedule_i, t)
 * with t the number of updates done. Returns are undiscounted Monte Carlo (γ = λ_GAE = 1, as the
 * first swarm: a discount per decision would pay for fewer tool calls, a hidden shaping term):
 *   R_t = r,   A_t = R_t − V_old(s_t)
 * PPO then normalises A per minibatch and clips the ratio (see ppo.ts).
 */
import { Agent } from '../core/agent';
import { Rng, deriveSeed } from '../core/rng';
import { Ppo, type PpoBatch } from '../algorithms/ppo';
import type { SwarmEpisodeStats } from '../runs/records';
import { DecompActor, makeDecompSim, type DecompEpisodeOutcome, type DecompPending, type DecompTaskSpec } from './decompActor';
import { collectDecompRollouts, SetInference, type DecompActors, type DecompEpisode, type DecompRollouts } from './decompRollouts';
import { parlRewardV2ForOutcome } from './parlRewardV2';
import { lambdasAt } from './schedules';
import { SetPolicyModel, SP_OBS_DIM, SP_MAX_KINDS, SP_ROWS, activeRowsOf } from './setPolicy';
import type { ScheduleSpec } from './types';

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
}

/** The figures of one episode, with the PARL reward at λ1, λ2 (the 'swarm' record's shape). */
export function decompEpisodeStats(o: DecompEpisodeOutcome, w: { lambda1: number; lambda2: number; parallelCap: number }): SwarmEpisodeStats {
  const r = parlRewardV2ForOutcome(o, w);
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

/** The PPO batch of the episodes (R_t = r, A_t = r − V_old(s_t)); null with none. */
export function buildDecompBatch(episodes: readonly DecompEpisode[], w: { lambda1: number; lambda2: number; parallelCap: number }): { batch: PpoBatch; stats: SwarmEpisodeStats[]; lengths: number[] } | null {
  if (episodes.length === 0) return null;
  const B = episodes.reduce((n, e) => n + e.decisions.length, 0);
  const obs = new Float32Array(B * SP_OBS_DIM);
  const actions = new Int32Array(B);
  const logProbs = new Float32Array(B);
  const values = new Float32Array(B);
  const advantages = new Float32Array(B);
  const returns = new Float32Array(B);
  const stats: SwarmEpisodeStats[] = [];
  const lengths: number[] = [];
  let row = 0;
  for (const e of episodes) {
    const st = decompEpisodeStats(e.outcome, w);
    for (const d of e.decisions) {
      obs.set(d.obs, row * SP_OBS_DIM);
      actions[row] = d.action;
      logProbs[row] = d.logProb;
      values[row] = d.value;
      returns[row] = st.total;
      advantages[row] = st.total - d.value;
      row += 1;
    }
    stats.push(st);
    lengths.push(e.decisions.length);
  }
  return { batch: { obs, actions, batchSize: B, logProbs, values, advantages, returns }, stats, lengths };
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
  readonly inference: SetInference;
  updatesDone = 0;

  /** Validates the spec first (bad input is rejected before any network is built). */
  static create(o: DecompTrainingOptions, actors?: DecompActors): DecompLearner {
    validateDecompSpec(o.spec, o.seed);
    return new DecompLearner(o, actors ?? new LocalDecompActors(o.spec, o.actors, o.seed));
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
      gamma: 1,
      gaeLambda: 1,
      seed: options.seed,
    });
    this.agent = new Agent<PpoBatch>(ppo);
    this.inference = new SetInference(this.model, new Rng(deriveSeed(options.seed, 0x5e71)));
  }

  /** One update: collect every actor's episodes (central inference), then one PPO update. */
  async update(): Promise<DecompUpdateResult> {
    const t0 = performance.now();
    const u = this.updatesDone;
    const lambdas = lambdasAt({ lambda1: this.options.lambda1, lambda2: this.options.lambda2 }, u);
    this.inference.greedy = false;
    const rollouts = await collectDecompRollouts(this.actors, this.inference, { update: u, episodesPerActor: this.options.episodesPerActor });
    const w = { ...lambdas, parallelCap: this.options.parallelCap };
    const built = buildDecompBatch(rollouts.episodes, w);
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
      metrics: { ...metrics, ...lambdas, ...decompUpdateMetrics(stats, outcomes), forwardCalls: rollouts.forwardCalls, ticks: rollouts.ticks, forwardCallsPerTick: rollouts.forwardCalls / Math.max(1, rollouts.ticks) },
      rollouts,
      seconds: (performance.now() - t0) / 1000,
    };
  }

  /** The greedy policy on fixed task seeds (spread over the actors); no learning. */
  async evaluate(taskSeeds: readonly number[]): Promise<DecompEpisodeOutcome[]> {
    const n = this.actors.size;
    const per = Math.ceil(taskSeeds.length / n);
    const seedsOf = (i: number) => taskSeeds.slice(i * per, (i + 1) * per);
    this.inference.greedy = true;
    try {
      // Every actor runs `per` episodes; the seeds past the end are repeats, dropped below.
      const padded = (i: number) => Array.from({ length: per }, (_, j) => seedsOf(i)[j] ?? taskSeeds[0]);
      const r = await collectDecompRollouts(this.actors, this.inference, { update: -1, episodesPerActor: per, taskSeeds: padded, keepObs: false });
      return r.episodes.filter((e) => e.slot < seedsOf(e.actorIndex).length).map((e) => e.outcome);
    } finally {
      this.inference.greedy = false;
    }
  }

  dispose(): void {
    this.agent.dispose();
  }
}
