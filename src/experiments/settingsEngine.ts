/**
 * Settings of the parallel engine (issue 3): the algorithms' hyperparameters, the sampling mode
 * and where inference runs. Keys are prefixed by the algorithm they belong to.
 */
import type { Setting } from './settingKinds';

export const ENGINE_SETTINGS = {} as const satisfies Record<string, Setting>;
