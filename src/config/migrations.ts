/**
 * Old setting keys, mapped to today's; links, run files and saved runs made before keep loading
 * through these tables.
 *   - Link version 2 gave every hyperparameter the name of its update rule's config field
 *     (`ppo.clip` → `ppo.clipCoef`).
 *   - Link version 3 gave continuous PPO's settings the prefix of its id (`ppoc.lr` →
 *     `ppo-continuous.lr`), and every run one budget (budget.ts): the multi-agent runs' own
 *     `marl.envSteps` became `run.envSteps`, which the progress bar and `train --steps` read.
 *   - Link version 4 gave the agent swarm one name (retired.ts): `swarm2.*` became `swarm.*`, its
 *     algorithm `swarm-v2` became `swarm` and its presets `swarm-v2-NAME` became `swarm-NAME`;
 *     the `swarm.*` of an older link, the retired first swarm's settings, are set apart to be
 *     dropped with a notice.
 * The tables are Maps, not object literals: keys come from links and files, and `toString` or
 * `__proto__` must find nothing.
 */
import { ALGORITHM_IDS, descriptorOf, type AlgorithmId } from './registry';
import { getPreset } from './presets';
import { defaultSettings, isSettingKey } from './settings';
import { RENAMED_ALGORITHMS, renamedPreset, retiredPreset, RETIRED_SETTING_PREFIX, SWARM_RENAME_VERSION } from './retired';

/** A version's renames: the key(s) an old key stands for, undefined for a key it left alone. */
type Renames = (key: string) => readonly string[] | undefined;

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

/** Version 4: the swarm's `swarm2.*` → `swarm.*`; the older `swarm.*` (the retired first swarm's) set apart. */
const OLD_SWARM_PREFIX = 'swarm2.';
const FIRST_SWARM_PREFIX = 'swarm.';
function renamedInV4(key: string): readonly string[] | undefined {
  if (key.startsWith(OLD_SWARM_PREFIX)) return [`swarm.${key.slice(OLD_SWARM_PREFIX.length)}`];
  if (key.startsWith(FIRST_SWARM_PREFIX)) return [`${RETIRED_SETTING_PREFIX}${key.slice(FIRST_SWARM_PREFIX.length)}`];
  return undefined;
}

/** The renames in link-version order: a link of version v takes every table of a later version. */
const RENAMES: readonly { version: number; keys: Renames }[] = [
  { version: 2, keys: (k) => RENAMED_IN_V2.get(k) },
  { version: 3, keys: (k) => RENAMED_IN_V3.get(k) },
  { version: SWARM_RENAME_VERSION, keys: renamedInV4 },
];

/** Before version 3 the multi-agent loop read its budget from this key (and ignored `run.envSteps`). */
const OLD_MARL_BUDGET = 'marl.envSteps';

/** The key(s) an old key, from a link of version `fromVersion`, stands for today (the key itself when it was never renamed). */
export function currentKeys(key: string, fromVersion = 1): readonly string[] {
  if (fromVersion < 3 && key === OLD_MARL_BUDGET) return ['run.envSteps'];
  let keys: readonly string[] = [key];
  for (const { version, keys: table } of RENAMES) if (version > fromVersion) keys = keys.flatMap((k) => table(k) ?? [k]);
  return keys;
}

/** Every key the input owns is kept as an own key of the result (`__proto__` included, for the checks after to refuse by name). */
function renameKeys(settings: ReadonlyMap<string, unknown>, table: Renames): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of settings) {
    if (table(key) === undefined) out.set(key, value);
  }
  for (const [key, value] of settings) {
    for (const renamed of table(key) ?? []) if (!out.has(renamed)) out.set(renamed, value);
  }
  return out;
}

/** Before version 4 the swarm's algorithm id was `swarm-v2`. */
function renameAlgorithm(settings: Map<string, unknown>): Map<string, unknown> {
  const algorithm = settings.get('algorithm');
  const renamed = typeof algorithm === 'string' ? RENAMED_ALGORITHMS.get(algorithm) : undefined;
  if (renamed !== undefined) settings.set('algorithm', renamed);
  return settings;
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
  if (fromVersion < SWARM_RENAME_VERSION) out = renameAlgorithm(out);
  return Object.fromEntries(fromVersion < 3 ? oneBudget(out, preset) : out);
}

/**
 * A saved config (run file, run store) of link version `fromVersion` (1: as old as can be, every
 * table applies) with its preset's and its settings' names migrated; anything else passes unchanged.
 */
export function migrateConfig(config: unknown, fromVersion = 1): unknown {
  if (typeof config !== 'object' || config === null || !('settings' in config)) return config;
  const settings = (config as { settings: unknown }).settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return config;
  const named = 'preset' in config && typeof config.preset === 'string' ? config.preset : undefined;
  const renamed = named !== undefined && fromVersion < SWARM_RENAME_VERSION ? renamedPreset(named) : null;
  const preset = renamed?.replacement ?? named;
  return { ...config, ...(renamed ? { preset } : {}), settings: migrateSettingKeys(settings as Record<string, unknown>, fromVersion, preset) };
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
export function reviveConfig(config: unknown, dropped: DroppedPart[] = [], fromVersion = 1): unknown {
  const migrated = migrateConfig(config, fromVersion);
  if (typeof migrated !== 'object' || migrated === null || !('preset' in migrated) || !('settings' in migrated)) return migrated;
  const { preset, settings } = migrated as { preset: unknown; settings: unknown };
  if (typeof preset !== 'string' || typeof settings !== 'object' || settings === null || Array.isArray(settings)) return migrated;
  const retired = getPreset(preset) ? null : retiredPreset(preset, fromVersion);
  if (retired) dropped.push({ field: 'preset', reason: retired.reason });
  const found = getPreset(retired?.replacement ?? preset);
  if (!found) return migrated;
  const known = Object.entries(settings).filter(([key]) => {
    if (isSettingKey(key)) return true;
    const retired = key.startsWith(RETIRED_SETTING_PREFIX);
    dropped.push({ field: `settings.${retired ? `swarm.${key.slice(RETIRED_SETTING_PREFIX.length)}` : key}`, reason: retired ? 'a setting of the retired first agent swarm' : 'not a setting of this version' });
    return false;
  });
  return { ...migrated, preset: found.name, settings: { ...defaultSettings(), ...found.settings, ...Object.fromEntries(known) } };
}
