/** Presets of the parallel engine: one per algorithm and environment pair that works. */
import type { Preset } from './presets';

export const ENGINE_PRESETS: readonly Preset[] = [];
