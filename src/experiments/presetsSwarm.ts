/** Presets of the agent swarm, each showing one part of the PARL story. */
import type { Preset } from './presets';

export const SWARM_PRESETS: readonly Preset[] = [];
