/** Which training loop runs each algorithm. */
import type { ExperimentSettings } from '../settings';
import { episodicLoop } from './episodic';
import type { TrainingLoop } from './types';

export const LOOPS: Partial<Record<ExperimentSettings['algorithm'], TrainingLoop>> = {
  reinforce: episodicLoop,
};
