/**
 * Synchronous on-policy loop (A2C, PPO), after A2C / PPO's vectorised collection:
 *   1. every actor gets the current weights (actor inference) or stands by (learner inference),
 *   2. every actor runs its N env copies for T steps, one message per segment,
 *   3. the learner joins the segments along the env axis, computes V(s) in one batched pass,
 *      and runs the algorithm's update (GAE inside), letting the event loop turn between PPO's
 *      minibatches about every SLICE_MS (common.ts), so Stop and Ctrl-C end an update at once; an
 *      update stopped halfway keeps the weights it started from. Policy lag is 0 by construction.
 * With learner inference the actors only step envs; the learner batches every actor's
 * observations into one forward pass per step (SEED style).
 */
import { Rng, deriveSeed } from '../../core/rng';
import { envSpec } from '../../envs/registry';
import { collectSegmentCentral, InferenceServer } from '../centralInference';
import { concatSegments, validateSegment } from '../segments';
import { actorRates, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite, rolloutPool } from './common';
import { buildLearner } from '../learner';
import { GaeSegmentAgent } from '../segmentAgents';
import type { LoopContext, LoopOutcome } from './types';

export async function syncLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const { model, algorithm } = await buildLearner(ctx.config, 'actorCritic');
  const agent = new GaeSegmentAgent(algorithm, model);
  const T = s['sampling.segmentLength'];
  const budget = s['run.envSteps'];
  const central = s.inference === 'learner';
  // Every actor asks at every step, so the server can wait for all of them: one pass per step.
  const server = new InferenceServer(model, spec.obsDim, spec.numActions, new Rng(deriveSeed(s.seed, 0xce27)), 1_000);
  const actors = await rolloutPool(ctx, 'actorCritic');
  const { pool } = actors;
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(model);
  progress.applyChangesTo(algorithm);
  const greedyEpisodes = new GreedyEpisodeTicker();

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        agent.setProgress(progress.envSteps / budget);
        const weights = await agent.getWeightsAsync();
        const version = progress.update;
        const results = central
          ? await Promise.allSettled(
              Array.from({ length: pool.size }, (_, i) =>
                collectSegmentCentral(
                  { resetVector: () => pool.call(i, 'resetVector'), stepVector: (a) => pool.call(i, 'stepVector', a) },
                  server,
                  i,
                  version,
                  T,
                  spec.obsDim,
                ),
              ),
            )
          : await pool.map('sampleSegment', () => [weights.map((w) => w.slice()), version, T, 0]);
        const segs = progress.accept(results, (x) => validateSegment(x, spec.obsDim, spec.numActions));
        if (segs.length === 0) continue;

        const seg = concatSegments(segs);
        const metrics = await progress.slicer.runSteps(await agent.learnSegmentSteps(seg), () => agent.setWeights(weights));
        if (!metrics) break;
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => agent.setWeights(weights))) continue;
        const stop = progress.finishUpdate({
          steps: seg.T * seg.numEnvs,
          startedAt,
          returns: seg.episodeReturns,
          lengths: seg.episodeLengths,
          metrics: central ? { ...metrics, forwardCalls: server.forwardCalls } : metrics,
          actorStepsPerSecond: actorRates(s.actors, segs, (performance.now() - startedAt) / 1000),
          policyLags: segs.map(() => 0),
        });
        greedyEpisodes.tick(ctx, pool, progress.update, () => agent.getWeightsAsync());
        if (stop) break;
      }
    },
    {
      release: () => agent.dispose(),
    },
  );
}
