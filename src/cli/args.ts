/**
 * Command-line parsing for `npm run train`. Turns flags into an ExperimentConfig; any problem is a
 * ConfigError naming the field, which the caller prints on one line before exiting with code 2.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { checkKeysApply, ConfigError, parseSettingText, resolveExperiment, type ExperimentConfig } from '../config/config';
import { decodeExperiment, extractToken, type IgnoredPart } from '../config/urlState';
import { budgetOf } from '../config/budget';
import { checkLiveChange, type LiveChange } from '../config/liveSettings';

export interface TrainArgs {
  config: ExperimentConfig;
  out: string | null;
  /** Where to keep the learner's newest weights (a PARLCKPT file), or null. */
  checkpoint: string | null;
  /** --save-dataset: after the run, episodes of the final policy as an offline-RL dataset file (Box-action algorithms). */
  saveDataset: string | null;
  quiet: boolean;
  /** Parts of a `--url` link that were dropped, with the reason. */
  ignored: IgnoredPart[];
  /** The live changes a `--url` link carries, replayed at the same updates. */
  changes: LiveChange[];
}

export const TRAIN_USAGE = `Usage: npm run train -- --preset NAME [--seed N] [--steps N] [--actors N]
                       [--set key=value]... [--url LINK] [--out FILE.jsonl]
                       [--checkpoint FILE.parlckpt] [--save-dataset FILE.json] [--quiet]
                       [--cluster URL --creds FILE [--cluster-pack K]]
--steps N sets the run's budget: env steps (run.envSteps), an agent swarm's orchestrator
updates (swarm.updates), an offline run's gradient steps (cql.gradientSteps, ...).`;

const VALUE_FLAGS = new Set(['--preset', '--seed', '--steps', '--actors', '--set', '--url', '--out', '--checkpoint', '--save-dataset']);
/** Flags that may be given more than once (each --set adds a setting). */
const REPEATABLE = new Set(['--set']);
/** Flags whose value is a file path to write. */
const PATH_FLAGS = new Set(['--out', '--checkpoint', '--save-dataset']);

/** `key=value`: one setting, its value parsed as that setting's kind (a ConfigError names `flag`, or the key). */
export function parseSettingAssignment(flag: string, text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new ConfigError(flag, `expected key=value, got ${JSON.stringify(text)}`);
  const key = text.slice(0, eq);
  return [key, parseSettingText(key, text.slice(eq + 1))];
}

/**
 * A bench's `--set k=v,k=v` (ui time-to-target, soak): the settings it changes from `preset`'s, each parsed as
 * `train --set` parses it and checked against the preset (a setting of another algorithm is refused).
 */
export function presetSettingChanges(preset: string, text: string | undefined): Record<string, unknown> {
  const changed = Object.fromEntries((text ?? '').split(',').filter((a) => a.trim() !== '').map((a) => parseSettingAssignment('--set', a.trim())));
  checkKeysApply(resolveExperiment(preset, changed), Object.keys(changed));
  return changed;
}

export function parseTrainArgs(argv: readonly string[]): TrainArgs {
  let preset: string | null = null;
  let url: string | null = null;
  let out: string | null = null;
  let checkpoint: string | null = null;
  let saveDataset: string | null = null;
  let quiet = false;
  let steps: string | null = null;
  const overrides: Record<string, unknown> = {};
  // Which flag set each setting (`--seed 6` after `--set seed=5` would silently win).
  const setBy = new Map<string, string>();
  const setting = (flag: string, key: string, value: unknown, given: string) => {
    const earlier = setBy.get(key);
    if (earlier !== undefined) throw new ConfigError(flag, `sets ${key} again (${earlier} already sets it): give it once`);
    setBy.set(key, given);
    overrides[key] = value;
  };
  const seen = new Set<string>();

  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (seen.has(flag) && !REPEATABLE.has(flag)) throw new ConfigError(flag, 'is given more than once');
    seen.add(flag);
    if (flag === '--quiet') {
      quiet = true;
      continue;
    }
    if (!flag.startsWith('--')) throw new ConfigError(JSON.stringify(flag), `is not an option (options start with --)\n${TRAIN_USAGE}`);
    if (!VALUE_FLAGS.has(flag)) throw new ConfigError(flag, `unknown option\n${TRAIN_USAGE}`);
    const value = argv[++i];
    if (value === undefined) throw new ConfigError(flag, 'needs a value');
    if (PATH_FLAGS.has(flag) && value.trim() === '') throw new ConfigError(flag, `needs a file path, got ${JSON.stringify(value)}`);
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
      case '--save-dataset':
        saveDataset = value;
        break;
      case '--seed':
        setting(flag, 'seed', parseSettingText('seed', value), `${flag} ${value}`);
        break;
      case '--steps':
        // Which setting it sets depends on the algorithm, known once the preset or link is read.
        steps = value;
        break;
      case '--actors':
        setting(flag, 'actors', parseSettingText('actors', value), `${flag} ${value}`);
        break;
      case '--set': {
        const [key, v] = parseSettingAssignment('--set', value);
        setting(flag, key, v, `${flag} ${value}`);
        break;
      }
    }
  }

  let ignored: IgnoredPart[] = [];
  let changes: LiveChange[] = [];
  let base: ExperimentConfig;
  checkDistinctOutputs([
    ['--out', out],
    ['--checkpoint', checkpoint],
    ['--checkpoint', checkpoint === null ? null : `${checkpoint}.partial`],
    ['--save-dataset', saveDataset],
  ]);
  if (url !== null) {
    // An empty link would train the default preset, which nobody asked for.
    if (url.trim() === '') throw new ConfigError('--url', 'is empty: give the link the page\'s Share button makes');
    if (extractToken(url.trim()) === '') throw new ConfigError('--url', `${JSON.stringify(url)} carries no experiment (nothing after #): give the link the page's Share button makes`);
    const decoded = decodeExperiment(url);
    ignored = decoded.ignored;
    if (ignored.some((p) => p.field === 'link' || p.field.startsWith('link.'))) {
      throw new ConfigError('--url', ignored[0].reason);
    }
    if (preset !== null) throw new ConfigError('--preset', 'cannot be combined with --url (the link names its own preset)');
    base = decoded.config;
    changes = decoded.changes;
  } else {
    if (preset === null) throw new ConfigError('--preset', `is required (or give --url)\n${TRAIN_USAGE}`);
    base = resolveExperiment(preset);
  }
  if (steps !== null) {
    // The run's one budget (config/budget.ts): env steps, a swarm's updates or an offline run's gradient steps.
    const { key } = budgetOf(resolveExperiment(base.preset, { ...base.settings, ...overrides }).settings.algorithm);
    const earlier = setBy.get(key);
    if (earlier !== undefined) throw new ConfigError('--steps', `sets ${key} again (${earlier} already sets it): give it once`);
    overrides[key] = parseSettingText(key, steps);
  }
  const config = resolveExperiment(base.preset, { ...base.settings, ...overrides });
  checkKeysApply(config, Object.keys(overrides));
  // --set may change what the link's changes apply to: check them against the final config.
  changes = changes.map((c) => checkLiveChange(config, c.update, c.key, c.value));
  return { config, out, checkpoint, saveDataset, quiet, ignored, changes };
}

/**
 * Null when `path` can be written by this process: an existing file we may write (with
 * `regularFile`, only a regular one), or a new file in an existing, writable folder. Otherwise a reason (for "FLAG: reason").
 * Checked before training starts, so a bad path never costs a run.
 */
export function outputPathProblem(path: string, options: { regularFile?: boolean } = {}): string | null {
  if (path.trim() === '') return `needs a file path, got ${JSON.stringify(path)}`;
  const full = resolve(path);
  let exists = true;
  try {
    const st = statSync(full);
    if (st.isDirectory()) return `${path} is a directory`;
    // A stream (--out /dev/stdout) may be a device; a file written by rename never may.
    if (!st.isFile() && options.regularFile) return `${path} is not a regular file`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return `${dirname(full)} is not a folder`;
    if (code !== 'ENOENT') return `cannot use ${path} (${code ?? (err as Error).message})`;
    exists = false;
  }
  const folder = dirname(full);
  try {
    if (exists) accessSync(full, constants.W_OK);
    else {
      if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
      accessSync(folder, constants.W_OK);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `cannot write to the folder ${folder} (it does not exist)`;
    if (code === 'ENOTDIR') return `${folder} is not a folder`;
    return exists ? `cannot write to ${path} (${code ?? 'not writable'})` : `cannot write to the folder ${folder} (${code ?? 'not writable'})`;
  }
  return null;
}

/** Throw a ConfigError naming `flag` when `path` cannot be written (see outputPathProblem). */
export function checkOutputPath(flag: string, path: string, options: { regularFile?: boolean } = {}): void {
  const problem = outputPathProblem(path, options);
  if (problem) throw new ConfigError(flag, problem);
}

/**
 * What names the file at `path`: its device and inode when it exists (another spelling, a link),
 * else its folder with links resolved and its name.
 */
function fileIdentity(path: string): string {
  try {
    const st = statSync(path);
    return `inode ${st.dev}:${st.ino}`;
  } catch {
    try {
      return `path ${join(realpathSync(dirname(resolve(path))), basename(path))}`;
    } catch {
      return `path ${resolve(path)}`;
    }
  }
}

/**
 * Throws a ConfigError when two outputs would be the same file (`--out F --checkpoint ./F`): one
 * would overwrite the other. `outputs` are [flag, path] pairs; a null path is an output not asked for.
 */
export function checkDistinctOutputs(outputs: readonly (readonly [flag: string, path: string | null])[]): void {
  const taken = new Map<string, readonly [string, string]>();
  for (const [flag, path] of outputs) {
    if (path === null || path.trim() === '') continue;
    const id = fileIdentity(path);
    const other = taken.get(id);
    if (other !== undefined && other[0] !== flag) {
      throw new ConfigError(flag, `${path} is the same file as ${other[0]} ${other[1]}: one would overwrite the other; give each output its own file`);
    }
    taken.set(id, [flag, path]);
  }
}

/** The NATS URL schemes a learner connects with (ws:// and wss:// are the page's, through the server's WebSocket port). */
const CLUSTER_SCHEMES = ['nats:', 'tls:'];

/**
 * Throws a ConfigError naming `--cluster` and its URL when the URL cannot reach a NATS server
 * (`--cluster http://evil`), before the credentials file is read. Without `--cluster` it does nothing.
 */
export function checkClusterUrl(argv: readonly string[]): void {
  const at = argv.indexOf('--cluster');
  if (at < 0 || at + 1 >= argv.length) return;
  const url = argv[at + 1];
  if (url.startsWith('--')) return;
  const expected = 'expected nats://HOST:PORT or tls://HOST:PORT';
  if (url.trim() === '') throw new ConfigError('--cluster', `needs the cluster's URL, got ""; ${expected}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('--cluster', `${JSON.stringify(url)} is not a URL; ${expected}`);
  }
  if (!CLUSTER_SCHEMES.includes(parsed.protocol)) {
    throw new ConfigError('--cluster', `${url} is not a NATS server URL (scheme ${parsed.protocol.slice(0, -1)}); ${expected}`);
  }
  if (parsed.hostname === '') throw new ConfigError('--cluster', `${url} names no host; ${expected}`);
}
