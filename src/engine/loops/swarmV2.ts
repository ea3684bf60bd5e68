/**
 * The second swarm's training loop (algorithm 'swarm-v2', src/config/algorithms/swarmV2.ts):
 *   1. Before anything runs: read the settings into a decomposition spec and check it (a budget
 *      below the task's lower bound, an unknown subagent kind, a bad skill table end the run here
 *      with a message naming it).
 *   2. Each update, every DecompActor (a worker that owns its episodes' sims and runs no network)
 *      runs `envsPerActor` episodes; the learner answers every tick of every actor with ONE
 *      forward pass of the set policy (src/swarm/decompRollouts.ts).
 *   3. Each finished episode gets the PARL reward v2 at the update's λ1, λ2; one PPO update
 *      (src/swarm/decompLearner.ts).
 *   4. Records: 'update' (returns = PARL totals; metrics carry critical steps, serial baseline,
 *      ratio, r_perf, parallelism, finish rate, total compute, forward calls per tick), 'swarm' and,
 *      every `swarm2.traceEvery` updates, a 'decompTrace':
 *      one episode on a task of its own seed, actions sampled from π with the new weights and a
 *      random stream of its own (the learner's stream and counts are left alone), src/swarm/decompTrace.ts.
 */
import { DEFAULT_SKILL_TABLE } from '../../envs/swarm/decompositionSkills';
import type { ExperimentSettings } from '../../config/settings';
import { DecompActor, type DecompPending, type DecompTaskSpec } from '../../swarm/decompActor';
import { ActorDiedError } from '../../core/remote/errors';
import type { RemoteActor } from '../../core/remote/remoteClass';
import { DecompLearner, actorSpecOf, validateDecompSpec, type DecompTrainingOptions } from '../../swarm/decompLearner';
import { SetInference, type DecompActors } from '../../swarm/decompRollouts';
import { buildDecompTrace, decompTraceRng, decompTraceSeed, playTracedDecompEpisode, type DecompTrace } from '../../swarm/decompTrace';
import { RECORD_LIMITS } from '../../runs/records';
import { loadMeasuredSkillTable } from '../../swarm/subagentSkills';
import { actorHandle, createReportingPool, LoopProgress, pauseOnNonFinite } from './common';
import type { LoopContext, LoopOutcome } from './types';


/** The decomposition spec and training options of a swarm-v2 config (skills measured from the checkpoints are loaded by the loop). */
export function swarmV2OptionsFrom(s: ExperimentSettings): DecompTrainingOptions {
  const H = s['swarm2.annealUpdates'];
  const spec: DecompTaskSpec = {
    task: { numSubtasks: s['swarm2.subtasks'], chainFraction: s['swarm2.chainFraction'], maxChainLength: s['swarm2.maxChainLength'] },
    rules: {
      budgetFraction: s['swarm2.budgetFraction'],
      contextFraction: s['swarm2.contextFraction'],
      limits: { subagentStepCap: s['swarm2.subagentStepCap'] },
    },
    skills: DEFAULT_SKILL_TABLE,
    maxDecisions: s['swarm2.maxDecisions'],
    episodesPerTask: s['swarm2.episodesPerTask'],
    ...(s['swarm2.skills'] === 'latent' ? { latentSkills: true } : {}),
  };
  return {
    spec,
    seed: s.seed,
    hidden: s['swarm2.hidden'],
    lr: s['swarm2.lr'],
    entCoef: s['swarm2.entCoef'],
    updateEpochs: s['swarm2.updateEpochs'],
    numMinibatches: s['swarm2.numMinibatches'],
    updates: s['swarm2.updates'],
    actors: s.actors,
    episodesPerActor: s.envsPerActor,
    lambda1: { kind: s['swarm2.lambda1Schedule'], start: s['swarm2.lambda1'], horizon: H },
    lambda2: { kind: s['swarm2.lambda2Schedule'], start: s['swarm2.lambda2'], horizon: H },
    parallelCap: s['swarm2.parallelCap'],
    gaeLambda: s['swarm2.gaeLambda'],
  };
}

export async function swarmV2Loop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  let options: DecompTrainingOptions;
  try {
    options = swarmV2OptionsFrom(s);
    if (s['swarm2.skills'] === 'checkpoints') {
      const measured = await loadMeasuredSkillTable();
      options = { ...options, spec: { ...options.spec, skills: measured.skills, rules: { ...options.spec.rules, ...measured.rules } } };
    }
    validateDecompSpec(options.spec, options.seed);
  } catch (e) {
    return cannotRun(ctx, `The swarm-v2 config cannot run: ${e instanceof Error ? e.message : String(e)}`);
  }
  const actorSpec = actorSpecOf(options);
  const reporting = await createReportingPool(ctx, actorHandle(ctx, DecompActor), s.actors, (i): [{ spec: DecompTaskSpec; actorIndex: number; seed: number }] => [{ spec: actorSpec, actorIndex: i, seed: s.seed }], async () => undefined);
  const pool = reporting.pool;
  const progress = new LoopProgress(ctx);
  // An actor that dies mid-update (a crash, the crash button) loses its unfinished episodes; the
  // pool replaces it, and the replacement starts afresh at the next update.
  const orLost = async (i: number, call: Promise<DecompPending>): Promise<DecompPending> => {
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
  const startedOn: RemoteActor<DecompActor>[] = [];
  const actors: DecompActors = {
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
  const learner = DecompLearner.create(options, actors);
  progress.keepCheckpoints(learner.model);
  // The learning rate and entropy weight change in the update rule; λ1, λ2 and their schedules are read from the settings each update.
  progress.applyChangesTo(learner.agent.alg);

  return progress.run(
    reporting,
    async () => {
      while (progress.update < options.updates && (await progress.proceed())) {
        const startedAt = performance.now();
        const now = swarmV2OptionsFrom(s);
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
        const traceEvery = s['swarm2.traceEvery'];
        if (traceEvery > 0 && progress.update % traceEvery === 0) {
          ctx.emit({ type: 'decompTrace', update: progress.update, trace: await traceEpisode(learner, options.spec, s.seed, progress.update) });
        }
        if (stop) break;
      }
    },
    { release: () => learner.dispose() },
  );
}

/** One sampled episode of the current policy, traced (one forward pass of batch 1 per decision). */
async function traceEpisode(learner: DecompLearner, spec: DecompTaskSpec, seed: number, update: number): Promise<DecompTrace> {
  const inference = new SetInference(learner.model, decompTraceRng(seed, update), 'sample');
  const episode = await playTracedDecompEpisode(spec, decompTraceSeed(seed, update), async (obs) => (await inference.decide(obs, 1)).actions[0], 'sampled');
  const L = RECORD_LIMITS;
  return buildDecompTrace(episode, { stages: L.decompTraceStages, subagents: L.decompTraceSubagents, items: L.decompTraceItems });
}

function cannotRun(ctx: LoopContext, error: string): LoopOutcome {
  ctx.emit({ type: 'notice', level: 'error', message: error });
  return { updates: 0, envSteps: 0, episodes: 0, finalMeanReturn20: null, solved: null, stopReason: 'error', error, lostSegments: 0, actorRespawns: 0 };
}
