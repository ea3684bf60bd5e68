/**
 * Benchmarks of the parallel engine: raw environment throughput, how rollout throughput scales
 * with actors, how many steps and seconds each algorithm needs to solve CartPole, and the policy
 * lag distribution of asynchronous sampling.
 */
import { ActorPool } from '../src/core/remote/actorPool';
import { remoteClass } from '../src/core/remote/remoteClass';
import { Rng } from '../src/core/rng';
import { ConfigError, parseSettingText, resolveExperiment } from '../src/config/config';
import { modelSpecFor } from '../src/config/modelSpec';
import type { RunRecord } from '../src/runs/records';
import { FAST_PATH_MAX_BATCH, RolloutActor, type RolloutActorOptions } from '../src/engine/rolloutActor';
import { simdKernelsLoaded } from '../src/core/simd/kernels';
import { TrainingRun } from '../src/engine/trainer';
import { VectorEnv } from '../src/envs/vectorEnv';
import { chooseBackend } from '../src/core/backend';
import { nodePlatform } from '../src/cli/nodePlatform';
import { markdownTable, median, type Benchmark } from './types';

function actorOptions(actorIndex: number, numEnvs: number, fastPathMaxBatch?: number): RolloutActorOptions {
  return { envId: 'CartPole-v1', numEnvs, seed: 1, actorIndex, model: modelSpecFor(resolveExperiment('ppo-cartpole'), 'actorCritic'), backend: 'wasm', fastPathMaxBatch };
}

/** Steps per second of `fn(steps)` run for about `seconds`. */
function rate(seconds: number, chunk: number, fn: () => void): number {
  fn(); // warm up
  const started = performance.now();
  let steps = 0;
  while (performance.now() - started < seconds * 1000) {
    fn();
    steps += chunk;
  }
  return steps / ((performance.now() - started) / 1000);
}

export const envThroughputBenchmark: Benchmark = {
  name: 'env-throughput',
  description:
    'CartPole-v1 steps per second for one actor, stepping only (random actions) and with the actor\'s own policy inference (2x64 tanh actor-critic): all through tfjs wasm (policy stack only), all through the typed-array forward pass (core/fastMlp.ts, bit-identical), and as the actor chooses (typed arrays at every batch once the wasm SIMD kernels are loaded, else up to FAST_PATH_MAX_BATCH rows)',
  help: {
    seeds: null,
    flags: [
      { name: 'seconds', value: 'S', text: 'seconds each rate is measured over (default 3)' },
      { name: 'envs', value: 'N,N,...', text: 'env copies per row (default 1,4,16,64)' },
    ],
  },
  async run({ flags }) {
    await chooseBackend({ preferred: 'wasm' });
    const seconds = Number(flags.seconds ?? 3);
    const rows: (string | number)[][] = [];
    const figures: Record<string, number> = {};
    const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
    for (const n of (flags.envs ?? '1,4,16,64').split(',').map(Number)) {
      const vec = new VectorEnv('CartPole-v1', n);
      vec.reset(1);
      const rng = new Rng(1);
      const actions = new Int32Array(n);
      const stepOnly = rate(seconds, 100 * n, () => {
        for (let t = 0; t < 100; t++) {
          for (let i = 0; i < n; i++) actions[i] = rng.int(2);
          vec.step(actions);
        }
      });
      const inference: number[] = [];
      for (const maxBatch of [0, Infinity, undefined]) {
        const actor = new RolloutActor(actorOptions(0, n, maxBatch));
        await actor.init();
        inference.push(rate(seconds, 64 * n, () => actor.sampleSegment(null, 0, 64)));
        actor.dispose();
      }
      const [tfjsRate, fastRate, chosenRate] = inference;
      rows.push([n, fmt(stepOnly), fmt(tfjsRate), fmt(fastRate), fmt(chosenRate)]);
      figures[`stepOnly_${n}`] = stepOnly;
      figures[`withInference_${n}`] = chosenRate;
      figures[`withTfjsInference_${n}`] = tfjsRate;
      figures[`withTypedArrayInference_${n}`] = fastRate;
    }
    return {
      table: markdownTable(['env copies', 'steps/s, env only', 'with tfjs wasm inference', 'with typed-array inference', `as the actor chooses (typed arrays ${simdKernelsLoaded() ? 'at every batch' : `≤ ${FAST_PATH_MAX_BATCH} rows`})`], rows),
      figures,
    };
  },
};

export const actorScalingBenchmark: Benchmark = {
  name: 'actor-scaling',
  description: 'Rollout throughput (actor-side inference, 4 CartPole copies per actor, 256-step segments) with 1, 2 and 4 actors in worker threads, as a ratio to 1 actor',
  help: {
    seeds: null,
    flags: [
      { name: 'seconds', value: 'S', text: 'seconds of sampling per actor count (default 6)' },
      { name: 'actors', value: 'N,N,...', text: 'actor counts, one row each; the ratio is to the first (default 1,2,4)' },
    ],
  },
  async run({ flags }) {
    const seconds = Number(flags.seconds ?? 6);
    const counts = (flags.actors ?? '1,2,4').split(',').map(Number);
    const rows: (string | number)[][] = [];
    const figures: Record<string, number> = {};
    let base = 0;
    for (const k of counts) {
      const pool = await ActorPool.create(remoteClass(RolloutActor), k, (i): [RolloutActorOptions] => [actorOptions(i, 4)], {
        afterSpawn: async (a) => {
          await a.init();
        },
        heartbeatMs: 0,
      });
      await pool.map('sampleSegment', () => [null, 0, 32, 0]); // warm up
      const started = performance.now();
      let steps = 0;
      const deadline = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: k }, async (_, i) => {
          while (performance.now() < deadline) {
            const seg = await pool.call(i, 'sampleSegment', null, 0, 256, 0);
            steps += seg.T * seg.numEnvs;
          }
        }),
      );
      const sps = steps / ((performance.now() - started) / 1000);
      await pool.terminate();
      if (k === counts[0]) base = sps;
      rows.push([k, Math.round(sps).toLocaleString('en-US'), (sps / base).toFixed(2)]);
      figures[`actors_${k}`] = sps;
    }
    return { table: markdownTable(['actors', 'steps/s', `ratio to ${counts[0]} actor`], rows), figures };
  },
};

/**
 * `--set key=value,key=value`: settings applied over each preset (e.g. `envsPerActor=8` to measure
 * bigger batches), checked and parsed as `npm run train --set` does.
 */
export function settingOverrides(text: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (text === undefined) return out;
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new ConfigError('--set', `expected key=value[,key=value...], got ${JSON.stringify(part)}`);
    const key = part.slice(0, eq).trim();
    if (Object.hasOwn(out, key)) throw new ConfigError('--set', `${key} is given more than once`);
    out[key] = parseSettingText(key, part.slice(eq + 1).trim());
  }
  return out;
}

interface SolveSpec {
  algo: string;
  preset: string;
  budget: number;
  target: number;
}

const SOLVE: SolveSpec[] = [
  { algo: 'ppo', preset: 'ppo-cartpole', budget: 200_000, target: 475 },
  { algo: 'a2c', preset: 'a2c-cartpole', budget: 500_000, target: 475 },
  { algo: 'impala', preset: 'impala-cartpole', budget: 500_000, target: 475 },
  { algo: 'dqn', preset: 'dqn-cartpole', budget: 200_000, target: 400 },
];

export const solveCartpoleBenchmark: Benchmark = {
  name: 'solve-cartpole',
  description: 'Environment steps and wall seconds to a mean return of 475 (DQN: 400) over the last 20 episodes on CartPole-v1, per algorithm over seeds, learner on wasm in Node, 2 actors x 4 envs in worker threads (--algos ppo,dqn; --set key=value,... over the presets)',
  help: {
    seeds: 'one run per seed and algorithm (default 1,2,3,4,5)',
    flags: [
      { name: 'algos', value: 'a,b', text: `the algorithms to run, of ${SOLVE.map((x) => x.algo).join(', ')} (default all)` },
      { name: 'set', value: 'key=value,...', text: 'settings over each preset (e.g. envsPerActor=8), checked as npm run train --set checks them' },
    ],
  },
  async run({ seeds, flags }) {
    const algos = (flags.algos ?? SOLVE.map((x) => x.algo).join(',')).split(',');
    const unknownAlgos = algos.filter((a) => !SOLVE.some((x) => x.algo === a));
    if (unknownAlgos.length) throw new Error(`solve-cartpole: --algos takes ${SOLVE.map((x) => x.algo).join(', ')}, got ${unknownAlgos.join(', ')}`);
    const overrides = settingOverrides(flags.set);
    // Checked up front: a bad key fails before minutes of runs, not at the second algorithm.
    for (const spec of SOLVE.filter((x) => algos.includes(x.algo))) resolveExperiment(spec.preset, overrides);
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = {};
    for (const spec of SOLVE.filter((x) => algos.includes(x.algo))) {
      const solved: { steps: number; seconds: number }[] = [];
      const perSeed: (string | number)[] = [];
      for (const seed of seeds) {
        const config = resolveExperiment(spec.preset, { ...overrides, seed, 'run.envSteps': spec.budget, 'run.targetReturn': spec.target, 'run.stopAtTarget': true, backend: 'wasm' });
        const summary = await new TrainingRun(config, () => undefined, nodePlatform()).run();
        if (summary.solved) solved.push({ steps: summary.solved.envSteps, seconds: summary.solved.wallSeconds });
        perSeed.push(summary.solved ? summary.solved.envSteps : `– (${Math.round(summary.finalMeanReturn20 ?? 0)})`);
        process.stderr.write(`${spec.algo} seed ${seed}: ${summary.solved ? `solved at ${summary.solved.envSteps} steps, ${summary.solved.wallSeconds.toFixed(1)} s` : `not solved (final mean ${summary.finalMeanReturn20?.toFixed(1)})`}\n`);
      }
      const steps = solved.map((x) => x.steps);
      const secs = solved.map((x) => x.seconds);
      const fmt = (xs: number[], f: (x: number) => string) => (xs.length ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : '–');
      rows.push([
        spec.algo,
        `${spec.target} in ${spec.budget.toLocaleString('en-US')}`,
        `${solved.length}/${seeds.length}`,
        fmt(steps, (x) => Math.round(x).toLocaleString('en-US')),
        fmt(secs, (x) => x.toFixed(0)),
        perSeed.join(', '),
      ]);
      figures[spec.algo] = { solved: solved.length, seeds: seeds.length, runs: solved, ...(flags.set === undefined ? {} : { settings: overrides }) };
    }
    return {
      table: markdownTable(['algorithm', 'target in budget', 'solved', 'env steps: median (min–max)', 'wall s: median (min–max)', 'steps per seed (– = not solved, final mean)'], rows),
      figures,
    };
  },
};

export const policyLagBenchmark: Benchmark = {
  name: 'policy-lag',
  description: 'Policy lag (learner version minus the version that produced a segment) in asynchronous IMPALA sampling with 1, 2 and 4 actors (2 segments per batch, queue of 4, broadcast every update)',
  help: {
    seeds: null,
    flags: [{ name: 'steps', value: 'N', text: 'env steps per run of impala-cartpole, seed 1 (default 40000)' }],
  },
  async run({ flags }) {
    const steps = Number(flags.steps ?? 40_000);
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = {};
    for (const actors of [1, 2, 4]) {
      const lags: number[] = [];
      const config = resolveExperiment('impala-cartpole', { seed: 1, actors, 'run.envSteps': steps, backend: 'wasm' });
      await new TrainingRun(config, (r: RunRecord) => {
        if (r.type === 'update') lags.push(...(r.policyLags ?? []));
      }, nodePlatform()).run();
      const hist = [0, 1, 2, 3].map((k) => lags.filter((l) => l === k).length);
      const over = lags.filter((l) => l >= 4).length;
      const mean = lags.reduce((a, b) => a + b, 0) / lags.length;
      rows.push([actors, lags.length, ...hist.map((h) => `${((100 * h) / lags.length).toFixed(0)}%`), `${((100 * over) / lags.length).toFixed(0)}%`, mean.toFixed(2), Math.max(...lags)]);
      figures[`actors_${actors}`] = { histogram: [...hist, over], mean, max: Math.max(...lags) };
    }
    return { table: markdownTable(['actors', 'segments', 'lag 0', 'lag 1', 'lag 2', 'lag 3', 'lag ≥ 4', 'mean', 'max'], rows), figures };
  },
};
