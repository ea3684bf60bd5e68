/** What differs between two experiment configs, in words, for naming overlaid runs. */
import type { ExperimentConfig } from '../../config/config';
import { getPreset } from '../../config/presets';
import { SETTINGS, SETTING_KEYS, type Setting } from '../../config/settings';

function shown(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (typeof v === 'number') return Math.abs(v) >= 1_000 ? v.toLocaleString('en-US') : String(Number(v.toPrecision(4)));
  return String(v);
}

/**
 * "seed 3, Learning rate 0.003": the settings where `other` differs from `current`, by label,
 * with other's values; a different preset is named first. At most `max` items, then "+N more".
 */
export function describeDifference(other: ExperimentConfig, current: ExperimentConfig, max = 3): string {
  const parts: string[] = [];
  if (other.preset !== current.preset) parts.push(getPreset(other.preset)?.title ?? other.preset);
  for (const key of SETTING_KEYS) {
    const a = other.settings[key];
    const b = current.settings[key];
    if (a === b || key === 'backend') continue;
    const label = key === 'seed' ? 'seed' : (SETTINGS[key] as Setting).label;
    parts.push(`${label} ${shown(a)}`);
  }
  if (parts.length === 0) return 'same settings as now';
  return parts.length > max ? `${parts.slice(0, max).join(', ')} +${parts.length - max} more` : parts.join(', ');
}
