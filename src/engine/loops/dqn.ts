/**
 * DQN with distributed actors (Ape-X style, synchronous): each update every actor runs its env
 * copies for T steps ε-greedily with the newest Q-network; the learner stores the transitions in
 * a replay buffer, takes one gradient step per `trainFrequency` environment steps once
 * `learningStarts` steps have been collected (an update's steps in one learn(), one readback,
 * letting the event loop turn between them about every SLICE_MS so that Stop ends an update at
 * once, keeping the weights it started from), and syncs the target network every `targetNetworkFrequency` steps. ε decays linearly (linearEpsilon) over a fraction of the budget.
 */
import { Agent } from '../../core/agent';
import { linearEpsilon, type DqnBatch, type DqnSteps } from '../../algorithms/dqn';
import { ReplayBuffer, type TransitionBatch } from '../../algorithms/replayBuffer';
import { deriveSeed } from '../../core/rng';
import { envSpec } from '../../envs/registry';
import { concatSegments, validateSegment, type Segment } from '../segments';
import { buildLearner } from '../learner';
import { actorRates, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite, rolloutPool } from './common';
import type { LoopContext, LoopOutcome } from './types';

/** Turn a [T, N] segment into transitions (s, a, r, s', terminated). */
export function segmentTransitions(seg: Segment): TransitionBatch {
  const { T, numEnvs: n, obsDim: d } = seg;
  const B = T * n;
  const nextObs = new Float32Array(B * d);
  for (let t = 0; t < T; t++) {
    const src = t + 1 < T ? seg.obs.subarray((t + 1) * n * d, (t + 2) * n * d) : seg.lastObs;
    nextObs.set(src, t * n * d);
  }
  // Where an episode ended, s' is its real last observation, not the next episode's first.
  seg.finalIndex.forEach((idx, k) => nextObs.set(seg.finalObs.subarray(k * d, (k + 1) * d), idx * d));
  return { obs: seg.obs, actions: seg.actions, rewards: seg.rewards, nextObs, dones: seg.dones, batchSize: B };
}

export async function dqnLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const { model: online, algorithm } = await buildLearner(ctx.config, 'q');
  const agent = new Agent<DqnSteps>(algorithm);
  const buffer = new ReplayBuffer(s['dqn.bufferSize'], spec.obsDim, deriveSeed(s.seed, 0xb0f));
  const T = s['sampling.segmentLength'];
  const budget = s['run.envSteps'];
  const actors = await rolloutPool(ctx, 'q');
  const { pool } = actors;
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(online);
  progress.applyChangesTo(algorithm);
  const greedyEpisodes = new GreedyEpisodeTicker();
  let gradientSteps = 0;
  let sinceTrain = 0;
  let sinceTarget = 0;

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        // The actors explore with this ε; the loop reports it (the learner itself never acts).
        const epsilon = linearEpsilon(progress.envSteps, s['dqn.startE'], s['dqn.endE'], s['dqn.explorationFraction'], budget);
        const weights = await online.getWeightsAsync();
        const results = await pool.map('sampleSegment', () => [weights.map((w) => w.slice()), progress.update, T, epsilon]);
        const segs = progress.accept(results, (x) => validateSegment(x, spec.obsDim, spec.numActions));
        if (segs.length === 0) continue;
        const seg = concatSegments(segs);
        buffer.addBatch(segmentTransitions(seg));
        const steps = seg.T * seg.numEnvs;
        sinceTrain += steps;
        sinceTarget += steps;

        const metrics: Record<string, number> = {};
        if (progress.envSteps + steps >= s['dqn.learningStarts']) {
          // The update's minibatches, drawn as before (nothing else touches the buffer in between),
          // then all its gradient steps in one learn(): their metrics come back in one readback.
          const batches: DqnBatch[] = [];
          while (sinceTrain >= s['dqn.trainFrequency']) {
            sinceTrain -= s['dqn.trainFrequency'];
            batches.push(buffer.sample(s['dqn.batchSize']));
          }
          if (batches.length) {
            const learned = await progress.slicer.runSteps(agent.learnSteps({ steps: batches }), () => online.setWeights(weights));
            if (!learned) break;
            Object.assign(metrics, learned);
          }
          gradientSteps += batches.length;
          while (sinceTarget >= s['dqn.targetNetworkFrequency']) {
            sinceTarget -= s['dqn.targetNetworkFrequency'];
            agent.syncTarget(1);
          }
        } else sinceTrain = 0;
        // The loop's own figures last: the ε the actors used, not the algorithm's copy.
        Object.assign(metrics, { epsilon, gradientSteps, bufferSize: buffer.size });
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => online.setWeights(weights))) continue;
        const stop = progress.finishUpdate({
          steps,
          startedAt,
          returns: seg.episodeReturns,
          lengths: seg.episodeLengths,
          metrics,
          actorStepsPerSecond: actorRates(s.actors, segs, (performance.now() - startedAt) / 1000),
          policyLags: segs.map(() => 0),
        });
        greedyEpisodes.tick(ctx, pool, progress.update, () => online.getWeightsAsync());
        if (stop) break;
      }
    },
    {
      release: () => agent.dispose(),
    },
  );
}
