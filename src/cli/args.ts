/**
 * Command-line parsing for `npm run train`. Turns flags into an ExperimentConfig; any problem is a
 * ConfigError naming the field, which the caller prints on one line before exiting with code 2.
 */
import { ConfigError, parseSettingText, resolveExperiment, type ExperimentConfig } from '../config/config';
import { decodeExperiment, type IgnoredPart } from '../config/urlState';

export interface TrainArgs {
  config: ExperimentConfig;
  out: string | null;
  /** Where to keep the learner's newest weights (a PARLCKPT file), or null. */
  checkpoint: string | null;
  quiet: boolean;
  /** Parts of a `--url` link that were dropped, with the reason. */
  ignored: IgnoredPart[];
}

export const TRAIN_USAGE = `Usage: npm run train -- --preset NAME [--seed N] [--steps N] [--actors N]
                       [--set key=value]... [--url LINK] [--out FILE.jsonl]
                       [--checkpoint FILE.parlckpt] [--quiet]`;

const VALUE_FLAGS = new Set(['--preset', '--seed', '--steps', '--actors', '--set', '--url', '--out', '--checkpoint']);

export function parseTrainArgs(argv: readonly string[]): TrainArgs {
  let preset: string | null = null;
  let url: string | null = null;
  let out: string | null = null;
  let checkpoint: string | null = null;
  let quiet = false;
  const overrides: Record<string, unknown> = {};

  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quiet') {
      quiet = true;
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) throw new ConfigError(flag, `unknown option\n${TRAIN_USAGE}`);
    const value = argv[++i];
    if (value === undefined) throw new ConfigError(flag, 'needs a value');
    switch (flag) {
      case '--preset':
        preset = value;
        break;
      case '--url':
        url = value;
        break;
      case '--out':
        out = value;
        break;
      case '--checkpoint':
        checkpoint = value;
        break;
      case '--seed':
        overrides.seed = parseSettingText('seed', value);
        break;
      case '--steps':
        overrides['run.envSteps'] = parseSettingText('run.envSteps', value);
        break;
      case '--actors':
        overrides.actors = parseSettingText('actors', value);
        break;
      case '--set': {
        const eq = value.indexOf('=');
        if (eq <= 0) throw new ConfigError('--set', `expected key=value, got ${JSON.stringify(value)}`);
        const key = value.slice(0, eq);
        overrides[key] = parseSettingText(key, value.slice(eq + 1));
        break;
      }
    }
  }

  let ignored: IgnoredPart[] = [];
  let base: ExperimentConfig;
  if (url !== null) {
    const decoded = decodeExperiment(url);
    ignored = decoded.ignored;
    if (ignored.some((p) => p.field === 'link' || p.field.startsWith('link.'))) {
      throw new ConfigError('--url', ignored[0].reason);
    }
    if (preset !== null) throw new ConfigError('--preset', 'cannot be combined with --url (the link names its own preset)');
    base = decoded.config;
  } else {
    if (preset === null) throw new ConfigError('--preset', `is required (or give --url)\n${TRAIN_USAGE}`);
    base = resolveExperiment(preset);
  }
  const config = resolveExperiment(base.preset, { ...base.settings, ...overrides });
  return { config, out, checkpoint, quiet, ignored };
}
