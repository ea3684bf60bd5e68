/**
 * What a setting field says in words: the range and the default shown under it (derived from the
 * settings table and the preset, never written into the help text), and what is wrong with a
 * number typed into it.
 */
import { ALGORITHM_DESCRIPTORS } from '../../config/registry';
import type { Setting } from '../../config/settings';

function num(v: number): string {
  return Math.abs(v) >= 1_000 ? v.toLocaleString('en-US') : String(v);
}

/** Words on screen for enum values that are internal keys ("swarm", "simple_spread_v3"). */
const OPTION_LABELS: Record<string, Record<string, string>> = {
  algorithm: Object.fromEntries(ALGORITHM_DESCRIPTORS.map((d) => [d.id, d.label])),
  'marl.env': {
    simple_spread_v3: 'cooperative navigation (simple_spread)',
    simple_tag_v3: 'predator and prey (simple_tag)',
    simple_speaker_listener_v4: 'speaker and listener (simple_speaker_listener)',
  },
};

/** What an enum setting's option is called on screen: its label, else the value itself. */
export function optionText(settingKey: string, option: string): string {
  const labels = Object.hasOwn(OPTION_LABELS, settingKey) ? OPTION_LABELS[settingKey] : undefined;
  return labels && Object.hasOwn(labels, option) ? labels[option] : option;
}

function valueText(setting: Setting, v: unknown, show?: (option: string) => string): string {
  if (setting.kind === 'bool') return v ? 'on' : 'off';
  if (typeof v === 'number') return num(v);
  return show ? show(String(v)) : String(v);
}

/**
 * "Range 1–16. Default here 1 (the settings table's default is 2)." The default is the preset's
 * value, which is what the field shows before anyone changes it.
 */
export function shownDefault(setting: Setting, presetDefault: unknown, browserRule?: string, show?: (option: string) => string): string {
  const range = setting.kind === 'int' || setting.kind === 'number' ? `Range ${num(setting.min)} to ${num(setting.max)}. ` : '';
  const here = valueText(setting, presetDefault, show);
  const table = valueText(setting, setting.default, show);
  if (browserRule) return `${range}Default in this browser ${here} (${browserRule}; ${table} elsewhere).`;
  return here === table ? `${range}Default ${here}.` : `${range}Default for this preset ${here} (${table} elsewhere).`;
}

/** What is wrong with `text` for a number setting, in words naming its label; null when it is fine. */
export function settingProblem(setting: Setting, text: string): string | null {
  if (setting.kind !== 'int' && setting.kind !== 'number') return null;
  const trimmed = text.trim();
  const v = trimmed === '' ? NaN : Number(trimmed);
  if (!Number.isFinite(v)) return `${setting.label} needs a number; “${text}” is not one.`;
  if (setting.kind === 'int' && !Number.isInteger(v)) return `${setting.label} needs a whole number; ${trimmed} is not one.`;
  if (v < setting.min || v > setting.max) return `${setting.label} must be from ${num(setting.min)} to ${num(setting.max)}; ${trimmed} is out of range, so the setting keeps its last good value.`;
  return null;
}
