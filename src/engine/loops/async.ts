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
import { BoundedQueue } from '../boundedQueue';
import { collectSegmentCentral, InferenceServer } from '../centralInference';
import { concatSegments, validateSegment, type Segment } from '../segments';
import { actorRates, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite, rolloutPool } from './common';
import { buildLearner } from '../learner';
import { callWithWeights, produceInto, produceIntoStream } from '../producers';
import { VtraceSegmentAgent } from '../segmentAgents';
import type { LoopContext, LoopOutcome } from './types';
import { openStreamedExperience } from '../streamedExperience';

/** Policy lag of each segment in a batch: learner version minus the version that produced it. */
export function policyLags(learnerVersion: number, segs: readonly { policyVersion: number }[]): number[] {
  return segs.map((s) => learnerVersion - s.policyVersion);
}

export async function asyncLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const { model, algorithm } = await buildLearner(ctx.config, 'actorCritic');
  const agent = new VtraceSegmentAgent(algorithm);
  const T = s['sampling.segmentLength'];
  const central = s.inference === 'learner';
  const server = new InferenceServer(model, spec.obsDim, spec.numActions, new Rng(deriveSeed(s.seed, 0xce27)));
  const queue = new BoundedQueue<Segment>(s['sampling.queueCapacity']);
  const perBatch = Math.min(s['sampling.segmentsPerBatch'], s['sampling.queueCapacity']);

  // The weights the producers act with, and their version.
  let published = { weights: await agent.getWeightsAsync(), version: 0 };
  // Cluster actors: segments and weights go through JetStream (src/engine/streamedExperience.ts, implemented by src/cluster); null otherwise.
  const stream = central ? null : await openStreamedExperience({ config: ctx.config, capacity: s['sampling.queueCapacity'], check: (x) => validateSegment(x, spec.obsDim, spec.numActions) });
  if (stream?.resumed) {
    agent.setWeights(stream.resumed.weights);
    // The checkpoint's weights are the learner's after its update `resumed.update`: that is their version.
    published = { weights: await agent.getWeightsAsync(), version: stream.resumed.update };
  }
  await stream?.publishWeights(published.version, published.weights);
  const sentVersion = new Array<number>(s.actors).fill(-1);
  let stopping = false;
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(model);
  progress.applyChangesTo(algorithm);
  if (stream?.resumed) {
    // A resumed run counts its updates on from its checkpoint (policy lags stay update − version ≥ 0),
    // and its budget too: the steps learned before (a checkpoint that did not keep them: every update took a full batch).
    progress.update = stream.resumed.update;
    progress.envSteps = stream.resumed.envSteps ?? stream.resumed.update * perBatch * T * s.envsPerActor;
    if (!progress.budgetLeft) {
      const n = (x: number): string => x.toLocaleString('en-US');
      ctx.emit({ type: 'notice', level: 'info', message: `This run has finished: its checkpoint in the cluster has ${n(progress.envSteps)} of its ${n(s['run.envSteps'])} steps (update ${n(progress.update)}). Nothing to train; another budget or seed starts a new run.` });
      const finished = { update: progress.update, version: published.version, weights: published.weights, envSteps: progress.envSteps };
      return progress.run({ close: async () => undefined, respawns: () => 0 }, async () => undefined, {
        stopping: () => stream.stop(),
        release: async () => {
          await stream.close(finished).catch(() => undefined);
          agent.dispose();
        },
      });
    }
  }
  const greedyEpisodes = new GreedyEpisodeTicker();
  const actors = await rolloutPool(ctx, 'actorCritic', s.envsPerActor, (index) => {
    sentVersion[index] = -1; // a new actor needs the weights again
  });
  const { pool } = actors;

  const produce = async (i: number): Promise<void> => {
    if (stream) {
      // The host fetches the weights of this version and puts the segment into the stream.
      return produceIntoStream(i, { stream, progress, stopping: () => stopping, building: () => pool.building(i), request: () => pool.call(i, 'sampleSegment', null, published.version, T, 0) });
    }
    await produceInto(i, {
      queue,
      progress,
      stopping: () => stopping,
      fetch: async () => {
        if (central) {
          return collectSegmentCentral(
            { resetVector: () => pool.call(i, 'resetVector'), stepVector: (a) => pool.call(i, 'stepVector', a) },
            server,
            i,
            published.version,
            T,
            spec.obsDim,
          );
        }
        return callWithWeights(sentVersion, i, published, (weights, version) => pool.call(i, 'sampleSegment', weights, version, T, 0));
      },
      check: (x) => validateSegment(x, spec.obsDim, spec.numActions),
    });
  };
  const producers = Array.from({ length: s.actors }, (_, i) => produce(i));

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        const segs = stream ? await stream.take(perBatch) : await queue.take(perBatch);
        if (!segs || segs.length === 0) break;
        const lags = policyLags(progress.update, segs);
        const seg = concatSegments(segs);
        const before = published.weights;
        const metrics = await agent.learnSegment(seg);
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => agent.setWeights(before))) continue;
        const update = progress.update + 1;
        if (update % s['sampling.broadcastInterval'] === 0) {
          const weights = await agent.getWeightsAsync();
          await stream?.publishWeights(update, weights);
          published = { weights, version: update };
        }
        const stop = progress.finishUpdate({
          steps: seg.T * seg.numEnvs,
          startedAt,
          returns: seg.episodeReturns,
          lengths: seg.episodeLengths,
          metrics: { ...metrics, queueSize: queue.size, blockedPushes: queue.blockedPushes },
          actorStepsPerSecond: actorRates(s.actors, segs, (performance.now() - startedAt) / 1000),
          policyLags: lags,
        });
        await stream?.commit(progress.update, published.version, () => agent.getWeightsAsync(), progress.envSteps);
        greedyEpisodes.tick(ctx, pool, progress.update, () => published.weights.map((w) => w.slice()));
        if (stop) break;
      }
    },
    {
      stopping: () => {
        stopping = true;
        queue.close();
        stream?.stop();
      },
      release: async () => {
        await Promise.allSettled(producers);
        await stream?.close({ update: progress.update, version: published.version, weights: await agent.getWeightsAsync(), envSteps: progress.envSteps }).catch(() => undefined); // unacked: they come back
        agent.dispose();
      },
    },
  );
}
