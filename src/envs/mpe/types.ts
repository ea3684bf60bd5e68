/**
 * PettingZoo-style parallel multi-agent API: every step takes one action per live agent and
 * returns one observation, reward and pair of flags per agent.
 */
import type { BoxSpace, Info, ResetOptions, Space } from '../types';
import type { MpeRenderFrame } from './render';

/** A discrete action index, or a continuous action vector (a Box in [0, 1]). */
export type MpeAction = number | Float32Array | readonly number[];

export type PerAgent<T> = Record<string, T>;

export interface ParallelResetResult {
  obs: PerAgent<Float32Array>;
  infos: PerAgent<Info>;
}

export interface ParallelStepResult {
  obs: PerAgent<Float32Array>;
  rewards: PerAgent<number>;
  terminations: PerAgent<boolean>;
  truncations: PerAgent<boolean>;
  infos: PerAgent<Info>;
}

export interface ParallelEnv {
  readonly id: string;
  /** Every agent of the env, in a fixed order. */
  readonly possibleAgents: readonly string[];
  /** The agents still acting: all of them during an episode, none once it has ended. */
  readonly agents: readonly string[];
  observationSpace(agent: string): BoxSpace;
  actionSpace(agent: string): Space;
  /** Space of `state()`. */
  readonly stateSpace: BoxSpace;
  reset(options?: ResetOptions): ParallelResetResult;
  step(actions: Readonly<PerAgent<MpeAction>>): ParallelStepResult;
  /** Global state: the agents' observations concatenated in `possibleAgents` order. */
  state(): Float32Array;
  /** Plain data to draw the current frame. */
  render(): MpeRenderFrame;
}
