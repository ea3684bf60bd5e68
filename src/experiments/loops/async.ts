/**
 * Asynchronous actor-learner loop (IMPALA, Espeholt et al. 2018):
 *   - every actor runs its own producer: it samples a segment with the newest weights it has
 *     (actor inference) or with the learner choosing actions (learner inference), and pushes
 *     the segment into a bounded queue; a full queue makes it wait (backpressure);
 *   - the learner takes `segmentsPerBatch` segments, corrects for the policy lag with V-trace,
 *     updates, and publishes new weights every `broadcastInterval` updates;
 *   - each batch records its policy lag: learner version − the version that produced it.
 */
import { Rng, deriveSeed } from '../../core/rng';
import { envSpec } from '../../envs/registry';
import { BoundedQueue, QueueClosedError } from '../boundedQueue';
import { collectSegmentCentral, InferenceServer } from '../centralInference';
import type { UpdateRecord } from '../records';
import { RolloutActor, type RolloutActorOptions } from '../rolloutActor';
import { concatSegments, validateSegment, type Segment } from '../segments';
import { modelSpecFor } from '../modelSpec';
import { actorHandle, createReportingPool, DemoTicker, EpisodeTracker, passGate, pauseOnNonFinite } from './common';
import { makeSegmentLearner } from './onPolicy';
import type { LoopContext, LoopOutcome } from './types';

/** Policy lag of each segment in a batch: learner version minus the version that produced it. */
export function policyLags(learnerVersion: number, segs: readonly { policyVersion: number }[]): number[] {
  return segs.map((s) => learnerVersion - s.policyVersion);
}

export async function asyncLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const learner = makeSegmentLearner(ctx.config);
  const T = s['sampling.segmentLength'];
  const central = s.inference === 'learner';
  const server = new InferenceServer(learner.model, spec.obsDim, spec.numActions, new Rng(deriveSeed(s.seed, 0xce27)));
  const queue = new BoundedQueue<Segment>(s['sampling.queueCapacity']);
  const perBatch = Math.min(s['sampling.segmentsPerBatch'], s['sampling.queueCapacity']);

  // The weights the producers act with, and their version.
  let published = { weights: await learner.model.getWeightsAsync(), version: 0 };
  const sentVersion = new Array<number>(s.actors).fill(-1);
  let stopping = false;
  let lostSegments = 0;

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
    async (actor, index) => {
      await actor.init();
      sentVersion[index] = -1; // a new actor needs the weights again
    },
  );

  const produce = async (i: number): Promise<void> => {
    while (!stopping) {
      let seg: Segment;
      try {
        if (central) {
          seg = await collectSegmentCentral(
            { resetVector: () => pool.call(i, 'resetVector'), stepVector: (a) => pool.call(i, 'stepVector', a) },
            server,
            i,
            published.version,
            T,
            spec.obsDim,
          );
        } else {
          const { weights, version } = published;
          const fresh = sentVersion[i] !== version;
          seg = await pool.call(i, 'sampleSegment', fresh ? weights.map((w) => w.slice()) : null, version, T, 0);
          sentVersion[i] = version;
        }
      } catch {
        if (stopping) return;
        lostSegments += 1;
        continue;
      }
      const problem = validateSegment(seg, spec.obsDim, spec.numActions);
      if (problem) {
        lostSegments += 1;
        ctx.emit({ type: 'notice', level: 'warning', message: `Rejected a segment from actor ${i}: ${problem}` });
        continue;
      }
      try {
        await queue.push(seg);
      } catch (err) {
        if (err instanceof QueueClosedError) return;
        throw err;
      }
    }
  };
  const producers = Array.from({ length: s.actors }, (_, i) => produce(i));

  const demo = new DemoTicker();
  const tracker = new EpisodeTracker(s['run.targetReturn']);
  let envSteps = 0;
  let update = 0;
  let lostReported = 0;
  let stopReason: LoopOutcome['stopReason'] = 'budget';
  let error: string | undefined;

  try {
    while (envSteps < s['run.envSteps']) {
      if (!(await passGate(ctx))) {
        stopReason = 'stopped';
        break;
      }
      const t0 = performance.now();
      const segs = await queue.take(perBatch);
      if (!segs) break;
      const lags = policyLags(update, segs);
      const seg = concatSegments(segs);
      const before = published.weights;
      const metrics = await learner.learn(seg);
      if (pauseOnNonFinite(ctx, metrics, update + 1, () => learner.model.setWeights(before))) continue;

      const steps = seg.T * seg.numEnvs;
      envSteps += steps;
      update += 1;
      if (update % s['sampling.broadcastInterval'] === 0) published = { weights: await learner.model.getWeightsAsync(), version: update };
      tracker.add(seg.episodeReturns, envSteps, ctx.clock());
      const dt = (performance.now() - t0) / 1000;
      const lostNow = lostSegments - lostReported;
      lostReported = lostSegments;
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
        metrics: { ...metrics, queueSize: queue.size, blockedPushes: queue.blockedPushes },
        actorStepsPerSecond: Array.from({ length: s.actors }, (_, i) => {
          const x = segs.find((g) => g.actorIndex === i);
          return x ? (x.T * x.numEnvs) / Math.max(x.seconds, 1e-9) : 0;
        }),
        lostSegments: lostNow,
        policyLags: lags,
      };
      ctx.emit(record);
      demo.tick(ctx, pool, update, () => published.weights.map((w) => w.slice()));
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
    stopping = true;
    queue.close();
    emitStatus();
    ctx.setCrashTarget(null);
    await pool.terminate();
    await Promise.allSettled(producers);
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
