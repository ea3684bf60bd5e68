/** Which training loop runs each algorithm. */
import type { ExperimentSettings } from '../../config/settings';
import { episodicLoop } from './episodic';
import { swarmLoop } from './swarm';
import { syncLoop } from './sync';
import { asyncLoop } from './async';
import { dqnLoop } from './dqn';
import { esLoop } from './es';
import type { TrainingLoop } from './types';

export const LOOPS: Partial<Record<ExperimentSettings['algorithm'], TrainingLoop>> = {
  reinforce: episodicLoop,
  'swarm-ppo': swarmLoop,
  a2c: syncLoop,
  ppo: syncLoop,
  impala: asyncLoop,
  dqn: dqnLoop,
  es: esLoop,
};
