/**
 * Make an offline-RL dataset: train a Box-action preset, then play episodes of its final policy
 * (the mix: `mixed`, greedy, noisy and random, or `medium`, greedy and σ 0.1 only; see
 * src/engine/datasetMaker.ts) and write them as a dataset file.
 *
 *   npm run dataset -- --preset sac-pendulum --seed 7 --steps 8000 --episodes 100 --out public/datasets/pendulum-mixed.json
 *   npm run dataset -- --preset sac-pendulum --seed 7 --steps 2500 --episodes 100 --mix medium --out public/datasets/pendulum-medium.json
 */
import { writeFileSync } from 'node:fs';
import { ConfigError, resolveExperiment, type ExperimentConfig } from '../config/config';
import { parseSettingText } from '../config/config';
import { DATASET_MIX_NAMES, datasetFileFromCheckpoint, isDatasetMixName, type DatasetMixName } from '../engine/datasetMaker';
import { TrainingRun } from '../engine/trainer';
import { nodePlatform } from './nodePlatform';
import { oneLine, runMain } from './runMain';
import { printHelpIfAsked } from './help';
import { parseFlags } from '../cluster/flags';

const USAGE = `Usage: npm run dataset -- --preset NAME --out FILE.json [--seed N] [--steps N] [--episodes N] [--mix ${DATASET_MIX_NAMES.join('|')}]`;

/** Episodes of the final policy in `checkpoint` as a dataset file at `path`; returns a one-line summary. */
export async function saveDataset(config: ExperimentConfig, checkpoint: Uint8Array, episodes: number, path: string, mix: DatasetMixName = 'mixed'): Promise<string> {
  const file = await datasetFileFromCheckpoint(config, checkpoint, episodes, mix);
  writeFileSync(path, file.text);
  return `dataset: ${file.summary} → ${path}`;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (printHelpIfAsked(argv, USAGE)) return 0;
  let parsed: Map<string, string>;
  try {
    parsed = parseFlags(argv, ['--preset', '--out', '--seed', '--steps', '--episodes', '--mix']);
  } catch (err) {
    process.stderr.write(`error: ${oneLine(err)}\n${USAGE}\n`);
    return 2;
  }
  const flags = Object.fromEntries([...parsed].map(([k, v]) => [k.slice(2), v])) as Partial<Record<'preset' | 'out' | 'seed' | 'steps' | 'episodes' | 'mix', string>>;
  if (!flags.preset || !flags.out) {
    process.stderr.write(`error: --preset NAME and --out FILE.json are required\n${USAGE}\n`);
    return 2;
  }
  let config;
  try {
    const overrides: Record<string, unknown> = { backend: 'wasm' };
    if (flags.seed) overrides.seed = parseSettingText('seed', flags.seed);
    if (flags.steps) overrides['run.envSteps'] = parseSettingText('run.envSteps', flags.steps);
    config = resolveExperiment(flags.preset, overrides);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const mix = flags.mix ?? 'mixed';
  if (!isDatasetMixName(mix)) {
    process.stderr.write(`error: --mix must be one of ${DATASET_MIX_NAMES.join(', ')}, not ${JSON.stringify(mix)}\n`);
    return 2;
  }
  const episodes = Number(flags.episodes ?? 100);
  if (!Number.isInteger(episodes) || episodes < 4) {
    process.stderr.write('error: --episodes must be an integer ≥ 4\n');
    return 2;
  }
  let last: Uint8Array | null = null;
  const run = new TrainingRun(
    config,
    (r) => {
      if (r.type === 'checkpoint') last = r.bytes;
      if (r.type === 'update' && r.update % 50 === 0) process.stderr.write(`steps ${r.envSteps} mean20 ${r.meanReturn20?.toFixed(1) ?? '-'}\n`);
    },
    nodePlatform(),
  );
  const summary = await run.run();
  process.stderr.write(`trained: ${summary.stopReason}, ${summary.envSteps} steps, mean20 ${summary.finalMeanReturn20?.toFixed(1) ?? '-'}\n`);
  if (!last) {
    process.stderr.write('error: the run left no weights\n');
    return 1;
  }
  process.stdout.write(`${await saveDataset(config, last, episodes, flags.out, mix)}\n`);
  return 0;
}

if (process.argv[1] && /dataset\.ts$/.test(process.argv[1])) runMain(main);
