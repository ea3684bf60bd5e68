/**
 * marl: the multi-agent algorithms on the particle worlds, on small budgets sized for a shared
 * 2-core machine (the reference budgets are millions of steps: see the descriptors).
 *   1. simple_spread_v3 (3 agents), MADDPG, QMIX, VDN, IQL, every seed: the mean team return
 *      (Σ over agents, PettingZoo's local_ratio 0.5 rewards) over the whole run and over its last
 *      20 episodes, against a uniformly random policy, and whether QMIX ≥ VDN ≥ IQL holds.
 *   2. simple_tag_v3, MADDPG (predators and prey both learning), 3 seeds: catches per episode in
 *      the first and the last quarter of the run.
 * Reference figures: EPyMARL (Papoudakis et al. 2021, NeurIPS Datasets and Benchmarks, Table 3,
 * maximum returns with parameter sharing, MPE "Spread"): QMIX −126.62, VDN −131.03,
 * IQL −132.63, MADDPG −141.70 (their MPE fork, where every agent receives the shared reward and
 * the return is summed over the 3 agents, after 2e6 steps). Those numbers are quoted from memory
 * of the paper; the search tools here did not reach its table. Their reward differs from
 * PettingZoo's local_ratio 0.5 reward, so they are a scale, not a target.
 */
import { resolveExperiment } from '../../config/config';
import { deriveSeed, Rng } from '../../core/rng';
import { MpeVectorEnv } from '../../envs/mpe';
import { TrainingRun } from '../../engine/trainer';
import type { UpdateRecord } from '../../runs/records';
import { nodePlatform } from '../nodePlatform';
import { markdownTable, type Benchmark } from './types';

const EPYMARL_SPREAD: Record<string, number> = { qmix: -126.62, vdn: -131.03, iql: -132.63, maddpg: -141.7 };

const RUN = { actors: 1, envsPerActor: 4, backend: 'wasm' } as const;
const SPREAD_STEPS = 6_000;
const TAG_STEPS = 8_000;

/** Small-budget settings: the same algorithms, scaled down (batch, width, schedules). */
function spreadOverrides(algo: string): Record<string, unknown> {
  if (algo === 'maddpg') {
    return { 'maddpg.batchSize': 128, 'maddpg.learningStarts': 1_000, 'maddpg.trainEvery': 50, 'maddpg.hidden': 64 };
  }
  return { [`${algo}.batchSize`]: 8, [`${algo}.hidden`]: 32, [`${algo}.trainEvery`]: 4, [`${algo}.epsilonAnnealSteps`]: 3_000, [`${algo}.targetUpdateEpisodes`]: 20 };
}

async function train(preset: string, seed: number, overrides: Record<string, unknown>) {
  const updates: UpdateRecord[] = [];
  const config = resolveExperiment(preset, { ...RUN, seed, ...overrides });
  const summary = await new TrainingRun(config, (r) => r.type === 'update' && updates.push(r), nodePlatform()).run();
  if (summary.stopReason !== 'budget') throw new Error(`${preset} seed ${seed}: ${summary.stopReason} ${summary.error ?? ''}`);
  return { summary, updates };
}

/** Mean team return of a uniformly random joint policy over `episodes` episodes. */
function randomPolicyReturn(envId: string, seed: number, episodes: number): number {
  const vec = new MpeVectorEnv(envId, 4);
  const rng = new Rng(deriveSeed(seed, 0x7a9d));
  vec.reset(seed);
  const joint = new Int32Array(4 * vec.numAgents);
  let total = 0;
  let n = 0;
  while (n < episodes) {
    for (let i = 0; i < joint.length; i++) joint[i] = rng.int(vec.actionSizes[i % vec.numAgents]);
    for (const ep of vec.step(joint).episodes) {
      total += ep.returns.reduce((a, b) => a + b, 0);
      n += 1;
    }
  }
  return total / n;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');

export const marlBenchmark: Benchmark = {
  name: 'marl',
  description: 'MADDPG, QMIX, VDN, IQL on simple_spread (team return vs random and EPyMARL) and MADDPG on simple_tag (catches), small budgets',
  async run({ seeds }) {
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = { spreadSteps: SPREAD_STEPS, tagSteps: TAG_STEPS };
    const random = mean(seeds.map((s) => randomPolicyReturn('simple_spread_v3', s, 200)));
    rows.push(['random policy', 'simple_spread', '-', fmt(random), fmt(random), '-', '-']);
    const finals: Record<string, number> = {};
    for (const algo of ['maddpg', 'qmix', 'vdn', 'iql']) {
      const overall: number[] = [];
      const last: number[] = [];
      const secs: number[] = [];
      for (const seed of seeds) {
        const { summary, updates } = await train(`${algo}-spread`, seed, { 'marl.envSteps': SPREAD_STEPS, ...spreadOverrides(algo) });
        overall.push(mean(updates.flatMap((u) => u.returns)));
        last.push(summary.finalMeanReturn20 ?? NaN);
        secs.push(summary.wallSeconds);
        process.stderr.write(`${algo} seed ${seed}: mean ${overall.at(-1)!.toFixed(1)}, last 20 ${last.at(-1)!.toFixed(1)} (${summary.wallSeconds.toFixed(0)} s)\n`);
      }
      finals[algo] = mean(last);
      figures[algo] = { overall, last, secs };
      rows.push([algo.toUpperCase(), 'simple_spread', seeds.length, fmt(mean(overall)), fmt(mean(last)), EPYMARL_SPREAD[algo], fmt(mean(secs))]);
    }
    const order = finals.qmix >= finals.vdn && finals.vdn >= finals.iql;
    figures.random = random;
    figures.orderQmixVdnIql = order;
    const tagSeeds = seeds.slice(0, 3);
    const tag: { first: number; last: number }[] = [];
    for (const seed of tagSeeds) {
      const { updates } = await train('maddpg-tag', seed, { 'marl.envSteps': TAG_STEPS, 'maddpg.batchSize': 128, 'maddpg.learningStarts': 1_000, 'maddpg.trainEvery': 50 });
      const q = Math.max(1, Math.floor(updates.length / 4));
      const catches = (us: UpdateRecord[]) => mean(us.map((u) => u.metrics.catches));
      tag.push({ first: catches(updates.slice(0, q)), last: catches(updates.slice(-q)) });
      process.stderr.write(`maddpg-tag seed ${seed}: catches ${tag.at(-1)!.first.toFixed(2)} → ${tag.at(-1)!.last.toFixed(2)}\n`);
    }
    figures.tag = tag;
    rows.push(['MADDPG', 'simple_tag catches/episode (first → last quarter)', tagSeeds.length, tag.map((t) => `${t.first.toFixed(2)} → ${t.last.toFixed(2)}`).join('; '), '-', '-', '-']);
    const table = `${markdownTable(['algorithm', 'task', 'seeds', 'mean team return (whole run)', 'last 20 episodes', 'EPyMARL (other reward, 2e6 steps)', 'wall s / run'], rows)}\n\nQMIX ≥ VDN ≥ IQL on the last 20 episodes: ${order ? 'holds' : 'does not hold'} here (${['qmix', 'vdn', 'iql'].map((a) => `${a} ${fmt(finals[a])}`).join(', ')}).`;
    return { table, figures };
  },
};
