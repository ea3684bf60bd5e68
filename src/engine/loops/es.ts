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
import { modelSpecFor } from '../../config/modelSpec';
import { LoopProgress, rolloutPool } from './common';
import type { LoopContext, LoopOutcome } from './types';

export async function esLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const modelSpec = modelSpecFor(ctx.config, 'policy');
  const model = new PolicyMlp(modelSpec, s.seed);
  const noiseSeed = deriveSeed(s.seed, 0x4e5);
  const es = new EsLearner(getFlatWeights(model), new NoiseTable(noiseSeed), {
    numPairs: s['es.numPairs'],
    sigma: s['es.sigma'],
    lr: s['es.lr'],
    l2Coeff: s['es.l2Coeff'],
    seed: s.seed,
  });

  const actors = await rolloutPool(ctx, 'policy', 1);
  const { pool } = actors;
  const progress = new LoopProgress(ctx);
  // θ lives in the ES learner; it is put into the model when a checkpoint is taken.
  progress.keepCheckpoints({
    weightSpecs: () => model.weightSpecs(),
    getWeightsAsync: () => {
      setFlatWeights(model, es.theta);
      return model.getWeightsAsync();
    },
  });

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        const indices = es.ask();
        // Deal the pairs out to the actors round-robin.
        const share = Array.from({ length: pool.size }, (_, a) => Int32Array.from(Array.from(indices).filter((_, k) => k % pool.size === a)));
        // Send copies: typed arrays are transferred (detached here), and the indices are needed below.
        const results = await pool.map('evaluateEs', (a) => [es.theta.slice(), share[a].slice(), s['es.sigma'], noiseSeed]);
        const told: EsResult[] = [];
        const returns: number[] = [];
        let steps = 0;
        const valid = progress.accept(
          results.map((r, a) => (r.status === 'fulfilled' ? { status: 'fulfilled' as const, value: { ...r.value, actor: a } } : r)),
          (v) => (v.returnPos.length === share[v.actor].length && [...v.returnPos, ...v.returnNeg].every(Number.isFinite) ? null : 'wrong length or not finite'),
          'set of ES returns',
        );
        for (const v of valid) {
          share[v.actor].forEach((noiseIndex, k) => told.push({ noiseIndex, returnPos: v.returnPos[k], returnNeg: v.returnNeg[k] }));
          returns.push(...v.returnPos, ...v.returnNeg);
          steps += v.steps;
        }
        if (told.length === 0) continue;
        const metrics = es.tell(told);
        if (
          progress.finishUpdate({
            steps,
            startedAt,
            returns,
            lengths: [],
            metrics,
            actorStepsPerSecond: results.map((r) => (r.status === 'fulfilled' ? r.value.steps / Math.max((performance.now() - startedAt) / 1000, 1e-9) : 0)),
          })
        )
          break;
      }
    },
    {
      release: () => {
        setFlatWeights(model, es.theta);
        model.dispose();
      },
    },
  );
}
