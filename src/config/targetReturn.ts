/**
 * Whether a run has a target return to reach: the families whose settings include one, and among
 * the particle worlds only those with a measured scale (simple_spread). A competitive world such as
 * simple_tag has no return that means "solved", and the swarm is judged by its task score.
 */
import { returnScaleOf } from './returnScales';
import { descriptorOf } from './registry';
import { SETTINGS, type ExperimentSettings } from './settings';

/** The settings that only mean something where a run has a target return. */
export const TARGET_KEYS = ['run.targetReturn', 'run.stopAtTarget'] as const;

export function hasTargetReturn(settings: Pick<ExperimentSettings, 'algorithm' | 'marl.env'>): boolean {
  const scoped = SETTINGS['run.targetReturn'].appliesTo;
  if (scoped && !scoped.includes(settings.algorithm)) return false;
  return descriptorOf(settings.algorithm).family !== 'marl' || returnScaleOf(settings) !== null;
}
