/**
 * Continuous-control benchmarks (learner on wasm in Node, actors in worker threads):
 *   - solve-pendulum: env steps and wall seconds until the mean return of the last 10 episodes
 *     reaches −200 on Pendulum-v1, DDPG, TD3 and SAC from their presets, plus SAC's time per
 *     gradient step split into forward + backward + optimizer (inside learn) and the readback;
 *   - solve-mountaincar-continuous: steps until the mean of the last 10 episodes passes 90, SAC and TD3;
 *   - offline-pendulum: CQL vs behaviour cloning vs SAC offline (CQL with α_cql = 0) from the
 *     shipped dataset, the evaluated return at the end.
 */
import * as tf from '@tensorflow/tfjs';
import { resolveExperiment } from '../../config/config';
import { chooseBackend } from '../../core/backend';
import { Rng } from '../../core/rng';
import { ContinuousReplayBuffer } from '../../algorithms/replayBuffer';
import { buildContinuousLearner } from '../../engine/continuousLearner';
import { TrainingRun } from '../../engine/trainer';
import type { UpdateRecord } from '../../runs/records';
import { nodePlatform } from '../nodePlatform';
import { markdownTable, median, type Benchmark } from './types';

const LAST = 10;

interface SolveSpec {
  algo: string;
  preset: string;
  target: number;
  budget: number;
}

/** Run a preset until the mean of the last 10 episodes reaches the target (or the budget ends). */
async function solve(spec: SolveSpec, seed: number): Promise<{ steps: number; seconds: number } | { final: number }> {
  const config = resolveExperiment(spec.preset, { seed, 'run.envSteps': spec.budget, backend: 'wasm' });
  const returns: number[] = [];
  let hit: { steps: number; seconds: number } | null = null;
  const run = new TrainingRun(
    config,
    (r) => {
      if (r.type !== 'update' || hit) return;
      const u = r as UpdateRecord;
      returns.push(...u.returns);
      const recent = returns.slice(-LAST);
      if (recent.length === LAST && recent.reduce((a, b) => a + b, 0) / LAST >= spec.target) {
        hit = { steps: u.envSteps, seconds: u.wallSeconds };
        run.stop();
      }
    },
    nodePlatform(),
  );
  await run.run();
  if (hit) return hit;
  const recent = returns.slice(-LAST);
  return { final: recent.reduce((a, b) => a + b, 0) / Math.max(recent.length, 1) };
}

async function solveTable(specs: SolveSpec[], seeds: number[]) {
  const rows: (string | number)[][] = [];
  const figures: Record<string, unknown> = {};
  for (const spec of specs) {
    const solved: { steps: number; seconds: number }[] = [];
    const perSeed: string[] = [];
    for (const seed of seeds) {
      const r = await solve(spec, seed);
      if ('steps' in r) solved.push(r);
      perSeed.push('steps' in r ? `${r.steps} (${r.seconds.toFixed(0)} s)` : `– (${r.final.toFixed(0)})`);
      process.stderr.write(`${spec.algo} seed ${seed}: ${perSeed.at(-1)}\n`);
    }
    const fmt = (xs: number[], f: (x: number) => string) => (xs.length ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : '–');
    rows.push([
      spec.algo,
      `${spec.target} in ${spec.budget}`,
      `${solved.length}/${seeds.length}`,
      fmt(solved.map((x) => x.steps), (x) => String(Math.round(x))),
      fmt(solved.map((x) => x.seconds), (x) => x.toFixed(0)),
      perSeed.join(', '),
    ]);
    figures[spec.algo] = { solved: solved.length, seeds: seeds.length, runs: perSeed };
  }
  return { table: markdownTable(['algorithm', 'target in budget', 'solved', 'env steps: median (min–max)', 'wall s: median (min–max)', 'per seed (– = not reached, last-10 mean)'], rows), figures };
}

/**
 * SAC's gradient step on the sac-pendulum preset, timed in parts: the whole learn() (forward,
 * backward and the three Adam steps, which tfjs runs eagerly and cannot separate without a
 * readback in between), the same with a readback forced after each phase, and the sampling and
 * upload of a batch.
 */
async function sacStepProfile(steps = 200): Promise<Record<string, number>> {
  await chooseBackend({ preferred: 'wasm' });
  const config = resolveExperiment('sac-pendulum', { backend: 'wasm' });
  const { agent, net } = await buildContinuousLearner(config);
  const buffer = new ContinuousReplayBuffer(10_000, net.obsDim, net.actionDim, 1);
  const rng = new Rng(1);
  for (let i = 0; i < 2_000; i++) buffer.add([rng.normal(), rng.normal(), rng.normal()], [2 * rng.uniform() - 1], -rng.uniform(), [rng.normal(), rng.normal(), rng.normal()], 0);
  for (let i = 0; i < 10; i++) agent.learn(buffer.sample(256));
  let sample = 0;
  let learn = 0;
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    const b = buffer.sample(256);
    const t1 = performance.now();
    agent.learn(b); // ends with one readback of the metrics
    learn += performance.now() - t1;
    sample += t1 - t0;
  }
  // The forward pass alone (actor at s and s', four critic evaluations), read back once.
  const obs = tf.randomNormal([256, net.obsDim]) as tf.Tensor2D;
  let forward = 0;
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    tf.tidy(() => agent.algorithm.predict(obs).dataSync());
    forward += performance.now() - t0;
  }
  obs.dispose();
  agent.dispose();
  return { msPerLearn: learn / steps, msSampleBatch: sample / steps, msActorForward256: forward / steps };
}

export const solvePendulumBenchmark: Benchmark = {
  name: 'solve-pendulum',
  description: 'Env steps and wall seconds until the mean return of the last 10 episodes reaches −200 on Pendulum-v1 (DDPG, TD3, SAC presets; --algos ddpg,td3,sac), and SAC time per gradient step',
  async run({ seeds, flags }) {
    const all: SolveSpec[] = [
      { algo: 'ddpg', preset: 'ddpg-pendulum', target: -200, budget: 30_000 },
      { algo: 'td3', preset: 'td3-pendulum', target: -200, budget: 20_000 },
      { algo: 'sac', preset: 'sac-pendulum', target: -200, budget: 20_000 },
    ];
    const algos = (flags.algos ?? 'ddpg,td3,sac').split(',');
    const result = await solveTable(all.filter((x) => algos.includes(x.algo)), seeds);
    const profile = await sacStepProfile();
    const line = `SAC gradient step (batch 256, nets 64×64): ${profile.msPerLearn.toFixed(1)} ms per learn(), ${profile.msSampleBatch.toFixed(2)} ms to sample the batch, ${profile.msActorForward256.toFixed(2)} ms for one actor forward pass with readback`;
    process.stderr.write(`${line}\n`);
    return { table: `${result.table}\n\n${line}`, figures: { ...result.figures, sacProfile: profile } };
  },
};

export const solveMountainCarContinuousBenchmark: Benchmark = {
  name: 'solve-mountaincar-continuous',
  description: 'Env steps until the mean return of the last 10 episodes passes 90 on MountainCarContinuous-v0 (SAC with fixed α 0.1, TD3 with Gaussian noise σ 0.5), 3 seeds',
  async run({ seeds }) {
    return solveTable(
      [
        { algo: 'sac', preset: 'sac-mountaincar-continuous', target: 90, budget: 100_000 },
        { algo: 'td3', preset: 'td3-mountaincar-continuous', target: 90, budget: 100_000 },
      ],
      seeds.slice(0, 3),
    );
  },
};

export const offlinePendulumBenchmark: Benchmark = {
  name: 'offline-pendulum',
  description: 'From public/datasets/pendulum-mixed.json: the evaluated return (mean of the last evaluation) of CQL, behaviour cloning and SAC offline (α_cql = 0), 3 seeds',
  async run({ seeds }) {
    const variants: { name: string; preset: string; overrides: Record<string, unknown> }[] = [
      { name: 'CQL (α_cql 5)', preset: 'cql-pendulum', overrides: {} },
      { name: 'SAC offline (α_cql 0)', preset: 'cql-pendulum', overrides: { 'cql.cqlAlpha': 0 } },
      { name: 'behaviour cloning', preset: 'bc-pendulum', overrides: {} },
    ];
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = {};
    for (const v of variants) {
      const finals: number[] = [];
      for (const seed of seeds.slice(0, 3)) {
        let last = NaN;
        const config = resolveExperiment(v.preset, { ...v.overrides, seed, backend: 'wasm' });
        await new TrainingRun(config, (r) => {
          if (r.type === 'update') last = r.metrics.evalReturn;
        }, nodePlatform()).run();
        finals.push(last);
        process.stderr.write(`${v.name} seed ${seed}: ${last.toFixed(1)}\n`);
      }
      rows.push([v.name, finals.map((x) => x.toFixed(0)).join(', '), median(finals).toFixed(0)]);
      figures[v.name] = finals;
    }
    return { table: markdownTable(['method', 'evaluated return per seed', 'median'], rows), figures };
  },
};
