/**
 * Named starting points, each declared by its algorithm's descriptor: a name, one sentence on
 * what it shows, and the settings it changes from the defaults. Hyperparameters cite where they
 * came from.
 */
import { ALGORITHM_DESCRIPTORS } from './registry';
import type { ExperimentSettings } from './settings';

export interface Preset {
  name: string;
  title: string;
  /** One sentence on what the preset shows. */
  description: string;
  settings: Partial<ExperimentSettings>;
}

/** Every preset, in registry order; each sets its own algorithm. */
export const PRESETS: readonly Preset[] = ALGORITHM_DESCRIPTORS.flatMap((d) =>
  d.presets.map((p): Preset => ({ ...p, settings: { ...p.settings, algorithm: d.id } })),
);

export const PRESET_NAMES: readonly string[] = PRESETS.map((p) => p.name);

export function getPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
