/**
 * Which saved runs can be watched, and with which network. Kept apart from watch.ts so the page
 * can ask without loading tfjs.
 */
import type { MlpSpec } from '../core/mlp';
import type { ExperimentConfig } from './config';
import type { ExperimentSettings } from './settings';

/** The network each classic-control algorithm trains (the swarm's orchestrator has no env view). */
export const WATCHED_NETWORK: Record<ExperimentSettings['algorithm'], NonNullable<MlpSpec['kind']> | null> = {
  reinforce: 'policy',
  es: 'policy',
  a2c: 'actorCritic',
  ppo: 'actorCritic',
  impala: 'actorCritic',
  dqn: 'q',
  'swarm-ppo': null,
};

export function canWatch(config: ExperimentConfig): boolean {
  return WATCHED_NETWORK[config.settings.algorithm] !== null;
}
