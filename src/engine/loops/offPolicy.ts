/**
 * Off-policy continuous control with Ape-X style actors (Horgan et al. 2018) for DDPG, TD3 and SAC,
 * in lock-step rounds, so that the numbers follow the seed alone, not the actors' or the
 * learner's timing (the page and the CLI give the same run, and a run can let the event loop
 * turn between gradient steps without changing it):
 *   - each round the learner asks every actor, in actor order, for T steps of its env copies with
 *     the newest actor weights published (DDPG / TD3: a = clip(μ(s) + σ·scale·ε); SAC: a sampled
 *     from π(·|s); uniformly random until `learningStarts` steps were asked for), one message of
 *     typed arrays per actor;
 *   - it awaits exactly that round and puts the transitions into its replay buffer in actor order,
 *     then at once asks for the next round, which the actors collect while the learner takes its
 *     gradient steps until gradientSteps = ⌊ρ·(steps − learningStarts)⌋ with ρ the update-to-data
 *     ratio (`sampling.updateToData`; SB3's train_freq 1, gradient_steps 1 is ρ = 1); then it
 *     publishes its actor weights. The actors thus act with the weights of one update before
 *     (a policy lag of 1 once learning has started);
 *   - the gradient steps let the event loop turn about every SLICE_MS (common.ts), so Stop and
 *     Ctrl-C end an update at once; an update stopped halfway keeps the weights it started from;
 *   - each update records the policy lag of the segments it used: learner version − the version
 *     they were collected with (as IMPALA's loop), and the spread of the actions taken.
 */
import { ContinuousReplayBuffer } from '../../algorithms/replayBuffer';
import { deriveSeed } from '../../core/rng';
import { actionStats, MetricMeans } from '../continuousAgent';
import { buildContinuousLearner, numParam } from '../continuousLearner';
import type { ExploreMode } from '../continuousPolicy';
import { ContinuousRolloutActor, validateContinuousSegment, type ContinuousRolloutActorOptions, type ContinuousSegment } from '../continuousRolloutActor';
import { callWithWeights } from '../producers';
import { policyLags } from './async';
import { actorHandle, actorRates, createReportingPool, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite } from './common';
import { criticCurves } from '../inspectValues';
import type { LoopContext, LoopOutcome } from './types';

/** A call's outcome, settled at once, so that a round nobody awaits any more (the run stopped) rejects unheard. */
function settled<T>(call: Promise<T>): Promise<PromiseSettledResult<T>> {
  return call.then(
    (value): PromiseFulfilledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseRejectedResult => ({ status: 'rejected', reason }),
  );
}

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

  let published = { weights: await agent.getWeightsAsync(), version: 0 };
  const sentVersion = new Array<number>(s.actors).fill(-1);
  let requested = 0;
  let received = 0;
  let gradientSteps = 0;
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

  /** Actor i's next segment, asked for now with the weights published now. */
  const ask = (i: number): Promise<PromiseSettledResult<ContinuousSegment>> => {
    if (sentVersion.length <= i) sentVersion.push(...new Array<number>(i + 1 - sentVersion.length).fill(-1));
    return settled(
      callWithWeights(sentVersion, i, published, (weights, version) => {
        const mode: ExploreMode = { random: requested < learningStarts, noise, process: noiseProcess, sample: true };
        requested += T * s.envsPerActor;
        return pool.call(i, 'sampleTransitions', weights, version, T, mode);
      }),
    );
  };
  const askRound = () => Array.from({ length: pool.size }, (_, i) => ask(i));
  let round = askRound();

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        const actorsThisRound = round.length;
        const segs = progress.accept(await Promise.all(round), (x) => validateContinuousSegment(x, net.obsDim, net.actionDim));
        // The next round is asked for before this one's gradient steps: the actors collect it meanwhile.
        round = askRound();
        if (segs.length === 0) continue; // every actor failed: proceed() backs off
        const lags = policyLags(progress.update, segs);
        let steps = 0;
        for (const seg of segs) {
          buffer.addBatch({ obs: seg.obs, actions: seg.actions, rewards: seg.rewards, nextObs: seg.nextObs, dones: seg.dones, batchSize: seg.steps });
          steps += seg.steps;
        }
        received += steps;

        const before = published.weights;
        const sums = new MetricMeans();
        const learnStarted = performance.now();
        const n = Math.max(0, Math.floor(utd * (received - learningStarts)) - gradientSteps);
        if (!(await progress.slicer.repeat(n, () => sums.add(agent.learn(buffer.sample(batchSize))), () => agent.setWeights(before)))) break;
        gradientSteps += n;
        const metrics = sums.means();
        const taken = actionStats(Float32Array.from(segs.flatMap((g) => Array.from(g.actions))), net.actionDim);
        Object.assign(metrics, {
          actionMean: taken.mean[0],
          actionStd: taken.std[0],
          gradientSteps,
          bufferSize: buffer.size,
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
          actorStepsPerSecond: actorRates(actorsThisRound, segs, (performance.now() - startedAt) / 1000),
          policyLags: lags,
        });
        greedyEpisodes.tick(ctx, pool, progress.update, () => published.weights.map((w) => w.slice()));
        if (stop) break;
      }
    },
    { release: () => agent.dispose() },
  );
}
