/**
 * Episodic on-policy loop (REINFORCE, PaddlePaddle PARL's QuickStart):
 *   1. broadcast the current weights to every actor (one message per actor, transferred),
 *   2. every actor plays one full episode on each of its env copies with its own policy copy,
 *   3. the learner checks the batches, concatenates them and takes one gradient step.
 * An actor that dies is replaced by the pool; its batch for that update is counted as lost and
 * training goes on with the others. A non-finite loss restores the last good weights and pauses.
 */
import { Agent } from '../../core/agent';
import type { ReinforceBatch } from '../../algorithms/reinforce';
import { envSpec } from '../../envs/registry';
import { validateEpisodeBatch, type EpisodeBatch } from '../segments';
import { buildLearner } from '../learner';
import { actorRates, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite, rolloutPool } from './common';
import type { LoopContext, LoopOutcome } from './types';

export async function episodicLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const agent = new Agent<ReinforceBatch>((await buildLearner(ctx.config, 'policy')).algorithm);
  const actors = await rolloutPool(ctx, 'policy');
  const { pool } = actors;
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(agent.model);
  progress.applyChangesTo(agent.alg);
  const greedyEpisodes = new GreedyEpisodeTicker();

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        // Last good weights: broadcast copies of them, and restore them if the update goes bad.
        const weights = await agent.getWeightsAsync();
        const results = await pool.map('rollEpisodes', () => [weights.map((w) => w.slice()), progress.update]);
        const batches = progress.accept(results, (b) => validateEpisodeBatch(b, spec.obsDim, spec.numActions), 'batch');
        if (batches.length === 0) continue;

        const merged = concatEpisodeBatches(batches, spec.obsDim);
        const metrics = agent.learn(merged);
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => agent.setWeights(weights))) continue;
        const stop = progress.finishUpdate({
          steps: merged.batchSize,
          startedAt,
          returns: batches.flatMap((b) => Array.from(b.episodeReturns)),
          lengths: batches.flatMap((b) => Array.from(b.episodeLengths)),
          metrics,
          actorStepsPerSecond: actorRates(s.actors, batches, (performance.now() - startedAt) / 1000),
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

function concatEpisodeBatches(batches: EpisodeBatch[], obsDim: number): ReinforceBatch {
  const steps = batches.reduce((n, b) => n + b.steps, 0);
  const obs = new Float32Array(steps * obsDim);
  const actions = new Int32Array(steps);
  const rewards = new Float32Array(steps);
  const dones = new Uint8Array(steps);
  let t = 0;
  for (const b of batches) {
    obs.set(b.obs, t * obsDim);
    actions.set(b.actions, t);
    rewards.set(b.rewards, t);
    dones.set(b.dones, t);
    t += b.steps;
  }
  return { obs, actions, rewards, dones, batchSize: steps };
}
