/**
 * Continuous-control benchmarks (learner on wasm in Node, actors in worker threads):
 *   - solve-pendulum: env steps and wall seconds until the mean return of the last 10 episodes
 *     reaches −200 on Pendulum-v1, DDPG, TD3 and SAC from their presets (Gaussian PPO with
 *     --algos ppo), plus SAC's time per gradient step;
 *   - solve-mountaincar-continuous: steps until the mean of the last 10 episodes passes 90, SAC (with
 *     gSDE, as its preset) and TD3;
 *   - offline-pendulum: CQL vs behaviour cloning vs SAC offline (CQL with α_cql = 0) from the
 *     shipped dataset (--dataset pendulum-mixed or pendulum-medium), the evaluated return at the end.
 */
import * as tf from '@tensorflow/tfjs';
import { resolveExperiment } from '../src/config/config';
import { DATASETS } from '../src/config/algorithms/continuousShared';
import { chooseBackend } from '../src/core/backend';
import { Rng } from '../src/core/rng';
import { ContinuousReplayBuffer } from '../src/algorithms/replayBuffer';
import { buildContinuousLearner } from '../src/engine/continuousLearner';
import { TrainingRun } from '../src/engine/trainer';
import type { UpdateRecord } from '../src/runs/records';
import { nodePlatform } from '../src/cli/nodePlatform';
import { markdownTable, median, type Benchmark } from './types';

const LAST = 10;

interface SolveSpec {
  algo: string;
  preset: string;
  target: number;
  budget: number;
  /** Settings over the preset's (the bench's flags). */
  overrides?: Record<string, unknown>;
  /** Print the steps and the last-10 mean to stderr each time an episode ends (long runs). */
  progress?: boolean;
}

/** Run a preset until the mean of the last 10 episodes reaches the target (or the budget ends). */
async function solve(spec: SolveSpec, seed: number): Promise<{ steps: number; seconds: number } | { final: number }> {
  const config = resolveExperiment(spec.preset, { ...spec.overrides, seed, 'run.envSteps': spec.budget, backend: 'wasm' });
  const returns: number[] = [];
  let hit: { steps: number; seconds: number } | null = null;
  const run = new TrainingRun(
    config,
    (r) => {
      if (r.type !== 'update' || hit) return;
      const u = r as UpdateRecord;
      returns.push(...u.returns);
      const recent = returns.slice(-LAST);
      if (spec.progress && u.returns.length) {
        const m = u.metrics;
        // What the exploration looks like: the spread of the actions of this update's segments, α, gSDE's mean σ.
        const shown: [string, number | undefined][] = [['action std', m.actionStd], ['α', m.alpha], ['gSDE σ', m.sdeStd]];
        const extra = shown.flatMap(([k, v]) => (v === undefined ? [] : [`${k} ${v.toFixed(3)}`]));
        process.stderr.write(`  ${spec.algo} seed ${seed}: ${u.envSteps} steps, ${returns.length} episodes, last-${LAST} mean ${(recent.reduce((a, b) => a + b, 0) / recent.length).toFixed(1)}${extra.length ? `, ${extra.join(', ')}` : ''}, ${u.wallSeconds.toFixed(0)} s\n`);
      }
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
 * SAC's gradient step on the sac-pendulum preset: the whole learn() (upload of the batch, forward,
 * backward, the three Adam steps, the target update and the one readback of the metrics), the
 * sampling of a batch from the replay buffer, and one actor forward pass with readback.
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
  description: 'Env steps and wall seconds until the mean return of the last 10 episodes reaches −200 on Pendulum-v1 (DDPG, TD3, SAC presets; --algos ddpg,td3,sac; ppo for Gaussian PPO), and SAC time per gradient step',
  help: {
    seeds: 'one run per seed and algorithm (default 1,2,3,4,5)',
    flags: [{ name: 'algos', value: 'a,b', text: 'of ddpg, td3, sac and ppo (Gaussian PPO, 200,000 steps); default ddpg,td3,sac' }],
  },
  async run({ seeds, flags }) {
    const all: SolveSpec[] = [
      { algo: 'ddpg', preset: 'ddpg-pendulum', target: -200, budget: 30_000 },
      { algo: 'td3', preset: 'td3-pendulum', target: -200, budget: 20_000 },
      { algo: 'sac', preset: 'sac-pendulum', target: -200, budget: 20_000 },
      { algo: 'ppo', preset: 'ppo-continuous-pendulum', target: -200, budget: 200_000, progress: true },
    ];
    const algos = (flags.algos ?? 'ddpg,td3,sac').split(',');
    const unknownAlgos = algos.filter((a) => !all.some((x) => x.algo === a));
    if (unknownAlgos.length) throw new Error(`solve-pendulum: --algos takes ${all.map((x) => x.algo).join(', ')}, got ${unknownAlgos.join(', ')}`);
    const result = await solveTable(all.filter((x) => algos.includes(x.algo)), seeds);
    const profile = await sacStepProfile();
    const line = `SAC gradient step (batch 256, nets 64×64): ${profile.msPerLearn.toFixed(1)} ms per learn(), ${profile.msSampleBatch.toFixed(2)} ms to sample the batch, ${profile.msActorForward256.toFixed(2)} ms for one actor forward pass with readback`;
    process.stderr.write(`${line}\n`);
    return { table: `${result.table}\n\n${line}`, figures: { ...result.figures, sacProfile: profile } };
  },
};

/**
 * The MountainCarContinuous specs from the bench's flags: --budget N (env steps per run, default
 * the presets' 100,000), --algos sac,td3, and the exploration to use: --sac-alpha (SAC's fixed
 * entropy temperature), --sac-sde (on or off: gSDE), --sac-log-std-init (gSDE's initial log σ),
 * --sac-sde-freq (steps between exploration matrices, −1: each segment), --td3-noise (TD3's noise
 * σ) and --td3-process (gaussian or ou), each defaulting to its preset's.
 */
export function mountainCarSpecs(flags: Record<string, string>): SolveSpec[] {
  const budget = Number(flags.budget ?? 100_000);
  if (!Number.isInteger(budget) || budget < 1_000) throw new Error('--budget must be an integer of at least 1000 env steps');
  const algos = (flags.algos ?? 'sac,td3').split(',');
  const unknown = algos.filter((a) => a !== 'sac' && a !== 'td3');
  if (unknown.length) throw new Error(`--algos: ${unknown.join(', ')} is not sac or td3`);
  const overrides = (key: string, flag: string): Record<string, unknown> => (flags[flag] === undefined ? {} : { [key]: Number(flags[flag]) });
  const sde = flags['sac-sde'];
  if (sde !== undefined && sde !== 'on' && sde !== 'off') throw new Error(`--sac-sde: ${sde} is not on or off`);
  const sacOverrides = {
    ...overrides('sac.initAlpha', 'sac-alpha'),
    ...(sde === undefined ? {} : { 'sac.useSde': sde === 'on' }),
    ...overrides('sac.logStdInit', 'sac-log-std-init'),
    ...overrides('sac.sdeSampleFreq', 'sac-sde-freq'),
  };
  const process = flags['td3-process'];
  if (process !== undefined && process !== 'gaussian' && process !== 'ou') throw new Error(`--td3-process: ${process} is not gaussian or ou`);
  const all: SolveSpec[] = [
    { algo: 'sac', preset: 'sac-mountaincar-continuous', target: 90, budget, progress: true, overrides: sacOverrides },
    { algo: 'td3', preset: 'td3-mountaincar-continuous', target: 90, budget, progress: true, overrides: { ...overrides('td3.explorationNoise', 'td3-noise'), ...(process === undefined ? {} : { 'td3.explorationProcess': process }) } },
  ];
  return all.filter((x) => algos.includes(x.algo));
}

export const solveMountainCarContinuousBenchmark: Benchmark = {
  name: 'solve-mountaincar-continuous',
  description: 'Env steps until the mean return of the last 10 episodes passes 90 on MountainCarContinuous-v0 (SAC with gSDE and fixed α 0.1, TD3 with Ornstein-Uhlenbeck noise σ 0.5; --sac-alpha, --sac-sde, --sac-log-std-init, --sac-sde-freq, --td3-noise, --td3-process, --budget, --algos), 3 seeds',
  help: {
    seeds: 'one run per seed and algorithm, the first 3 seeds given (default 1,2,3)',
    flags: [
      { name: 'budget', value: 'N', text: 'env steps per run, at least 1000 (default 100000)' },
      { name: 'algos', value: 'a,b', text: 'of sac and td3 (default sac,td3)' },
      { name: 'sac-alpha', value: 'X', text: "SAC's fixed entropy temperature (default the preset's)" },
      { name: 'sac-sde', value: 'on|off', text: "SAC's gSDE exploration (default the preset's)" },
      { name: 'sac-log-std-init', value: 'X', text: "gSDE's initial log σ (default the preset's)" },
      { name: 'sac-sde-freq', value: 'N', text: "env steps between gSDE's exploration matrices, −1: each segment (default the preset's)" },
      { name: 'td3-noise', value: 'X', text: "TD3's exploration noise σ (default the preset's)" },
      { name: 'td3-process', value: 'gaussian|ou', text: "TD3's noise process (default the preset's)" },
    ],
  },
  async run({ seeds, flags }) {
    const specs = mountainCarSpecs(flags);
    const exploration = specs.map((x) => `${x.algo}: ${JSON.stringify(x.overrides)}`).join('; ');
    process.stderr.write(`exploration over the presets: ${exploration}\n`);
    const result = await solveTable(specs, seeds.slice(0, 3));
    return { table: `${result.table}\n\nExploration over the presets: ${exploration}`, figures: { ...result.figures, overrides: Object.fromEntries(specs.map((x) => [x.algo, x.overrides])) } };
  },
};

/** The offline variants: CQL, the same without its conservative term, and behaviour cloning. */
const OFFLINE_VARIANTS: { key: string; name: string; preset: string; steps: string; overrides: Record<string, unknown> }[] = [
  { key: 'cql', name: 'CQL (α_cql 5)', preset: 'cql-pendulum', steps: 'cql.gradientSteps', overrides: {} },
  { key: 'sac', name: 'SAC offline (α_cql 0)', preset: 'cql-pendulum', steps: 'cql.gradientSteps', overrides: { 'cql.cqlAlpha': 0 } },
  { key: 'bc', name: 'behaviour cloning', preset: 'bc-pendulum', steps: 'bc.gradientSteps', overrides: {} },
];

/**
 * --variants cql,sac,bc picks some; --gradient-steps N replaces the presets' 5,000 (a budget cut, the
 * same for all); --dataset NAME (one of public/datasets/NAME.json the config knows) replaces the
 * presets' pendulum-mixed for all.
 */
export function offlineVariants(flags: Record<string, string>): typeof OFFLINE_VARIANTS {
  const keys = (flags.variants ?? 'cql,sac,bc').split(',');
  const unknown = keys.filter((k) => !OFFLINE_VARIANTS.some((v) => v.key === k));
  if (unknown.length) throw new Error(`--variants: ${unknown.join(', ')} is not cql, sac or bc`);
  const steps = flags['gradient-steps'] === undefined ? null : Number(flags['gradient-steps']);
  const dataset = flags.dataset ?? null;
  if (dataset !== null && !(DATASETS as readonly string[]).includes(dataset)) throw new Error(`--dataset: ${dataset} is not one of ${DATASETS.join(', ')}`);
  return OFFLINE_VARIANTS.filter((v) => keys.includes(v.key)).map((v) => {
    const prefix = v.steps.slice(0, v.steps.indexOf('.'));
    const overrides = { ...v.overrides, ...(steps === null ? {} : { [v.steps]: steps }), ...(dataset === null ? {} : { [`${prefix}.dataset`]: dataset }) };
    return { ...v, overrides };
  });
}

/** The dataset the offline bench reads: --dataset, else the presets' default. */
export function offlineDatasetName(flags: Record<string, string>): string {
  return flags.dataset ?? 'pendulum-mixed';
}

export const offlinePendulumBenchmark: Benchmark = {
  name: 'offline-pendulum',
  description: 'From public/datasets/pendulum-mixed.json (or --dataset pendulum-medium): the evaluated return (mean of the last evaluation) of CQL, behaviour cloning and SAC offline (α_cql = 0), 3 seeds (--variants cql,sac,bc, --gradient-steps N, --dataset NAME)',
  help: {
    seeds: 'one run per seed and variant, the first 3 seeds given (default 1,2,3)',
    flags: [
      { name: 'variants', value: 'a,b', text: 'of cql, sac (SAC offline: CQL with α_cql 0) and bc (default cql,sac,bc)' },
      { name: 'gradient-steps', value: 'N', text: "gradient steps of every variant (default the presets' 5000)" },
      { name: 'dataset', value: 'NAME', text: `public/datasets/NAME.json, one of ${DATASETS.join(', ')} (default pendulum-mixed)` },
    ],
  },
  async run({ seeds, flags }) {
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = { dataset: offlineDatasetName(flags) };
    process.stderr.write(`dataset: public/datasets/${offlineDatasetName(flags)}.json\n`);
    for (const v of offlineVariants(flags)) {
      const finals: number[] = [];
      const curves: number[][] = [];
      for (const seed of seeds.slice(0, 3)) {
        let last = NaN;
        const curve: number[] = [];
        const config = resolveExperiment(v.preset, { ...v.overrides, seed, backend: 'wasm' });
        await new TrainingRun(config, (r) => {
          if (r.type !== 'update') return;
          last = r.metrics.evalReturn;
          curve.push(last);
          process.stderr.write(`  ${v.name} seed ${seed}: ${r.metrics.gradientSteps} gradient steps, evaluated ${last.toFixed(1)}, ${r.wallSeconds.toFixed(0)} s\n`);
        }, nodePlatform()).run();
        finals.push(last);
        curves.push(curve);
        process.stderr.write(`${v.name} seed ${seed}: ${last.toFixed(1)}\n`);
      }
      rows.push([v.name, finals.map((x) => x.toFixed(0)).join(', '), median(finals).toFixed(0)]);
      figures[v.name] = { finals, evaluations: curves, overrides: v.overrides };
    }
    return { table: markdownTable(['method', 'evaluated return per seed', 'median'], rows), figures };
  },
};
