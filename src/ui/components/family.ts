import type { ExperimentSettings } from '../../config/settings';
import { descriptorOf } from '../../config/registry';

/**
 * The kind of learning a preset shows, as the notes and chart explanations group it: the
 * descriptor's family, with the Box-action algorithms split into those that act in the
 * environment (continuous control) and those that learn from a dataset (offline).
 */
export type TeachingFamily = 'classic' | 'continuous' | 'offline' | 'marl' | 'swarm';

export const FAMILY_LABELS: Record<TeachingFamily, string> = {
  classic: 'classic control',
  continuous: 'continuous control',
  offline: 'offline learning',
  marl: 'multi-agent',
  swarm: 'agent swarm',
};

export function teachingFamily(algorithm: ExperimentSettings['algorithm']): TeachingFamily {
  const d = descriptorOf(algorithm);
  if (d.family === 'swarm' || d.family === 'marl') return d.family;
  if (d.loop === 'offline') return 'offline';
  if (d.actionSpace === 'box') return 'continuous';
  return 'classic';
}
