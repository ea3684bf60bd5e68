/**
 * Old setting keys, mapped to today's. Link version 2 gave every hyperparameter the name of its
 * update rule's config field (`ppo.clip` → `ppo.clipCoef`); links, run files and saved runs made
 * before keep loading through this table.
 */
import { getPreset } from './presets';
import { defaultSettings, isSettingKey } from './settings';

/**
 * Version-1 key → the version-2 key(s) it sets (IMPALA's one ρ̄ set both of its clips). A Map, not
 * an object literal: keys come from links and files, and `toString` or `__proto__` must find nothing.
 */
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

/** The key(s) an old key stands for today (the key itself when it was never renamed). */
export function currentKeys(key: string): readonly string[] {
  return RENAMED_IN_V2.get(key) ?? [key];
}

/**
 * Settings with every old key renamed; a value under a new key wins over the same setting under its old key.
 * Every key the input owns is kept as an own key of the result (`__proto__` included, for the checks after to refuse by name).
 */
export function migrateSettingKeys(settings: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(settings)) {
    if (!RENAMED_IN_V2.has(key)) out.set(key, value);
  }
  for (const [key, value] of Object.entries(settings)) {
    for (const renamed of RENAMED_IN_V2.get(key) ?? []) if (!out.has(renamed)) out.set(renamed, value);
  }
  return Object.fromEntries(out);
}

/** A saved config (run file, run store) with its settings' keys migrated; anything else passes unchanged. */
export function migrateConfig(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || !('settings' in config)) return config;
  const settings = (config as { settings: unknown }).settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return config;
  return { ...config, settings: migrateSettingKeys(settings as Record<string, unknown>) };
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
