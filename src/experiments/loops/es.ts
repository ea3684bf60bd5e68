/**
 * Evolution strategies (Salimans et al. 2017), embarrassingly parallel over the actors: each
 * generation the learner draws noise indices into a shared, seeded noise table; every actor
 * rebuilds the same table from the seed, so only (index, return+, return−) travel. The learner
 * ranks the returns and moves θ along Σ F_i ε_i (EsLearner).
 */
import { PolicyMlp } from '../../core/mlp';
import { EsLearner, getFlatWeights, setFlatWeights, type EsResult } from '../../algorithms/es';
import { NoiseTable } from '../../algorithms/noiseTable';
import { deriveSeed } from '../../core/rng';
import type { UpdateRecord } from '../records';
import { RolloutActor, type RolloutActorOptions } from '../rolloutActor';
import { modelSpecFor } from '../modelSpec';
import { actorHandle, createReportingPool, EpisodeTracker, passGate } from './common';
import type { LoopContext, LoopOutcome } from './types';

export async function esLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const modelSpec = modelSpecFor(ctx.config, 'policy');
  const model = new PolicyMlp(modelSpec, s.seed);
  const noiseSeed = deriveSeed(s.seed, 0x4e5);
  const es = new EsLearner(getFlatWeights(model), new NoiseTable(noiseSeed), {
    numPairs: s['es.pairs'],
    sigma: s['es.sigma'],
    lr: s['es.lr'],
    l2Coeff: s['es.l2'],
    seed: s.seed,
  });

  const actorOptions = (actorIndex: number): RolloutActorOptions => ({
    envId: s['env.id'],
    numEnvs: 1,
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

  const tracker = new EpisodeTracker(s['run.targetReturn']);
  let envSteps = 0;
  let update = 0;
  let lostSegments = 0;
  let stopReason: LoopOutcome['stopReason'] = 'budget';
  let error: string | undefined;

  try {
    while (envSteps < s['run.envSteps']) {
      if (!(await passGate(ctx))) {
        stopReason = 'stopped';
        break;
      }
      const t0 = performance.now();
      const indices = es.ask();
      // Deal the pairs out to the actors round-robin.
      const share = Array.from({ length: pool.size }, (_, a) => Int32Array.from(Array.from(indices).filter((_, k) => k % pool.size === a)));
      // Send copies: typed arrays are transferred (detached here), and the indices are needed below.
      const results = await pool.map('evaluateEs', (a) => [es.theta.slice(), share[a].slice(), s['es.sigma'], noiseSeed]);
      const told: EsResult[] = [];
      const returns: number[] = [];
      let steps = 0;
      results.forEach((r, a) => {
        if (r.status === 'rejected') {
          lostSegments += 1;
          return;
        }
        const { returnPos, returnNeg } = r.value;
        if (returnPos.length !== share[a].length || ![...returnPos, ...returnNeg].every(Number.isFinite)) {
          lostSegments += 1;
          ctx.emit({ type: 'notice', level: 'warning', message: `Rejected ES results from actor ${a}: wrong length or not finite` });
          return;
        }
        share[a].forEach((noiseIndex, k) => told.push({ noiseIndex, returnPos: returnPos[k], returnNeg: returnNeg[k] }));
        returns.push(...returnPos, ...returnNeg);
        steps += r.value.steps;
      });
      if (told.length === 0) continue;
      const metrics = es.tell(told);
      envSteps += steps;
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
        lengths: [],
        meanReturn20: tracker.meanReturn20(),
        stepsPerSecond: steps / Math.max(dt, 1e-9),
        metrics,
        actorStepsPerSecond: results.map((r) => (r.status === 'fulfilled' ? r.value.steps / Math.max(dt, 1e-9) : 0)),
        lostSegments: results.filter((r) => r.status === 'rejected').length,
      };
      ctx.emit(record);
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
    setFlatWeights(model, es.theta);
    model.dispose();
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
