/**
 * Off-policy continuous control with Ape-X style actors (Horgan et al. 2018) for DDPG, TD3 and SAC:
 *   - every actor runs its own producer: it steps its env copies for T steps with the newest
 *     actor weights it has (DDPG / TD3: a = clip(μ(s) + σ·scale·ε); SAC: a sampled from π(·|s);
 *     uniformly random until `learningStarts` steps), and sends the transitions as one message
 *     of typed arrays; a full queue makes it wait (backpressure);
 *   - the learner puts what arrived into its replay buffer and, once `learningStarts` steps are
 *     in, takes gradient steps until gradientSteps = ⌊ρ·(steps − learningStarts)⌋ with ρ the
 *     update-to-data ratio (`sampling.updateToData`; SB3's train_freq 1, gradient_steps 1 is ρ = 1),
 *     while the actors keep collecting; then it publishes its actor weights;
 *   - each update records the policy lag of the segments it used: learner version − the version
 *     they were collected with (as IMPALA's loop), and the spread of the actions taken.
 */
import { ContinuousReplayBuffer } from '../../algorithms/replayBuffer';
import { deriveSeed } from '../../core/rng';
import { BoundedQueue } from '../boundedQueue';
import { actionStats, MetricMeans } from '../continuousAgent';
import { buildContinuousLearner, numParam } from '../continuousLearner';
import type { ExploreMode } from '../continuousPolicy';
import { ContinuousRolloutActor, validateContinuousSegment, type ContinuousRolloutActorOptions, type ContinuousSegment } from '../continuousRolloutActor';
import { callWithWeights, produceInto } from '../producers';
import { policyLags } from './async';
import { actorHandle, actorRates, createReportingPool, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite } from './common';
import { criticCurves } from '../inspectValues';
import type { LoopContext, LoopOutcome } from './types';

export async function offPolicyLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const { agent, module, net, params } = await buildContinuousLearner(ctx.config);
  const buffer = new ContinuousReplayBuffer(numParam(params, 'bufferSize'), net.obsDim, net.actionDim, deriveSeed(s.seed, 0xb0f));
  const batchSize = numParam(params, 'batchSize');
  const learningStarts = numParam(params, 'learningStarts');
  const noise = typeof params.explorationNoise === 'number' ? params.explorationNoise : 0;
  const noiseProcess = params.explorationProcess === 'ou' ? 'ou' : 'gaussian';
  const utd = s['sampling.updateToData'];
  const T = s['sampling.segmentLength'];
  const queue = new BoundedQueue<ContinuousSegment>(Math.max(2, s.actors));

  let published = { weights: await agent.getWeightsAsync(), version: 0 };
  const sentVersion = new Array<number>(s.actors).fill(-1);
  let requested = 0;
  let received = 0;
  let gradientSteps = 0;
  let stopping = false;
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(agent.algorithm.model);
  progress.inspectValuesWith(async () => {
    const curves = await criticCurves(agent.algorithm, s['env.id']);
    return curves.length > 0 ? { criticCurves: curves } : {};
  });
  const greedyEpisodes = new GreedyEpisodeTicker();
  const actors = await createReportingPool(
    ctx,
    actorHandle(ctx, ContinuousRolloutActor),
    s.actors,
    (actorIndex): [ContinuousRolloutActorOptions] => [{ envId: s['env.id'], numEnvs: s.envsPerActor, seed: s.seed, actorIndex, policy: module.policy, net }],
    async (actor, index) => {
      await actor.init();
      sentVersion[index] = -1; // a new actor needs the weights again
    },
  );
  const { pool } = actors;

  const produce = (i: number): Promise<void> =>
    produceInto(i, {
      queue,
      progress,
      stopping: () => stopping,
      fetch: () =>
        callWithWeights(sentVersion, i, published, (weights, version) => {
          const mode: ExploreMode = { random: requested < learningStarts, noise, process: noiseProcess, sample: true };
          requested += T * s.envsPerActor;
          return pool.call(i, 'sampleTransitions', weights, version, T, mode);
        }),
      check: (x) => validateContinuousSegment(x, net.obsDim, net.actionDim),
    });
  const producers = Array.from({ length: s.actors }, (_, i) => produce(i));

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        const first = await queue.take(1);
        if (!first) break;
        const rest = queue.size > 0 ? ((await queue.take(queue.size)) ?? []) : [];
        const segs = [...first, ...rest];
        const lags = policyLags(progress.update, segs);
        let steps = 0;
        for (const seg of segs) {
          buffer.addBatch({ obs: seg.obs, actions: seg.actions, rewards: seg.rewards, nextObs: seg.nextObs, dones: seg.dones, batchSize: seg.steps });
          steps += seg.steps;
        }
        received += steps;

        const before = published.weights;
        const sums = new MetricMeans();
        let n = 0;
        const learnStarted = performance.now();
        const owed = Math.floor(utd * (received - learningStarts)) - gradientSteps;
        // One update's gradient steps run without a pause: a pause would let the actors' replies in mid-update
        // and change which segments the next update takes, so the page and the CLI would part ways. An update
        // here is the few steps its new data owes (a stop waits for it); the offline loop's long updates are sliced.
        for (let k = 0; k < owed; k++) {
          const m = agent.learn(buffer.sample(batchSize));
          sums.add(m);
          n += 1;
          gradientSteps += 1;
        }
        const metrics = sums.means();
        const taken = actionStats(Float32Array.from(segs.flatMap((g) => Array.from(g.actions))), net.actionDim);
        Object.assign(metrics, {
          actionMean: taken.mean[0],
          actionStd: taken.std[0],
          gradientSteps,
          bufferSize: buffer.size,
          queueSize: queue.size,
          msPerGradientStep: n > 0 ? (performance.now() - learnStarted) / n : 0,
        });
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => agent.setWeights(before))) continue;
        if (n > 0) published = { weights: await agent.getWeightsAsync(), version: progress.update + 1 };
        const stop = progress.finishUpdate({
          steps,
          startedAt,
          returns: Float32Array.from(segs.flatMap((g) => Array.from(g.episodeReturns))),
          lengths: Int32Array.from(segs.flatMap((g) => Array.from(g.episodeLengths))),
          metrics,
          actorStepsPerSecond: actorRates(s.actors, segs, (performance.now() - startedAt) / 1000),
          policyLags: lags,
        });
        greedyEpisodes.tick(ctx, pool, progress.update, () => published.weights.map((w) => w.slice()));
        if (stop) break;
      }
    },
    {
      stopping: () => {
        stopping = true;
        queue.close();
      },
      release: async () => {
        await Promise.allSettled(producers);
        agent.dispose();
      },
    },
  );
}
