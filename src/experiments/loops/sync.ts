/**
 * Synchronous on-policy loop (A2C, PPO), after A2C / PPO's vectorised collection:
 *   1. every actor gets the current weights (actor inference) or stands by (learner inference),
 *   2. every actor runs its N env copies for T steps, one message per segment,
 *   3. the learner joins the segments along the env axis, computes V(s) in one batched pass,
 *      and runs the algorithm's update (GAE inside). Policy lag is 0 by construction.
 * With learner inference the actors only step envs; the learner batches every actor's
 * observations into one forward pass per step (SEED style).
 */
import { Rng, deriveSeed } from '../../core/rng';
import { envSpec } from '../../envs/registry';
import { collectSegmentCentral, InferenceServer } from '../centralInference';
import type { UpdateRecord } from '../records';
import { RolloutActor, type RolloutActorOptions } from '../rolloutActor';
import { concatSegments, validateSegment, type Segment } from '../segments';
import { modelSpecFor } from '../modelSpec';
import { actorHandle, createReportingPool, DemoTicker, EpisodeTracker, passGate, pauseOnNonFinite } from './common';
import { makeSegmentLearner } from './onPolicy';
import type { LoopContext, LoopOutcome } from './types';

export async function syncLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const learner = makeSegmentLearner(ctx.config);
  const T = s['sampling.segmentLength'];
  const central = s.inference === 'learner';
  // Every actor asks at every step, so the server can wait for all of them: one pass per step.
  const server = new InferenceServer(learner.model, spec.obsDim, spec.numActions, new Rng(deriveSeed(s.seed, 0xce27)), 1_000);

  const actorOptions = (actorIndex: number): RolloutActorOptions => ({
    envId: s['env.id'],
    numEnvs: s.envsPerActor,
    seed: s.seed,
    actorIndex,
    model: modelSpecFor(ctx.config, 'actorCritic'),
    backend: 'wasm',
    wasmPaths: ctx.platform.wasmPaths,
  });
  const { pool, respawns, emitStatus } = await createReportingPool(
    ctx,
    actorHandle(ctx, RolloutActor, 'RolloutActor'),
    s.actors,
    (i): [RolloutActorOptions] => [actorOptions(i)],
    async (actor) => {
      await actor.init();
    },
  );

  const demo = new DemoTicker();
  const tracker = new EpisodeTracker(s['run.targetReturn']);
  const budget = s['run.envSteps'];
  let envSteps = 0;
  let update = 0;
  let lostSegments = 0;
  // Lost segments not yet reported in an update record (an update can lose every segment).
  let unreported = 0;
  let stopReason: LoopOutcome['stopReason'] = 'budget';
  let error: string | undefined;

  try {
    while (envSteps < budget) {
      if (!(await passGate(ctx))) {
        stopReason = 'stopped';
        break;
      }
      const t0 = performance.now();
      if (learner.annealLr) learner.algorithm.setLearningRate(learner.lr * (1 - envSteps / budget));
      const weights = await learner.model.getWeightsAsync();
      const results = central
        ? await Promise.allSettled(
            Array.from({ length: pool.size }, (_, i) =>
              collectSegmentCentral(
                { resetVector: () => pool.call(i, 'resetVector'), stepVector: (a) => pool.call(i, 'stepVector', a) },
                server,
                i,
                update,
                T,
                spec.obsDim,
              ),
            ),
          )
        : await pool.map('sampleSegment', () => [weights.map((w) => w.slice()), update, T, 0]);

      const segs: Segment[] = [];
      let lostNow = 0;
      results.forEach((r, i) => {
        if (r.status === 'rejected') {
          lostNow += 1;
          return;
        }
        const problem = validateSegment(r.value, spec.obsDim, spec.numActions);
        if (problem) {
          lostNow += 1;
          ctx.emit({ type: 'notice', level: 'warning', message: `Rejected a segment from actor ${i}: ${problem}` });
        } else segs.push(r.value);
      });
      lostSegments += lostNow;
      unreported += lostNow;
      if (segs.length === 0) continue;

      const seg = concatSegments(segs);
      const metrics = await learner.learn(seg);
      if (pauseOnNonFinite(ctx, metrics, update + 1, () => learner.model.setWeights(weights))) continue;

      const steps = seg.T * seg.numEnvs;
      envSteps += steps;
      update += 1;
      tracker.add(seg.episodeReturns, envSteps, ctx.clock());
      const dt = (performance.now() - t0) / 1000;
      const record: UpdateRecord = {
        type: 'update',
        update,
        envSteps,
        episodes: tracker.episodes,
        wallSeconds: ctx.clock(),
        returns: Array.from(seg.episodeReturns),
        lengths: Array.from(seg.episodeLengths),
        meanReturn20: tracker.meanReturn20(),
        stepsPerSecond: steps / Math.max(dt, 1e-9),
        metrics: central ? { ...metrics, forwardCalls: server.forwardCalls } : metrics,
        actorStepsPerSecond: Array.from({ length: s.actors }, (_, i) => {
          const x = segs.find((g) => g.actorIndex === i);
          return x ? (x.T * x.numEnvs) / Math.max(x.seconds, 1e-9) : 0;
        }),
        lostSegments: unreported,
        policyLags: segs.map(() => 0),
      };
      unreported = 0;
      ctx.emit(record);
      demo.tick(ctx, pool, update, () => weights.map((w) => w.slice()));
      if (tracker.solved && s['run.stopAtTarget']) {
        stopReason = 'target';
        break;
      }
    }
  } catch (err) {
    stopReason = 'error';
    error = err instanceof Error ? err.message : String(err);
    ctx.emit({ type: 'notice', level: 'error', message: `Training stopped: ${error}` });
  } finally {
    emitStatus();
    ctx.setCrashTarget(null);
    await pool.terminate();
    learner.dispose();
  }

  return {
    updates: update,
    envSteps,
    episodes: tracker.episodes,
    finalMeanReturn20: tracker.meanReturn20(),
    solved: tracker.solved,
    stopReason,
    lostSegments,
    actorRespawns: respawns(),
    ...(error ? { error } : {}),
  };
}
