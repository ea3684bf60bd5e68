/**
 * Env ids to factories, like `gymnasium.make`. Every env made here carries its time limit
 * (`maxEpisodeSteps`, overridable) and its seed (default 0 until `reset({ seed })`).
 */
import { ACROBOT, AcrobotEnv } from './acrobot';
import { CARTPOLE, CartPoleEnv } from './cartpole';
import { MOUNTAIN_CAR, MountainCarEnv } from './mountainCar';
import { MOUNTAIN_CAR_CONTINUOUS, MountainCarContinuousEnv } from './mountainCarContinuous';
import { PendulumEnv } from './pendulum';
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

/** Sizes, bounds and limits of an env id with a Box (continuous) action space. */
export interface ContinuousEnvSpec {
  id: string;
  obsDim: number;
  /** Length of one action vector. */
  actionDim: number;
  /** Per-dimension action bounds (actions outside are clipped by the env). */
  actionLow: number[];
  actionHigh: number[];
  maxEpisodeSteps: number;
  rewardThreshold: number | null;
}

/** Whether an env id's actions are indices ('discrete') or vectors ('box'). */
export function actionKind(id: string): 'discrete' | 'box' {
  return entry(id).factory({}).actionSpace.kind;
}

/** As `envSpec`, for an env id with a Box action space (Pendulum-v1, MountainCarContinuous-v0). */
export function continuousEnvSpec(id: string): ContinuousEnvSpec {
  const e = entry(id);
  const env = e.factory({});
  if (env.actionSpace.kind !== 'box') {
    throw new Error(`continuousEnvSpec: env "${id}" has a discrete action space; use envSpec`);
  }
  return {
    id,
    obsDim: env.observationSpace.shape[0],
    actionDim: env.actionSpace.shape[0],
    actionLow: Array.from(env.actionSpace.low),
    actionHigh: Array.from(env.actionSpace.high),
    maxEpisodeSteps: env.maxEpisodeSteps,
    rewardThreshold: e.meta.rewardThreshold ?? null,
  };
}

/** Sizes and limits of an env id, read from a fresh instance. */
export function envSpec(id: string): EnvSpec {
  const e = entry(id);
  const env = e.factory({});
  if (env.actionSpace.kind !== 'discrete') {
    throw new Error(`envSpec: env "${id}" has a non-discrete action space; use continuousEnvSpec`);
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
// Pendulum-v1 has no reward_threshold in Gymnasium's registration.
registerEnv('Pendulum-v1', (o) => new PendulumEnv(o));
registerEnv('MountainCarContinuous-v0', (o) => new MountainCarContinuousEnv(o), {
  rewardThreshold: MOUNTAIN_CAR_CONTINUOUS.rewardThreshold,
});
registerEnv(ITEM_SEARCH_ID, (o) => new ItemSearchEnv({ maxEpisodeSteps: o.maxEpisodeSteps, seed: o.seed }));
