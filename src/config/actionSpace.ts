/**
 * Which environments an algorithm can run on: Box-action algorithms (DDPG, TD3, SAC, Gaussian PPO,
 * CQL) need an env whose actions are vectors, the others an env with Discrete actions.
 */
import type { ActionSpaceKind, AlgorithmDescriptor } from './algorithm';
import { BOX_ENV_IDS, ENV_IDS } from './sharedSettings';

export type EnvId = (typeof ENV_IDS)[number];

/** The action-space kind of an env id of the environment setting. */
export function envActionSpace(envId: string): ActionSpaceKind {
  return BOX_ENV_IDS.includes(envId) ? 'box' : 'discrete';
}

/** The action-space kind an algorithm acts in. */
export function algorithmActionSpace(d: Pick<AlgorithmDescriptor, 'actionSpace'>): ActionSpaceKind {
  return d.actionSpace ?? 'discrete';
}

/** The env ids of the environment setting that an algorithm can run on. */
export function envIdsFor(d: Pick<AlgorithmDescriptor, 'actionSpace'>): EnvId[] {
  const want = algorithmActionSpace(d);
  return ENV_IDS.filter((id) => envActionSpace(id) === want);
}

/** Null when the algorithm can run on the env; otherwise what is wrong, in one sentence. */
export function actionSpaceMismatch(d: Pick<AlgorithmDescriptor, 'actionSpace' | 'label'>, envId: string): string | null {
  const want = algorithmActionSpace(d);
  const has = envActionSpace(envId);
  if (want === has) return null;
  const name = (k: ActionSpaceKind) => (k === 'box' ? 'continuous (Box)' : 'discrete');
  return `${d.label} needs an environment with ${name(want)} actions, but ${envId} has ${name(has)} actions; choose one of ${envIdsFor(d).join(', ')}`;
}

/**
 * The settings with the env switched to the algorithm's first matching env when the algorithm
 * was just changed to one of the other action-space kind (the page's algorithm menu).
 */
export function withMatchingEnv<S extends { algorithm: string; 'env.id': string }>(settings: S, descriptor: Pick<AlgorithmDescriptor, 'actionSpace' | 'family'>): S {
  if (descriptor.family !== 'classic' || envActionSpace(settings['env.id']) === algorithmActionSpace(descriptor)) return settings;
  return { ...settings, 'env.id': envIdsFor(descriptor)[0] };
}
