/**
 * Offline RL (CQL, behaviour cloning): the learner trains from a dataset file, never touching the
 * environment, and every `evalEvery` gradient steps one actor plays `evalEpisodes` greedy episodes
 * with the current policy to measure it. Each update record carries those evaluation returns
 * (its env steps are evaluation steps only) and the mean of the update metrics since the last one.
 * The budget is `gradientSteps` (config/budget.ts): the progress bar and the charts count the
 * records' `metrics.gradientSteps`. The evaluating actor also plays the page's greedy episodes.
 */
import { ContinuousReplayBuffer } from '../../algorithms/replayBuffer';
import { deriveSeed } from '../../core/rng';
import { MetricMeans } from '../continuousAgent';
import { buildContinuousLearner, numParam } from '../continuousLearner';
import { GREEDY } from '../continuousPolicy';
import { ContinuousRolloutActor, type ContinuousRolloutActorOptions } from '../continuousRolloutActor';
import { loadDataset } from '../datasetSource';
import { actorHandle, createReportingPool, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite } from './common';
import { criticCurves } from '../inspectValues';
import type { LoopContext, LoopOutcome } from './types';

export async function offlineLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const { agent, module, net, params } = await buildContinuousLearner(ctx.config);
  const name = params.dataset;
  if (typeof name !== 'string') throw new Error(`${s.algorithm} has no dataset setting`);
  const data = await loadDataset(name, { envId: s['env.id'], obsDim: net.obsDim, actionDim: net.actionDim }, ctx.platform);
  const buffer = new ContinuousReplayBuffer(data.size, net.obsDim, net.actionDim, deriveSeed(s.seed, 0xb0f));
  buffer.addBatch({ ...data, batchSize: data.size });
  ctx.emit({ type: 'notice', level: 'info', message: `Offline: ${data.size} transitions of ${data.envId} (${data.source}); no environment until evaluation.` });

  const batchSize = numParam(params, 'batchSize');
  const total = numParam(params, 'gradientSteps');
  const evalEvery = numParam(params, 'evalEvery');
  const evalEpisodes = numParam(params, 'evalEpisodes');
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(agent.algorithm.model);
  progress.inspectValuesWith(async () => {
    const curves = await criticCurves(agent.algorithm, s['env.id']);
    return curves.length > 0 ? { criticCurves: curves } : {};
  });
  const actors = await createReportingPool(
    ctx,
    actorHandle(ctx, ContinuousRolloutActor),
    1,
    (actorIndex): [ContinuousRolloutActorOptions] => [{ envId: s['env.id'], numEnvs: 1, seed: s.seed, actorIndex, policy: module.policy, net }],
    async (actor) => {
      await actor.init();
    },
  );
  const greedyEpisodes = new GreedyEpisodeTicker();
  let gradientSteps = 0;

  return progress.run(
    actors,
    async () => {
      while (gradientSteps < total && (await progress.proceed())) {
        const startedAt = performance.now();
        const before = await agent.getWeightsAsync();
        const sums = new MetricMeans();
        const n = Math.min(evalEvery, total - gradientSteps);
        if (!(await progress.slicer.repeat(n, () => sums.add(agent.learn(buffer.sample(batchSize))), () => agent.setWeights(before)))) break;
        gradientSteps += n;
        const metrics = sums.means();
        metrics.gradientSteps = gradientSteps;
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => agent.setWeights(before))) continue;
        const weights = await agent.getWeightsAsync();
        // The evaluation call takes these arrays away (transferred): the greedy episode gets its own copy.
        const forDemo = weights.map((w) => w.slice());
        const evaluation = await actors.pool.call(0, 'rollEpisodes', weights, evalEpisodes, GREEDY, false);
        const returns = evaluation.returns;
        let sum = 0;
        for (const r of returns) sum += r;
        metrics.evalReturn = sum / Math.max(returns.length, 1);
        const stop = progress.finishUpdate({ steps: 0, startedAt, returns, lengths: evaluation.lengths, metrics, actorStepsPerSecond: [0] });
        greedyEpisodes.tick(ctx, actors.pool, progress.update, () => forDemo);
        if (stop) break;
      }
    },
    { release: () => agent.dispose() },
  );
}
