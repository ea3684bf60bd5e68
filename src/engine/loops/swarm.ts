/**
 * The agent swarm's training loop (Kimi K2.5's PARL, algorithm 'swarm-ppo'):
 *
 *   1. Before anything runs: check the task config and load + validate the frozen subagent
 *      checkpoints (a bad config or checkpoint ends the run here with a message naming it).
 *   2. Each update, every SwarmActor (a worker) starts `envsPerActor` episodes. Then, tick by tick,
 *      the learner gathers what every episode of every actor waits for and answers with ONE
 *      orchestrator forward pass and ONE subagent forward pass (SEED-style central inference,
 *      src/swarm/inference.ts), until every episode has finished.
 *   3. Each finished episode gets the PARL reward (src/swarm/parlReward.ts) at the current step t:
 *        r = λ1(t)·r_parallel + λ2(t)·r_finish + r_perf,   λi(t) = scheduleValue(schedule_i, t)
 *      paid at its last decision (all earlier rewards 0). Advantages per episode by GAE(γ, λ):
 *        δ_t = r_t + γ V(s_{t+1})(1 − d_t) − V(s_t),  A_t = δ_t + γλ(1 − d_t) A_{t+1},  R_t = A_t + V(s_t)
 *   4. One PPO update of the orchestrator on every decision of the update (algorithms/ppo.ts).
 *      The subagents are never given to an optimizer: their weights stay bit for bit the same.
 *   5. Records: 'update' (returns = PARL totals), 'swarm' (every component of every episode) and,
 *      every `swarm.traceEvery` updates, a 'trace' with the same task run serially beside it.
 * Here t = the number of orchestrator updates done so far (`trainSteps`).
 */
import { Agent } from '../../core/agent';
import { Rng, deriveSeed } from '../../core/rng';
import { gae } from '../../algorithms/gae';
import { Ppo, type PpoBatch } from '../../algorithms/ppo';
import { resolveLimits } from '../../envs/swarm/orchestration';
import type { EpisodeLog } from '../../envs/swarm/types';
import { episodeLatencyStats } from '../../swarm/criticalSteps';
import { CentralInference } from '../../swarm/inference';
import { MaskedActorCritic, ORCH_OBS_DIM } from '../../swarm/orchestrator';
import { parlRewardForEpisode } from '../../swarm/parlReward';
import { lambdasAt } from '../../swarm/schedules';
import { loadSubagentCheckpoint } from '../../swarm/subagentFiles';
import { FrozenSubagent } from '../../swarm/subagents';
import { SwarmActor, type SwarmActorOptions, type SwarmPending } from '../../swarm/swarmActor';
import { validateSwarmTaskConfig, type SwarmTaskConfig } from '../../swarm/tasks';
import { buildEpisodeTrace, stagesFromRecords } from '../../swarm/trace';
import type { LambdaSchedules } from '../../swarm/types';
import type { ExperimentSettings } from '../../config/settings';
import type { SwarmEpisodeStats, SwarmUpdateRecord } from '../../runs/records';
import { actorHandle, createReportingPool, LoopProgress, pauseOnNonFinite } from './common';
import type { LoopContext, LoopOutcome } from './types';

// Undiscounted Monte Carlo advantages (γ = λ = 1, A_t = R − V(s_t)), as for the report's
// outcome-rewarded episodes. A discount per decision would be a hidden cost per orchestrator
// decision, so plans with fewer, larger stages would be paid for their shape alone: a disguised
// r_parallel even in the unshaped preset (measured: with γ = 0.99 the unshaped runs left the
// serial start in 5/5 seeds while r_perf was still flat).
const GAMMA = 1;
const GAE_LAMBDA = 1;

export function swarmTaskConfigFrom(s: ExperimentSettings): SwarmTaskConfig {
  return {
    kind: s['swarm.task'],
    numItems: s['swarm.items'],
    difficulty: s['swarm.difficulty'],
    graphDifficulty: s['swarm.graphDifficulty'],
    limits: resolveLimits({
      maxMainSteps: s['swarm.maxMainSteps'],
      subagentStepCap: s['swarm.subagentStepCap'],
      directStepCap: s['swarm.directStepCap'],
      contextBudget: s['swarm.contextBudget'],
      contextPerResult: s['swarm.contextPerResult'],
      maxSubagentsPerStage: s['swarm.maxSubagents'],
      deadline: s['swarm.deadline'],
      lateFloor: s['swarm.lateFloor'],
      lateAt: s['swarm.lateAt'],
    }),
  };
}

export function lambdaSchedulesFrom(s: ExperimentSettings): LambdaSchedules {
  const H = s['swarm.annealUpdates'];
  return {
    lambda1: { kind: s['swarm.lambda1Schedule'], start: s['swarm.lambda1'], horizon: H },
    lambda2: { kind: s['swarm.lambda2Schedule'], start: s['swarm.lambda2'], horizon: H },
  };
}

/** The figures of one episode, with the PARL reward at λ1, λ2. */
export function swarmEpisodeStats(log: EpisodeLog, lambda1: number, lambda2: number, parallelCap: number): SwarmEpisodeStats {
  const lat = episodeLatencyStats(stagesFromRecords(log.stages), { serialBaseline: log.serialBaseline, lowerBound: log.lowerBound });
  const r = parlRewardForEpisode(log, { lambda1, lambda2, parallelCap });
  return {
    criticalSteps: lat.criticalSteps,
    totalSteps: lat.totalSteps,
    serialBaseline: log.serialBaseline,
    lowerBound: log.lowerBound,
    avgParallelism: lat.avgParallelismLaunching,
    maxParallelism: lat.maxParallelism,
    finishRate: r.rFinish,
    rPerf: r.rPerf,
    rParallel: r.rParallel,
    rFinish: r.rFinish,
    lambda1,
    lambda2,
    total: r.total,
  };
}

interface Decision {
  obs: Float32Array;
  action: number;
  logProb: number;
  value: number;
}

export async function swarmLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const empty = (error: string): LoopOutcome => {
    ctx.emit({ type: 'notice', level: 'error', message: error });
    return { updates: 0, envSteps: 0, episodes: 0, finalMeanReturn20: null, solved: null, stopReason: 'error', error, lostSegments: 0, actorRespawns: 0 };
  };

  // 1. Reject what cannot work before anything starts.
  let task: SwarmTaskConfig;
  let subCkpt;
  let largeCkpt;
  try {
    task = swarmTaskConfigFrom(s);
    validateSwarmTaskConfig(task);
    subCkpt = await loadSubagentCheckpoint(s['swarm.subagent']);
    largeCkpt = await loadSubagentCheckpoint('large');
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return empty(`The swarm config cannot run: ${msg}`);
  }
  const schedules = lambdaSchedulesFrom(s);
  const parallelCap = s['swarm.parallelCap'];

  const subagent = new FrozenSubagent(subCkpt, s['swarm.subagent']);
  const large = new FrozenSubagent(largeCkpt, 'large');
  const orchestrator = new MaskedActorCritic([s['swarm.hidden']], s.seed, { directBias: s['swarm.initDirectBias'] });
  const agent = new Agent<PpoBatch>(
    new Ppo(orchestrator, { lr: s['swarm.lr'], entCoef: s['swarm.entropyCoef'], updateEpochs: s['swarm.epochs'], numMinibatches: 2, gamma: GAMMA, gaeLambda: GAE_LAMBDA, seed: s.seed }),
  );
  const rng = new Rng(deriveSeed(s.seed, 0x0c4e));
  const inference = new CentralInference(orchestrator, subagent, large, rng, {
    subagentTemperature: s['swarm.subagentTemperature'],
    directTemperature: 1,
  });

  const actorOptions = (actorIndex: number): SwarmActorOptions => ({ task, actorIndex, seed: s.seed });
  const actors = await createReportingPool(
    ctx,
    actorHandle(ctx, SwarmActor, 'SwarmActor'),
    s.actors,
    (i): [SwarmActorOptions] => [actorOptions(i)],
    async () => undefined,
  );
  const { pool } = actors;

  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(orchestrator);
  const E = s.envsPerActor;
  let switched = false;

  return progress.run(
    actors,
    async () => {
      while (progress.update < s['swarm.updates'] && progress.budgetLeft && (await progress.proceed())) {
        const update = progress.update;
        const t0 = performance.now();
        const sw = s['swarm.curriculumSwitch'];
        if (sw > 0 && update >= sw && !switched) {
          inference.subagent = large;
          switched = true;
          ctx.emit({ type: 'notice', level: 'info', message: `Curriculum: subagents switched from ${s['swarm.subagent']} to large at update ${update}` });
        }
        const { lambda1, lambda2 } = lambdasAt(schedules, update);
        const traceNow = s['swarm.traceEvery'] > 0 && (update + 1) % s['swarm.traceEvery'] === 0;

        // 2. Rollouts: actors own the sims; the learner answers every tick in one batch per model.
        const decisions: Decision[][][] = Array.from({ length: pool.size }, () => Array.from({ length: E }, () => []));
        const logs: Array<Array<EpisodeLog | null>> = Array.from({ length: pool.size }, () => new Array<EpisodeLog | null>(E).fill(null));
        let serialLog: EpisodeLog | null = null;
        const started = await pool.map('start', (i) => [update, E, traceNow && i === 0 ? 0 : null]);
        let pendings: SwarmPending[] = [];
        const alive = new Set<number>();
        started.forEach((r, i) => {
          if (r.status === 'fulfilled') {
            pendings[i] = r.value;
            alive.add(i);
          } else progress.lose();
        });
        let workerSteps = 0;
        let orchSteps = 0;
        const actorSteps = new Array<number>(pool.size).fill(0);
        while (alive.size > 0) {
          const ids = [...alive];
          for (const i of ids) {
            for (const f of pendings[i].finished) {
              if (f.serial) serialLog = f.log;
              else logs[i][f.slot] = f.log;
            }
            if (pendings[i].running === 0) alive.delete(i);
          }
          const active = [...alive];
          if (active.length === 0) break;
          const answer = await inference.tick(active.map((i) => pendings[i]));
          active.forEach((i, k) => {
            const p = pendings[i];
            const d = answer.orch[k];
            for (let r = 0; r < p.orchSlots.length; r++) {
              decisions[i][p.orchSlots[r]].push({
                obs: p.orchObs.slice(r * ORCH_OBS_DIM, (r + 1) * ORCH_OBS_DIM),
                action: d.actions[r],
                logProb: d.logProbs[r],
                value: d.values[r],
              });
            }
            orchSteps += p.orchSlots.length;
            workerSteps += p.workRole.length;
            actorSteps[i] += p.orchSlots.length + p.workRole.length;
          });
          const next = await Promise.allSettled(active.map((i, k) => pool.call(i, 'advance', answer.orch[k].actions, answer.work[k])));
          next.forEach((r, k) => {
            const i = active[k];
            if (r.status === 'fulfilled') pendings[i] = r.value;
            else {
              alive.delete(i);
              progress.lose();
              decisions[i] = Array.from({ length: E }, () => []);
              logs[i] = new Array<EpisodeLog | null>(E).fill(null);
              ctx.emit({ type: 'notice', level: 'warning', message: `Lost the episodes of actor ${i} this update: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}` });
            }
          });
        }
        pendings = [];

        // 3. PARL rewards and per-episode GAE.
        const stats: SwarmEpisodeStats[] = [];
        const obsRows: Float32Array[] = [];
        const actions: number[] = [];
        const logProbs: number[] = [];
        const values: number[] = [];
        const advantages: number[] = [];
        const returns: number[] = [];
        const lengths: number[] = [];
        let firstLog: EpisodeLog | null = null;
        for (let i = 0; i < pool.size; i++) {
          for (let e = 0; e < E; e++) {
            const log = logs[i][e];
            const ds = decisions[i][e];
            if (!log || ds.length === 0) continue;
            if (i === 0 && e === 0) firstLog = log;
            const st = swarmEpisodeStats(log, lambda1, lambda2, parallelCap);
            stats.push(st);
            const T = ds.length;
            const rew = new Float32Array(T);
            rew[T - 1] = st.total;
            const done = new Uint8Array(T);
            done[T - 1] = 1;
            const v = Float32Array.from(ds.map((d) => d.value));
            const g = gae(rew, v, done, new Float32Array(1), GAMMA, GAE_LAMBDA, 1);
            ds.forEach((d, t) => {
              obsRows.push(d.obs);
              actions.push(d.action);
              logProbs.push(d.logProb);
              values.push(d.value);
              advantages.push(g.advantages[t]);
              returns.push(g.returns[t]);
            });
            lengths.push(T);
          }
        }
        if (stats.length === 0) continue;

        // 4. One PPO update of the orchestrator.
        const B = actions.length;
        const obs = new Float32Array(B * ORCH_OBS_DIM);
        obsRows.forEach((o, k) => obs.set(o, k * ORCH_OBS_DIM));
        const lastGood = await agent.getWeightsAsync();
        const metrics = agent.learn({
          obs,
          actions: Int32Array.from(actions),
          batchSize: B,
          logProbs: Float32Array.from(logProbs),
          values: Float32Array.from(values),
          advantages: Float32Array.from(advantages),
          returns: Float32Array.from(returns),
        });
        if (pauseOnNonFinite(ctx, metrics, update + 1, () => agent.setWeights(lastGood))) continue;

        const dt = (performance.now() - t0) / 1000;
        const mean = (f: (x: SwarmEpisodeStats) => number) => stats.reduce((a, x) => a + f(x), 0) / stats.length;
        const stop = progress.finishUpdate({
          steps: workerSteps + orchSteps,
          startedAt: t0,
          returns: stats.map((x) => x.total),
          lengths,
          metrics: {
            ...metrics,
            lambda1,
            lambda2,
            rPerf: mean((x) => x.rPerf),
            finishRate: mean((x) => x.finishRate),
            avgParallelism: mean((x) => x.avgParallelism),
            criticalSteps: mean((x) => x.criticalSteps),
            criticalOverSerial: mean((x) => x.criticalSteps / Math.max(1, x.serialBaseline)),
            orchForwardCalls: inference.orchForwardCalls,
            subagentForwardCalls: inference.subagent.forwardCalls,
            ticks: inference.ticks,
          },
          actorStepsPerSecond: actorSteps.map((n) => n / Math.max(dt, 1e-9)),
        });
        const done = progress.update;
        const swarmRecord: SwarmUpdateRecord = { type: 'swarm', update: done, trainSteps: done, episodes: stats };
        ctx.emit(swarmRecord);
        if (traceNow && firstLog && serialLog) {
          ctx.emit({ type: 'trace', update: done, trace: buildEpisodeTrace(firstLog), serialTrace: buildEpisodeTrace(serialLog) });
        }
        if (stop) break;
      }
    },
    {
      release: () => {
        agent.dispose();
        subagent.dispose();
        large.dispose();
      },
    },
  );
}
