/**
 * Gaussian PPO with synchronous actors: each update every actor runs its env copies for T steps
 * with the newest weights, sampling a ~ N(μ(s), σ²) (clipped only on the way to the env), and
 * sends the transitions with log π(a|s). The learner computes V(s_t) and V(s'_t) (s' the real next
 * observation, also where the time limit cut an episode) and the GAE advantages per env copy:
 *     δ_t = r_t + γ(1 − terminated_t)·V(s'_t) − V(s_t)
 *     Â_t = δ_t + γλ(1 − ended_t)·Â_{t+1},  Â_T = 0,   R_t = Â_t + V(s_t)
 * then runs the PPO update (src/algorithms/ppoContinuous.ts), letting the event loop turn between
 * its minibatches about every SLICE_MS (common.ts), so Stop and Ctrl-C end an update at once; an
 * update stopped halfway keeps the weights it started from. Policy lag is 0 by construction.
 */
import { GaussianPpo } from '../../algorithms/ppoContinuous';
import { actionStats } from '../continuousAgent';
import { buildContinuousLearner, numParam } from '../continuousLearner';
import { ContinuousRolloutActor, validateContinuousSegment, type ContinuousRolloutActorOptions, type ContinuousSegment } from '../continuousRolloutActor';
import { actorHandle, actorRates, createReportingPool, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite } from './common';
import type { LoopContext, LoopOutcome } from './types';

/** GAE over one actor's segment, rows t·N + n (see the header). */
export function segmentGae(seg: Pick<ContinuousSegment, 'rewards' | 'dones' | 'ended'>, values: Float32Array, nextValues: Float32Array, T: number, N: number, gamma: number, lambda: number): { advantages: Float32Array; returns: Float32Array } {
  const advantages = new Float32Array(T * N);
  const returns = new Float32Array(T * N);
  for (let n = 0; n < N; n++) {
    let next = 0;
    for (let t = T - 1; t >= 0; t--) {
      const i = t * N + n;
      const delta = seg.rewards[i] + gamma * (1 - seg.dones[i]) * nextValues[i] - values[i];
      next = delta + gamma * lambda * (1 - seg.ended[i]) * next;
      advantages[i] = next;
      returns[i] = next + values[i];
    }
  }
  return { advantages, returns };
}

export async function onPolicyContinuousLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const { agent, module, net, params } = await buildContinuousLearner(ctx.config);
  const ppo = agent.algorithm;
  if (!(ppo instanceof GaussianPpo)) throw new Error(`the on-policy continuous loop trains Gaussian PPO, not ${s.algorithm}`);
  const gamma = numParam(params, 'gamma');
  const lambda = numParam(params, 'gaeLambda');
  const T = s['sampling.segmentLength'];
  const N = s.envsPerActor;
  const budget = s['run.envSteps'];
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(ppo.model);
  const greedyEpisodes = new GreedyEpisodeTicker();
  const actors = await createReportingPool(
    ctx,
    actorHandle(ctx, ContinuousRolloutActor),
    s.actors,
    (actorIndex): [ContinuousRolloutActorOptions] => [{ envId: s['env.id'], numEnvs: N, seed: s.seed, actorIndex, policy: module.policy, net }],
    async (actor) => {
      await actor.init();
    },
  );
  const { pool } = actors;

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        ppo.setProgress(progress.envSteps / budget);
        const weights = await agent.getWeightsAsync();
        const results = await pool.map('sampleTransitions', () => [weights.map((w) => w.slice()), progress.update, T, { random: false, noise: 0, sample: true }]);
        const segs = progress.accept(results, (x) => validateContinuousSegment(x, net.obsDim, net.actionDim));
        if (segs.length === 0) continue;
        const B = segs.length * T * N;
        const batch = {
          obs: new Float32Array(B * net.obsDim),
          actions: new Float32Array(B * net.actionDim),
          logProbs: new Float32Array(B),
          advantages: new Float32Array(B),
          returns: new Float32Array(B),
          batchSize: B,
        };
        segs.forEach((seg, k) => {
          const rows = T * N;
          const values = ppo.values(seg.obs, rows);
          const nextValues = ppo.values(seg.nextObs, rows);
          const { advantages, returns } = segmentGae(seg, values, nextValues, T, N, gamma, lambda);
          batch.obs.set(seg.obs, k * rows * net.obsDim);
          batch.actions.set(seg.actions, k * rows * net.actionDim);
          batch.logProbs.set(seg.logProbs, k * rows);
          batch.advantages.set(advantages, k * rows);
          batch.returns.set(returns, k * rows);
        });
        const metrics = await progress.slicer.runSteps(ppo.learnSteps(batch), () => agent.setWeights(weights));
        if (!metrics) break;
        const taken = actionStats(batch.actions, net.actionDim);
        Object.assign(metrics, { actionMean: taken.mean[0], actionStd: taken.std[0] });
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => agent.setWeights(weights))) continue;
        const stop = progress.finishUpdate({
          steps: B,
          startedAt,
          returns: Float32Array.from(segs.flatMap((g) => Array.from(g.episodeReturns))),
          lengths: Int32Array.from(segs.flatMap((g) => Array.from(g.episodeLengths))),
          metrics,
          actorStepsPerSecond: actorRates(s.actors, segs, (performance.now() - startedAt) / 1000),
          policyLags: segs.map(() => 0),
        });
        greedyEpisodes.tick(ctx, pool, progress.update, () => agent.getWeightsAsync());
        if (stop) break;
      }
    },
    { release: () => agent.dispose() },
  );
}
