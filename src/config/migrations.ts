/**
 * Old setting keys, mapped to today's. Link version 2 gave every hyperparameter the name of its
 * update rule's config field (`ppo.clip` → `ppo.clipCoef`); version 3 gave continuous PPO's settings
 * the prefix of its id (`ppoc.lr` → `ppo-continuous.lr`). Links, run files and saved runs made
 * before keep loading through these tables.
 */
import { getPreset } from './presets';
import { defaultSettings } from './settings';

/** Version-1 key → the version-2 key(s) it sets (IMPALA's one ρ̄ set both of its clips). */
const RENAMED_IN_V2: Readonly<Record<string, readonly string[]>> = {
  'ppo.clip': ['ppo.clipCoef'],
  'ppo.epochs': ['ppo.updateEpochs'],
  'ppo.minibatches': ['ppo.numMinibatches'],
  'reinforce.entropyCoef': ['reinforce.entCoef'],
  'impala.rhoBar': ['impala.clipRhoThreshold', 'impala.clipPgRhoThreshold'],
  'impala.cBar': ['impala.clipCThreshold'],
  'dqn.targetUpdate': ['dqn.targetNetworkFrequency'],
  'dqn.epsStart': ['dqn.startE'],
  'dqn.epsEnd': ['dqn.endE'],
  'dqn.epsFraction': ['dqn.explorationFraction'],
  'dqn.double': ['dqn.doubleDqn'],
  'es.pairs': ['es.numPairs'],
  'es.l2': ['es.l2Coeff'],
  'swarm.entropyCoef': ['swarm.entCoef'],
  'swarm.epochs': ['swarm.updateEpochs'],
};

/** Continuous PPO's settings, from the prefix `ppoc` to its id's, `ppo-continuous`. */
const PPO_CONTINUOUS_SETTINGS = ['lr', 'gamma', 'gaeLambda', 'clipCoef', 'updateEpochs', 'numMinibatches', 'entCoef', 'vfCoef', 'maxGradNorm', 'annealLr'];
const RENAMED_IN_V3: Readonly<Record<string, readonly string[]>> = Object.fromEntries(PPO_CONTINUOUS_SETTINGS.map((k) => [`ppoc.${k}`, [`ppo-continuous.${k}`]]));

/** The renames in link-version order: a link of version v takes every table of a later version. */
const RENAMES: readonly { version: number; keys: Readonly<Record<string, readonly string[]>> }[] = [
  { version: 2, keys: RENAMED_IN_V2 },
  { version: 3, keys: RENAMED_IN_V3 },
];

/** The key(s) an old key stands for today (the key itself when it was never renamed), from a link of `fromVersion` (default: the oldest). */
export function currentKeys(key: string, fromVersion = 1): readonly string[] {
  let keys: readonly string[] = [key];
  for (const { version, keys: table } of RENAMES) if (version > fromVersion) keys = keys.flatMap((k) => table[k] ?? [k]);
  return keys;
}

/** Settings with every old key renamed (from a link of `fromVersion`); a value under a new key wins over the same setting under its old key. */
export function migrateSettingKeys(settings: Readonly<Record<string, unknown>>, fromVersion = 1): Record<string, unknown> {
  let out: Record<string, unknown> = { ...settings };
  for (const { version, keys: table } of RENAMES) if (version > fromVersion) out = renameKeys(out, table);
  return out;
}

function renameKeys(settings: Readonly<Record<string, unknown>>, table: Readonly<Record<string, readonly string[]>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (!(key in table)) out[key] = value;
  }
  for (const [key, value] of Object.entries(settings)) {
    for (const renamed of table[key] ?? []) if (!(renamed in out)) out[renamed] = value;
  }
  return out;
}

/** A saved config (run file, run store) with its settings' keys migrated; anything else passes unchanged. */
export function migrateConfig(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || !('settings' in config)) return config;
  const settings = (config as { settings: unknown }).settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return config;
  return { ...config, settings: migrateSettingKeys(settings as Record<string, unknown>) };
}

/**
 * A config saved by an older version (run file, run store), made whole: old keys renamed, and the
 * settings added since filled from its preset (as the run had them: they did not exist then).
 * What cannot be made whole passes through for the schema to refuse with a reason.
 */
export function reviveConfig(config: unknown): unknown {
  const migrated = migrateConfig(config);
  if (typeof migrated !== 'object' || migrated === null || !('preset' in migrated) || !('settings' in migrated)) return migrated;
  const { preset, settings } = migrated as { preset: unknown; settings: unknown };
  if (typeof preset !== 'string' || typeof settings !== 'object' || settings === null || Array.isArray(settings)) return migrated;
  const found = getPreset(preset);
  if (!found) return migrated;
  return { ...migrated, settings: { ...defaultSettings(), ...found.settings, ...settings } };
}
