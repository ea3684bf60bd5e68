/**
 * The swarm's training loop (algorithm 'swarm', src/config/algorithms/swarm.ts):
 *   1. Before anything runs: read the settings into a decomposition spec and check it (a budget
 *      below the task's lower bound, an unknown subagent kind, a bad skill table end the run here
 *      with a message naming it).
 *   2. Each update, every SwarmActor (a worker that owns its episodes' sims and runs no network)
 *      runs `envsPerActor` episodes; the learner answers every tick of every actor with ONE
 *      forward pass of the set policy (src/swarm/swarmRollouts.ts).
 *   3. Each finished episode gets the PARL reward at the update's λ1, λ2; one PPO update
 *      (src/swarm/swarmLearner.ts).
 *   4. Records: 'update' (returns = PARL totals; metrics carry critical steps, serial baseline,
 *      ratio, r_perf, parallelism, finish rate, total compute, forward calls per tick), 'swarm' and,
 *      every `swarm.traceEvery` updates, a 'swarmTrace':
 *      one episode on a task of its own seed, actions sampled from π with the new weights and a
 *      random stream of its own (the learner's stream and counts are left alone), src/swarm/swarmTrace.ts.
 */
import { DEFAULT_SKILL_TABLE } from '../../envs/swarm/decompositionSkills';
import type { ExperimentSettings } from '../../config/settings';
import { SwarmActor, type SwarmPending, type SwarmTaskSpec } from '../../swarm/swarmActor';
import { ActorDiedError } from '../../core/remote/errors';
import type { RemoteActor } from '../../core/remote/remoteClass';
import { SwarmLearner, actorSpecOf, validateSwarmSpec, type SwarmTrainingOptions } from '../../swarm/swarmLearner';
import { SetInference, type SwarmActors } from '../../swarm/swarmRollouts';
import { buildSwarmTrace, swarmTraceRng, swarmTraceSeed, playTracedSwarmEpisode, type SwarmTrace } from '../../swarm/swarmTrace';
import { RECORD_LIMITS } from '../../runs/records';
import { loadMeasuredSkillTable } from '../../swarm/subagentSkills';
import { actorHandle, createReportingPool, LoopProgress, pauseOnNonFinite } from './common';
import type { LoopContext, LoopOutcome } from './types';


/** The decomposition spec and training options of a swarm config (skills measured from the checkpoints are loaded by the loop). */
export function swarmOptionsFrom(s: ExperimentSettings): SwarmTrainingOptions {
  const H = s['swarm.annealUpdates'];
  const spec: SwarmTaskSpec = {
    task: { numSubtasks: s['swarm.subtasks'], chainFraction: s['swarm.chainFraction'], maxChainLength: s['swarm.maxChainLength'] },
    rules: {
      budgetFraction: s['swarm.budgetFraction'],
      contextFraction: s['swarm.contextFraction'],
      limits: { subagentStepCap: s['swarm.subagentStepCap'] },
    },
    skills: DEFAULT_SKILL_TABLE,
    maxDecisions: s['swarm.maxDecisions'],
    episodesPerTask: s['swarm.episodesPerTask'],
    ...(s['swarm.skills'] === 'latent' ? { latentSkills: true } : {}),
  };
  return {
    spec,
    seed: s.seed,
    hidden: s['swarm.hidden'],
    lr: s['swarm.lr'],
    entCoef: s['swarm.entCoef'],
    updateEpochs: s['swarm.updateEpochs'],
    numMinibatches: s['swarm.numMinibatches'],
    updates: s['swarm.updates'],
    actors: s.actors,
    episodesPerActor: s.envsPerActor,
    lambda1: { kind: s['swarm.lambda1Schedule'], start: s['swarm.lambda1'], horizon: H },
    lambda2: { kind: s['swarm.lambda2Schedule'], start: s['swarm.lambda2'], horizon: H },
    parallelCap: s['swarm.parallelCap'],
    gaeLambda: s['swarm.gaeLambda'],
  };
}

export async function swarmLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  let options: SwarmTrainingOptions;
  try {
    options = swarmOptionsFrom(s);
    if (s['swarm.skills'] === 'checkpoints') {
      const measured = await loadMeasuredSkillTable();
      options = { ...options, spec: { ...options.spec, skills: measured.skills, rules: { ...options.spec.rules, ...measured.rules } } };
    }
    validateSwarmSpec(options.spec, options.seed);
  } catch (e) {
    return cannotRun(ctx, `The swarm config cannot run: ${e instanceof Error ? e.message : String(e)}`);
  }
  const actorSpec = actorSpecOf(options);
  const reporting = await createReportingPool(ctx, actorHandle(ctx, SwarmActor), s.actors, (i): [{ spec: SwarmTaskSpec; actorIndex: number; seed: number }] => [{ spec: actorSpec, actorIndex: i, seed: s.seed }], async () => undefined);
  const pool = reporting.pool;
  const progress = new LoopProgress(ctx);
  // An actor that dies mid-update (a crash, the crash button) loses its unfinished episodes; the
  // pool replaces it, and the replacement starts afresh at the next update.
  const orLost = async (i: number, call: Promise<SwarmPending>): Promise<SwarmPending> => {
    try {
      return await call;
    } catch (err) {
      if (!(err instanceof ActorDiedError)) throw err;
      progress.lose();
      ctx.emit({ type: 'notice', level: 'warning', message: `Lost the unfinished episodes of actor ${i} this update: ${err.message}` });
      return { actorIndex: i, obs: new Float32Array(0), slots: new Int32Array(0), finished: [], running: 0 };
    }
  };
  // The actor each update's episodes started on: they advance there, never on a replacement.
  const startedOn: RemoteActor<SwarmActor>[] = [];
  const actors: SwarmActors = {
    get size() {
      return pool.size;
    },
    start: async (i, update, episodes, taskSeeds) => {
      await pool.ready(i);
      startedOn[i] = pool.actor(i);
      return orLost(i, pool.callOn(i, startedOn[i], 'start', update, episodes, taskSeeds));
    },
    advance: (i, actions) => orLost(i, pool.callOn(i, startedOn[i], 'advance', actions)),
  };
  const learner = SwarmLearner.create(options, actors);
  progress.keepCheckpoints(learner.model);
  // The learning rate and entropy weight change in the update rule; λ1, λ2 and their schedules are read from the settings each update.
  progress.applyChangesTo(learner.agent.alg);

  return progress.run(
    reporting,
    async () => {
      while (progress.update < options.updates && (await progress.proceed())) {
        const startedAt = performance.now();
        const now = swarmOptionsFrom(s);
        learner.setSchedules({ lambda1: now.lambda1, lambda2: now.lambda2 });
        const lastGood = await learner.model.getWeightsAsync();
        const r = await learner.update();
        if (r.stats.length === 0) continue;
        if (pauseOnNonFinite(ctx, r.metrics, progress.update + 1, () => learner.model.setWeights(lastGood))) continue;
        const steps = r.outcomes.reduce((a, o) => a + o.totalCompute, 0);
        const stop = progress.finishUpdate({
          steps,
          startedAt,
          returns: r.stats.map((x) => x.total),
          lengths: r.lengths,
          metrics: r.metrics,
          actorStepsPerSecond: Array.from({ length: actors.size }, (_, i) => r.outcomes.filter((_o, k) => r.rollouts.episodes[k]?.actorIndex === i).reduce((a, o) => a + o.totalCompute, 0) / Math.max(r.seconds, 1e-9)),
        });
        ctx.emit({ type: 'swarm', update: progress.update, trainSteps: progress.update, episodes: r.stats });
        const traceEvery = s['swarm.traceEvery'];
        if (traceEvery > 0 && progress.update % traceEvery === 0) {
          ctx.emit({ type: 'swarmTrace', update: progress.update, trace: await traceEpisode(learner, options.spec, s.seed, progress.update) });
        }
        if (stop) break;
      }
    },
    { release: () => learner.dispose() },
  );
}

/** One sampled episode of the current policy, traced (one forward pass of batch 1 per decision). */
async function traceEpisode(learner: SwarmLearner, spec: SwarmTaskSpec, seed: number, update: number): Promise<SwarmTrace> {
  const inference = new SetInference(learner.model, swarmTraceRng(seed, update), 'sample');
  const episode = await playTracedSwarmEpisode(spec, swarmTraceSeed(seed, update), async (obs) => (await inference.decide(obs, 1)).actions[0], 'sampled');
  const L = RECORD_LIMITS;
  return buildSwarmTrace(episode, { stages: L.swarmTraceStages, subagents: L.swarmTraceSubagents, items: L.swarmTraceItems });
}

function cannotRun(ctx: LoopContext, error: string): LoopOutcome {
  ctx.emit({ type: 'notice', level: 'error', message: error });
  return { updates: 0, envSteps: 0, episodes: 0, finalMeanReturn20: null, solved: null, stopReason: 'error', error, lostSegments: 0, actorRespawns: 0 };
}
