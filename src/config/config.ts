/**
 * The experiment config: a preset plus any changed settings. One zod schema, built from the
 * settings table, validates it everywhere (CLI flags, shared links, imported runs, the UI).
 */
import { z } from 'zod';
import { SETTINGS, SETTING_KEYS, isSettingKey, defaultSettings, type ExperimentSettings, type Setting, type SettingKey } from './settings';
import { getPreset, PRESET_NAMES } from './presets';
import { renamedPreset, retiredPreset } from './retired';
import { actionSpaceMismatch } from './actionSpace';
import { ALGORITHM_DESCRIPTORS, descriptorOf } from './registry';

export interface ExperimentConfig {
  preset: string;
  settings: ExperimentSettings;
}

/** A config problem that names the field at fault. The CLI prints it and exits with code 2. */
export class ConfigError extends Error {
  constructor(readonly field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'ConfigError';
  }
}

function schemaFor(setting: Setting): z.ZodType {
  switch (setting.kind) {
    case 'int':
      return z.number().int().min(setting.min).max(setting.max);
    case 'number':
      return z.number().finite().min(setting.min).max(setting.max);
    case 'enum':
      return z.enum(setting.options as [string, ...string[]]);
    case 'bool':
      return z.boolean();
  }
}

const settingSchemas = Object.fromEntries(SETTING_KEYS.map((k) => [k, schemaFor(SETTINGS[k])])) as Record<SettingKey, z.ZodType>;

/** Every setting, all required, nothing extra. */
export const ExperimentSettingsSchema = z.object(settingSchemas).strict();

export const ExperimentConfigSchema = z.object({
  preset: z.enum(PRESET_NAMES as [string, ...string[]]),
  settings: ExperimentSettingsSchema,
});

function describeIssue(setting: Setting, value: unknown): string {
  const shown = JSON.stringify(value);
  switch (setting.kind) {
    case 'int':
      return `must be an integer in [${setting.min}, ${setting.max}], got ${shown}`;
    case 'number':
      return `must be a number in [${setting.min}, ${setting.max}], got ${shown}`;
    case 'enum':
      return `must be one of ${setting.options.join(', ')}, got ${shown}`;
    case 'bool':
      return `must be true or false, got ${shown}`;
  }
}

/** Check one value against its setting; returns the value or throws ConfigError naming the key. */
export function checkSetting(key: string, value: unknown): ExperimentSettings[SettingKey] {
  if (!isSettingKey(key)) {
    throw new ConfigError(key, `unknown setting (known: ${SETTING_KEYS.join(', ')})`);
  }
  const parsed = settingSchemas[key].safeParse(value);
  if (!parsed.success) throw new ConfigError(key, describeIssue(SETTINGS[key] as Setting, value));
  return parsed.data as ExperimentSettings[SettingKey];
}

/** Parse a `key=value` string from the command line into a typed, validated value. */
export function parseSettingText(key: string, text: string): ExperimentSettings[SettingKey] {
  if (!isSettingKey(key)) return checkSetting(key, text);
  const setting = SETTINGS[key] as Setting;
  let value: unknown = text;
  if (setting.kind === 'int' || setting.kind === 'number') {
    value = text.trim() === '' ? NaN : Number(text);
    if (!Number.isFinite(value as number)) throw new ConfigError(key, `expected a number, got ${JSON.stringify(text)}`);
  } else if (setting.kind === 'bool') {
    if (text !== 'true' && text !== 'false') throw new ConfigError(key, `expected true or false, got ${JSON.stringify(text)}`);
    value = text === 'true';
  }
  return checkSetting(key, value);
}

/**
 * Build a full config: defaults, then the preset's settings, then the overrides. Throws
 * ConfigError (naming the field) on an unknown preset, an unknown key or an out-of-range value.
 */
export function resolveExperiment(presetName: string, overrides: Partial<Record<string, unknown>> = {}): ExperimentConfig {
  const preset = getPreset(presetName);
  if (!preset) {
    const retired = retiredPreset(presetName);
    if (retired) throw new ConfigError('preset', `preset ${JSON.stringify(presetName)} is retired (${retired.why}): use ${retired.replacement}`);
    const renamed = renamedPreset(presetName);
    if (renamed) throw new ConfigError('preset', `preset ${JSON.stringify(presetName)} was renamed: use ${renamed.replacement}`);
    throw new ConfigError('preset', `unknown preset ${JSON.stringify(presetName)} (known: ${PRESET_NAMES.join(', ')})`);
  }
  const settings: Record<string, unknown> = { ...defaultSettings(), ...preset.settings };
  for (const [key, value] of Object.entries(overrides)) settings[key] = checkSetting(key, value);
  const config = { preset: preset.name, settings: settings as ExperimentSettings };
  // The preset's own values pass through the same schema, so a bad preset fails loudly in tests.
  ExperimentConfigSchema.parse(config);
  checkActionSpace(config.settings);
  return config;
}

/**
 * Why `key` would change nothing on a run of `algorithm` (it belongs to another algorithm:
 * `swarm.lr` on a REINFORCE run), or null when it applies. Keys without an algorithm's prefix
 * (`seed`, `run.envSteps`) apply to every run.
 */
export function keyMismatch(algorithm: ExperimentSettings['algorithm'], key: string): string | null {
  const own = descriptorOf(algorithm);
  const prefix = key.slice(0, Math.max(0, key.indexOf('.')));
  const other = ALGORITHM_DESCRIPTORS.find((d) => d.prefix === prefix && d.prefix !== own.prefix);
  return other ? `is a setting of ${other.label}, not of this run's algorithm (${own.label}): it would change nothing` : null;
}

/** Throws ConfigError naming the first of `keys` that belongs to another algorithm than `config`'s (a command-line change that would change nothing). */
export function checkKeysApply(config: ExperimentConfig, keys: Iterable<string>): void {
  for (const key of keys) {
    const problem = keyMismatch(config.settings.algorithm, key);
    if (problem) throw new ConfigError(key, problem);
  }
}

/** Throws ConfigError naming env.id when a classic algorithm and its env differ in action-space kind (e.g. DQN on Pendulum-v1). */
export function checkActionSpace(settings: ExperimentSettings): void {
  const d = descriptorOf(settings.algorithm);
  if (d.family !== 'classic') return;
  const problem = actionSpaceMismatch(d, settings['env.id']);
  if (problem) throw new ConfigError('env.id', problem);
}

/**
 * The settings where `config` differs from its preset and that its algorithm uses: what a shared
 * link has to carry (a value left over from another algorithm the user tried would change nothing).
 */
export function changedSettings(config: ExperimentConfig): Partial<ExperimentSettings> {
  const base = resolveExperiment(config.preset).settings;
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (config.settings[key] !== base[key] && keyMismatch(config.settings.algorithm, key) === null) out[key] = config.settings[key];
  }
  return out as Partial<ExperimentSettings>;
}
