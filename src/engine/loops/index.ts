/** The training loop of each loop kind; an algorithm's descriptor names its kind, so every algorithm has a loop. */
import type { LoopKind } from '../../config/algorithm';
import { descriptorOf } from '../../config/registry';
import type { ExperimentSettings } from '../../config/settings';
import { episodicLoop } from './episodic';
import { swarmLoop } from './swarm';
import { syncLoop } from './sync';
import { asyncLoop } from './async';
import { dqnLoop } from './dqn';
import { esLoop } from './es';
import { offPolicyLoop } from './offPolicy';
import { offlineLoop } from './offline';
import { onPolicyContinuousLoop } from './onPolicyContinuous';
import { marlLoop } from './marl';
import type { TrainingLoop } from './types';

export const LOOPS: Record<LoopKind, TrainingLoop> = {
  episodic: episodicLoop,
  sync: syncLoop,
  async: asyncLoop,
  replay: dqnLoop,
  es: esLoop,
  swarm: swarmLoop,
  offPolicyContinuous: offPolicyLoop,
  offline: offlineLoop,
  onPolicyContinuous: onPolicyContinuousLoop,
  marl: marlLoop,
};

export function loopFor(algorithm: ExperimentSettings['algorithm']): TrainingLoop {
  return LOOPS[descriptorOf(algorithm).loop];
}
