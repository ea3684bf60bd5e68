/**
 * Old setting keys, mapped to today's; links, run files and saved runs made before keep loading
 * through these tables.
 *   - Link version 2 gave every hyperparameter the name of its update rule's config field
 *     (`ppo.clip` → `ppo.clipCoef`).
 *   - Link version 3 gave continuous PPO's settings the prefix of its id (`ppoc.lr` →
 *     `ppo-continuous.lr`), and every run one budget (budget.ts): the multi-agent runs' own
 *     `marl.envSteps` became `run.envSteps`, which the progress bar and `train --steps` read.
 * The tables are Maps, not object literals: keys come from links and files, and `toString` or
 * `__proto__` must find nothing.
 */
import { ALGORITHM_IDS, descriptorOf, type AlgorithmId } from './registry';
import { getPreset } from './presets';
import { defaultSettings, isSettingKey } from './settings';

/** Version-1 key → the version-2 key(s) it sets (IMPALA's one ρ̄ set both of its clips). */
const RENAMED_IN_V2: ReadonlyMap<string, readonly string[]> = new Map([
  ['ppo.clip', ['ppo.clipCoef']],
  ['ppo.epochs', ['ppo.updateEpochs']],
  ['ppo.minibatches', ['ppo.numMinibatches']],
  ['reinforce.entropyCoef', ['reinforce.entCoef']],
  ['impala.rhoBar', ['impala.clipRhoThreshold', 'impala.clipPgRhoThreshold']],
  ['impala.cBar', ['impala.clipCThreshold']],
  ['dqn.targetUpdate', ['dqn.targetNetworkFrequency']],
  ['dqn.epsStart', ['dqn.startE']],
  ['dqn.epsEnd', ['dqn.endE']],
  ['dqn.epsFraction', ['dqn.explorationFraction']],
  ['dqn.double', ['dqn.doubleDqn']],
  ['es.pairs', ['es.numPairs']],
  ['es.l2', ['es.l2Coeff']],
  ['swarm.entropyCoef', ['swarm.entCoef']],
  ['swarm.epochs', ['swarm.updateEpochs']],
]);


/** Continuous PPO's settings, from the prefix `ppoc` to its id's, `ppo-continuous`. */
const PPO_CONTINUOUS_SETTINGS = ['lr', 'gamma', 'gaeLambda', 'clipCoef', 'updateEpochs', 'numMinibatches', 'entCoef', 'vfCoef', 'maxGradNorm', 'annealLr'];
const RENAMED_IN_V3: ReadonlyMap<string, readonly string[]> = new Map(PPO_CONTINUOUS_SETTINGS.map((k) => [`ppoc.${k}`, [`ppo-continuous.${k}`]]));

/** The renames in link-version order: a link of version v takes every table of a later version. */
const RENAMES: readonly { version: number; keys: ReadonlyMap<string, readonly string[]> }[] = [
  { version: 2, keys: RENAMED_IN_V2 },
  { version: 3, keys: RENAMED_IN_V3 },
];

/** Before version 3 the multi-agent loop read its budget from this key (and ignored `run.envSteps`). */
const OLD_MARL_BUDGET = 'marl.envSteps';

/** The key(s) an old key, from a link of version `fromVersion`, stands for today (the key itself when it was never renamed). */
export function currentKeys(key: string, fromVersion = 1): readonly string[] {
  if (fromVersion < 3 && key === OLD_MARL_BUDGET) return ['run.envSteps'];
  let keys: readonly string[] = [key];
  for (const { version, keys: table } of RENAMES) if (version > fromVersion) keys = keys.flatMap((k) => table.get(k) ?? [k]);
  return keys;
}

/** Every key the input owns is kept as an own key of the result (`__proto__` included, for the checks after to refuse by name). */
function renameKeys(settings: ReadonlyMap<string, unknown>, table: ReadonlyMap<string, readonly string[]>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of settings) {
    if (!table.has(key)) out.set(key, value);
  }
  for (const [key, value] of settings) {
    for (const renamed of table.get(key) ?? []) if (!out.has(renamed)) out.set(renamed, value);
  }
  return out;
}

function algorithmOf(settings: ReadonlyMap<string, unknown>, preset: string | undefined): AlgorithmId | undefined {
  const named = settings.get('algorithm') ?? (preset === undefined ? undefined : getPreset(preset)?.settings.algorithm);
  return (ALGORITHM_IDS as readonly unknown[]).includes(named) ? (named as AlgorithmId) : undefined;
}

/**
 * `marl.envSteps` made `run.envSteps`. For a multi-agent run the old key was the budget its loop
 * used, so it wins over a `run.envSteps` beside it (a saved config carries both); for any other
 * run it changed nothing and is dropped.
 */
function oneBudget(settings: Map<string, unknown>, preset: string | undefined): Map<string, unknown> {
  if (!settings.has(OLD_MARL_BUDGET)) return settings;
  const budget = settings.get(OLD_MARL_BUDGET);
  settings.delete(OLD_MARL_BUDGET);
  const algorithm = algorithmOf(settings, preset);
  if (algorithm !== undefined && descriptorOf(algorithm).family === 'marl') settings.set('run.envSteps', budget);
  return settings;
}

/**
 * Settings of a link of version `fromVersion` (a saved config: 1, every table applies) with every
 * old key renamed; a value under a new key wins over the same setting under its old key, except
 * where `oneBudget` says. `preset` names the algorithm when the settings do not (a link carries
 * only what differs from its preset).
 */
export function migrateSettingKeys(settings: Readonly<Record<string, unknown>>, fromVersion = 1, preset?: string): Record<string, unknown> {
  let out = new Map(Object.entries(settings));
  for (const { version, keys: table } of RENAMES) if (version > fromVersion) out = renameKeys(out, table);
  return Object.fromEntries(fromVersion < 3 ? oneBudget(out, preset) : out);
}

/** A saved config (run file, run store) with its settings' keys migrated; anything else passes unchanged. */
export function migrateConfig(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || !('settings' in config)) return config;
  const settings = (config as { settings: unknown }).settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return config;
  const preset = 'preset' in config && typeof config.preset === 'string' ? config.preset : undefined;
  return { ...config, settings: migrateSettingKeys(settings as Record<string, unknown>, 1, preset) };
}

/** A part of a saved config that was left out on loading, and why. */
export interface DroppedPart {
  field: string;
  reason: string;
}

/**
 * A config saved by an older version (run file, run store), made whole: old keys renamed, keys that
 * name no setting left out (each listed in `dropped` with its reason), and the settings added since
 * filled from its preset (as the run had them: they did not exist then). What cannot be made whole
 * passes through for the schema to refuse with a reason.
 */
export function reviveConfig(config: unknown, dropped: DroppedPart[] = []): unknown {
  const migrated = migrateConfig(config);
  if (typeof migrated !== 'object' || migrated === null || !('preset' in migrated) || !('settings' in migrated)) return migrated;
  const { preset, settings } = migrated as { preset: unknown; settings: unknown };
  if (typeof preset !== 'string' || typeof settings !== 'object' || settings === null || Array.isArray(settings)) return migrated;
  const found = getPreset(preset);
  if (!found) return migrated;
  const known = Object.entries(settings).filter(([key]) => {
    if (isSettingKey(key)) return true;
    dropped.push({ field: `settings.${key}`, reason: 'not a setting of this version' });
    return false;
  });
  return { ...migrated, settings: { ...defaultSettings(), ...found.settings, ...Object.fromEntries(known) } };
}
