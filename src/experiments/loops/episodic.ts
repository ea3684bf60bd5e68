/**
 * Episodic on-policy loop (REINFORCE, PaddlePaddle PARL's QuickStart):
 *   1. broadcast the current weights to every actor (one message per actor, transferred),
 *   2. every actor plays one full episode on each of its env copies with its own policy copy,
 *   3. the learner checks the batches, concatenates them and takes one gradient step.
 * An actor that dies is replaced by the pool; its batch for that update is counted as lost and
 * training goes on with the others. A non-finite loss restores the last good weights and pauses.
 */
import { Agent } from '../../core/agent';
import { buildPolicyModel } from '../../core/mlp';
import { Reinforce, type ReinforceBatch } from '../../algorithms/reinforce';
import { envSpec } from '../../envs/registry';
import type { UpdateRecord } from '../records';
import { RolloutActor, validateEpisodeBatch, type EpisodeBatch, type RolloutActorOptions } from '../rolloutActor';
import { modelSpecFor } from '../modelSpec';
import { actorHandle, createReportingPool, DemoTicker, EpisodeTracker, passGate, pauseOnNonFinite } from './common';
import type { LoopContext, LoopOutcome } from './types';

export async function episodicLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const modelSpec = modelSpecFor(ctx.config, 'policy');
  const agent = new Agent<ReinforceBatch>(
    new Reinforce(buildPolicyModel(modelSpec, s.seed), {
      lr: s['reinforce.lr'],
      gamma: s['reinforce.gamma'],
      entCoef: s['reinforce.entropyCoef'],
    }),
  );

  const actorOptions = (actorIndex: number): RolloutActorOptions => ({
    envId: s['env.id'],
    numEnvs: s.envsPerActor,
    seed: s.seed,
    actorIndex,
    model: modelSpec,
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
  let envSteps = 0;
  let update = 0;
  let lostSegments = 0;
  // Lost segments not yet reported in an update record (an update can lose every segment).
  let unreported = 0;
  let stopReason: LoopOutcome['stopReason'] = 'budget';
  let error: string | undefined;

  try {
    while (envSteps < s['run.envSteps']) {
      if (!(await passGate(ctx))) {
        stopReason = 'stopped';
        break;
      }
      const t0 = performance.now();
      const version = update;
      // Last good weights: broadcast copies of them, and restore them if the update goes bad.
      const weights = await agent.getWeightsAsync();
      const results = await pool.map('rollEpisodes', () => [weights.map((w) => w.slice()), version]);
      const batches: EpisodeBatch[] = [];
      let lostNow = 0;
      results.forEach((r, i) => {
        if (r.status === 'rejected') {
          lostNow += 1;
          return;
        }
        const problem = validateEpisodeBatch(r.value, spec.obsDim, spec.numActions);
        if (problem) {
          lostNow += 1;
          ctx.emit({ type: 'notice', level: 'warning', message: `Rejected a batch from actor ${i}: ${problem}` });
        } else batches.push(r.value);
      });
      lostSegments += lostNow;
      unreported += lostNow;
      if (batches.length === 0) continue;

      const merged = concatEpisodeBatches(batches, spec.obsDim);
      const metrics = agent.learn(merged);
      if (pauseOnNonFinite(ctx, metrics, update + 1, () => agent.setWeights(weights))) continue;

      const returns = batches.flatMap((b) => Array.from(b.episodeReturns));
      envSteps += merged.batchSize;
      update += 1;
      tracker.add(returns, envSteps, ctx.clock());
      const dt = (performance.now() - t0) / 1000;
      const record: UpdateRecord = {
        type: 'update',
        update,
        envSteps,
        episodes: tracker.episodes,
        wallSeconds: ctx.clock(),
        returns,
        lengths: batches.flatMap((b) => Array.from(b.episodeLengths)),
        meanReturn20: tracker.meanReturn20(),
        stepsPerSecond: merged.batchSize / Math.max(dt, 1e-9),
        metrics,
        actorStepsPerSecond: Array.from({ length: s.actors }, (_, i) => {
          const b = batches.find((x) => x.actorIndex === i);
          return b ? b.steps / Math.max(b.seconds, 1e-9) : 0;
        }),
        lostSegments: unreported,
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
    agent.dispose();
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
