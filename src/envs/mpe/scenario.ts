/**
 * A scenario builds a World, resets it, and defines each agent's observation and reward
 * (PettingZoo's BaseScenario). The env (`MpeEnv`) adds actions, time limit and the parallel API.
 */
import type { Rng } from '../../core/rng';
import type { Agent, World } from './core';

/** A world-level number per step, aggregated over an episode by the vector env. */
export interface MetricSpec {
  name: string;
  /** 'sum': total over the episode's steps; 'last': value after the last step. */
  aggregate: 'sum' | 'last';
}

export interface Scenario {
  /** PettingZoo's metadata name, e.g. 'simple_spread_v3'. */
  readonly id: string;
  makeWorld(): World;
  /** Draw the initial state from `rng` (same draws, same order as PettingZoo's reset_world). */
  resetWorld(world: World, rng: Rng): void;
  /** Write the agent's observation at `out[offset ..]` (float32 cast); return its length. */
  observation(agent: Agent, world: World, out: Float32Array, offset: number): number;
  reward(agent: Agent, world: World): number;
  /** simple_spread's shared reward, mixed with `reward` by the local ratio. */
  globalReward?(world: World): number;
  /** PettingZoo's `benchmark_data`, as named numbers, for the agent's info. */
  agentInfo?(agent: Agent, world: World): Record<string, number>;
  readonly metrics: readonly MetricSpec[];
  /** Values of `metrics` in the current state, in the same order. */
  measure(world: World, out: Float64Array): void;
}
