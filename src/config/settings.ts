/**
 * Every setting of an experiment, in one flat table: the shared settings (sharedSettings.ts) and
 * each algorithm's own, prefixed (`ppo.clipCoef` is setting `clipCoef` of the PPO descriptor).
 * The zod schema (config.ts), the CLI's `--set key=value`, the URL codec and the config panel are
 * all derived from this table, so a setting is declared exactly once.
 */
import type { AlgorithmDescriptor, ParamsOf, Prefixed } from './algorithm';
import { ALGORITHM_DESCRIPTORS, ALGORITHM_IDS, type AlgorithmId } from './registry';
import { choice, type BoolSetting, type EnumSetting, type Setting, type SettingValue } from './settingKinds';
import { SHARED_SETTINGS } from './sharedSettings';

export type { Setting, IntSetting, NumberSetting, EnumSetting, BoolSetting } from './settingKinds';
export { ENV_IDS, BACKENDS, INFERENCE_PLACEMENTS } from './sharedSettings';

export const ALGORITHMS = ALGORITHM_IDS;

type Descriptors = (typeof ALGORITHM_DESCRIPTORS)[number];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type AlgorithmSettings = UnionToIntersection<Descriptors extends infer D ? (D extends { prefix: infer P extends string; settings: infer S } ? Prefixed<P, S> : never) : never>;

const ALGORITHM_SETTING = {
  algorithm: choice<AlgorithmId>('run', 'Algorithm', ALGORITHM_IDS, 'reinforce', 'The update rule the learner applies.'),
};

/** The algorithms a shared setting applies to, from its scope (every algorithm when it has none). */
function appliesTo(setting: Setting): readonly string[] | undefined {
  const scope = setting.scope;
  if (!scope) return undefined;
  return ALGORITHM_DESCRIPTORS.filter((d) => scope.loops?.includes(d.loop) || scope.families?.includes(d.family)).map((d) => d.id);
}

function algorithmSettings(d: AlgorithmDescriptor): Record<string, Setting> {
  return Object.fromEntries(Object.entries(d.settings).map(([k, s]) => [`${d.prefix}.${k}`, { ...s, appliesTo: [d.id] }]));
}

const shared = Object.fromEntries(
  Object.entries({ ...SHARED_SETTINGS, ...ALGORITHM_SETTING }).map(([k, s]: [string, Setting]) => [k, { ...s, appliesTo: appliesTo(s) }]),
);

/** Every setting: the shared ones first, then each algorithm's in registry order. */
export const SETTINGS = Object.assign(shared, ...ALGORITHM_DESCRIPTORS.map(algorithmSettings)) as typeof SHARED_SETTINGS & typeof ALGORITHM_SETTING & AlgorithmSettings;

export type SettingKey = keyof typeof SETTINGS & string;

type ValueOf<S> = S extends EnumSetting | BoolSetting | Setting ? SettingValue<S> : never;

/** A complete experiment configuration: one value for every setting. */
export type ExperimentSettings = { -readonly [K in SettingKey]: ValueOf<(typeof SETTINGS)[K]> };

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTINGS, key);
}

export function defaultSettings(): ExperimentSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) out[key] = (SETTINGS[key] as Setting).default;
  return out as ExperimentSettings;
}

/** One algorithm's settings from a full config, by field name (`ppo.clipCoef` → `clipCoef`). */
export function paramsOf(settings: ExperimentSettings, d: AlgorithmDescriptor): ParamsOf<Record<string, Setting>> {
  const s: Record<string, number | string | boolean> = settings;
  return Object.fromEntries(Object.keys(d.settings).map((k) => [k, s[`${d.prefix}.${k}`]]));
}
