/**
 * Which saved runs can be watched, and with which network: the one their algorithm's descriptor
 * trains (the swarm's orchestrator has no env view). Kept apart from engine/watch.ts so the page
 * can ask without loading tfjs.
 */
import type { NetworkKind } from './algorithm';
import type { ExperimentConfig } from './config';
import { descriptorOf } from './registry';

export function watchedNetwork(config: ExperimentConfig): NetworkKind | null {
  return descriptorOf(config.settings.algorithm).network;
}

export function canWatch(config: ExperimentConfig): boolean {
  return watchedNetwork(config) !== null;
}

/** The agent swarm draws its own charts, timeline and λ editor. */
export function isSwarm(algorithm: ExperimentConfig['settings']['algorithm']): boolean {
  return descriptorOf(algorithm).family === 'swarm';
}

/** The setting that budgets a run: a swarm's orchestrator updates (`swarm2.updates`), otherwise env steps. */
export function budgetKey(algorithm: ExperimentConfig['settings']['algorithm']): string {
  return isSwarm(algorithm) ? `${descriptorOf(algorithm).prefix}.updates` : 'run.envSteps';
}
