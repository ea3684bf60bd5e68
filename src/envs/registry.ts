/**
 * Env ids to factories, like `gymnasium.make`. Every env made here carries its time limit
 * (`maxEpisodeSteps`, overridable) and its seed (default 0 until `reset({ seed })`).
 */
import { ACROBOT, AcrobotEnv } from './acrobot';
import { CARTPOLE, CartPoleEnv } from './cartpole';
import { MOUNTAIN_CAR, MountainCarEnv } from './mountainCar';
import { ITEM_SEARCH_ID, ItemSearchEnv } from './swarm/itemSearch';
import type { EnvOptions, TimeLimitedEnv } from './types';

export type EnvFactory = (options: EnvOptions) => TimeLimitedEnv;

export interface EnvMeta {
  /** Return at which the task counts as solved (Gymnasium's `reward_threshold`), if any. */
  rewardThreshold?: number;
}

export interface EnvSpec {
  id: string;
  obsDim: number;
  numActions: number;
  maxEpisodeSteps: number;
  rewardThreshold: number | null;
}

interface Entry {
  factory: EnvFactory;
  meta: EnvMeta;
}

const registry = new Map<string, Entry>();

/** Register (or replace) an env id. */
export function registerEnv(id: string, factory: EnvFactory, meta: EnvMeta = {}): void {
  registry.set(id, { factory, meta });
}

/** The registered ids, in registration order. */
export function listEnvs(): string[] {
  return [...registry.keys()];
}

function entry(id: string): Entry {
  const e = registry.get(id);
  if (!e) throw new Error(`Unknown env id "${id}". Known ids: ${listEnvs().join(', ')}`);
  return e;
}

export function makeEnv(id: string, options: EnvOptions = {}): TimeLimitedEnv {
  return entry(id).factory(options);
}

/** Sizes and limits of an env id, read from a fresh instance. */
export function envSpec(id: string): EnvSpec {
  const e = entry(id);
  const env = e.factory({});
  if (env.actionSpace.kind !== 'discrete') {
    throw new Error(`envSpec: env "${id}" has a non-discrete action space`);
  }
  return {
    id,
    obsDim: env.observationSpace.shape[0],
    numActions: env.actionSpace.n,
    maxEpisodeSteps: env.maxEpisodeSteps,
    rewardThreshold: e.meta.rewardThreshold ?? null,
  };
}

registerEnv('CartPole-v1', (o) => new CartPoleEnv(o), { rewardThreshold: CARTPOLE.rewardThreshold });
registerEnv('Acrobot-v1', (o) => new AcrobotEnv(o), { rewardThreshold: ACROBOT.rewardThreshold });
registerEnv('MountainCar-v0', (o) => new MountainCarEnv(o), { rewardThreshold: MOUNTAIN_CAR.rewardThreshold });
registerEnv(ITEM_SEARCH_ID, (o) => new ItemSearchEnv({ maxEpisodeSteps: o.maxEpisodeSteps, seed: o.seed }));
