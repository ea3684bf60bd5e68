/**
 * The agent swarm's training loop (Kimi K2.5's PARL, algorithm 'swarm-ppo'):
 *   1. Before anything runs: check the task config and load + validate the frozen subagent
 *      checkpoints (a bad config or checkpoint ends the run here with a message naming it).
 *   2. Each update, every SwarmActor runs `envsPerActor` episodes; the learner answers every tick
 *      of every actor with one batched pass per model (src/swarm/rollouts.ts).
 *   3. Each finished episode gets the PARL reward at the current step t, with
 *      λi(t) = scheduleValue(schedule_i, t), and per-episode advantages (src/swarm/batch.ts).
 *   4. One PPO update of the orchestrator on every decision of the update, through the Agent.
 *   5. Records: 'update' (returns = PARL totals), 'swarm' (every component of every episode) and,
 *      every `swarm.traceEvery` updates, a 'trace' with the same task run serially beside it.
 * Here t = the number of orchestrator updates done so far (`trainSteps`).
 */
import { swarmOrchestratorOptionsFrom, swarmSubagentOptionsFrom, swarmTaskConfigFrom, swarmTrainingOptionsFrom } from '../../config/swarmConfig';
import { buildSwarmBatch, swarmUpdateMetrics } from '../../swarm/batch';
import { SwarmLearner } from '../../swarm/learner';
import { collectSwarmRollouts } from '../../swarm/rollouts';
import { lambdasAt } from '../../swarm/schedules';
import { SwarmActor, type SwarmActorOptions } from '../../swarm/swarmActor';
import { validateSwarmTaskConfig, type SwarmTaskConfig } from '../../swarm/tasks';
import { buildEpisodeTrace } from '../../swarm/trace';
import { ORCH_ACTION_NAMES } from '../../swarm/orchestrator';
import { actorHandle, createReportingPool, LoopProgress, pauseOnNonFinite } from './common';
import type { LoopContext, LoopOutcome } from './types';

export async function swarmLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const plan = swarmTrainingOptionsFrom(s);
  let task: SwarmTaskConfig;
  let learner: SwarmLearner;
  try {
    task = swarmTaskConfigFrom(s);
    validateSwarmTaskConfig(task);
    learner = await SwarmLearner.create(swarmOrchestratorOptionsFrom(s), swarmSubagentOptionsFrom(s));
  } catch (e) {
    return cannotRun(ctx, `The swarm config cannot run: ${e instanceof Error ? e.message : String(e)}`);
  }
  const actors = await createReportingPool(ctx, actorHandle(ctx, SwarmActor), s.actors, (i): [SwarmActorOptions] => [{ task, actorIndex: i, seed: s.seed }], async () => undefined);
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(learner.orchestrator);
  progress.applyChangesTo(learner.agent.alg);
  const onLost = (_: number, notice: string | null) => {
    progress.lose();
    if (notice) ctx.emit({ type: 'notice', level: 'warning', message: notice });
  };

  return progress.run(
    actors,
    async () => {
      while (progress.update < plan.updates && (await progress.proceed())) {
        const update = progress.update;
        const startedAt = performance.now();
        if (learner.switchSubagentsAt(update)) {
          ctx.emit({ type: 'notice', level: 'info', message: `Curriculum: subagents switched from ${s['swarm.subagent']} to large at update ${update}` });
        }
        // Read each update: λ1, λ2 and their schedules can change while the run trains.
        const lambdas = lambdasAt(swarmTrainingOptionsFrom(s).schedules, update);
        const traceNow = plan.traceEvery > 0 && (update + 1) % plan.traceEvery === 0;
        const rollouts = await collectSwarmRollouts(actors.pool, learner.inference, { update, episodesPerActor: plan.episodesPerActor, serialTwin: traceNow }, onLost);
        const built = buildSwarmBatch(rollouts.episodes, { ...lambdas, parallelCap: plan.parallelCap });
        if (!built) continue;

        // The traced episode's π(·|s) at each decision, from the weights it acted with (before this update's step).
        const traced = rollouts.episodes[0];
        const stageProbs = traceNow && traced ? await learner.policyAt(traced.decisions.map((d) => d.obs)) : undefined;
        const lastGood = await learner.agent.getWeightsAsync();
        const metrics = learner.agent.learn(built.batch);
        if (pauseOnNonFinite(ctx, metrics, update + 1, () => learner.agent.setWeights(lastGood))) continue;

        const dt = (performance.now() - startedAt) / 1000;
        const stop = progress.finishUpdate({
          steps: rollouts.steps,
          startedAt,
          returns: built.stats.map((x) => x.total),
          lengths: built.lengths,
          metrics: { ...metrics, ...lambdas, ...swarmUpdateMetrics(built.stats), ...learner.inferenceCounts() },
          actorStepsPerSecond: rollouts.actorSteps.map((n) => n / Math.max(dt, 1e-9)),
        });
        const done = progress.update;
        ctx.emit({ type: 'swarm', update: done, trainSteps: done, episodes: built.stats });
        const first = rollouts.episodes[0];
        if (traceNow && first?.actorIndex === 0 && first.slot === 0 && rollouts.serialLog) {
          ctx.emit({ type: 'trace', update: done, trace: buildEpisodeTrace(first.log), serialTrace: buildEpisodeTrace(rollouts.serialLog), stageProbs, stageActions: stageProbs ? traced?.decisions.map((d) => d.action) : undefined, actionNames: [...ORCH_ACTION_NAMES] });
        }
        if (stop) break;
      }
    },
    { release: () => learner.dispose() },
  );
}

function cannotRun(ctx: LoopContext, error: string): LoopOutcome {
  ctx.emit({ type: 'notice', level: 'error', message: error });
  return { updates: 0, envSteps: 0, episodes: 0, finalMeanReturn20: null, solved: null, stopReason: 'error', error, lostSegments: 0, actorRespawns: 0 };
}
