/**
 * Shared plumbing of the classic-control envs, discrete (`ClassicControlEnv`) and Box-action
 * (`ContinuousControlEnv`, continuousBase.ts): the seeded Rng stream, Gymnasium's TimeLimit
 * (truncated when the elapsed step count reaches `maxEpisodeSteps`), OrderEnforcing (no step
 * before reset) and strict checks (no step after the episode ended, no invalid action).
 * Subclasses hold their state as float64 numbers and only cast to float32 when writing the obs.
 */
import { Rng } from '../core/rng';
import type { BoxSpace, DiscreteSpace, EnvOptions, InPlaceEnv, ResetOptions, ResetResult, StepResult } from './types';

export const FLOAT32_MAX = 3.4028234663852886e38;

export function box(low: readonly number[], high: readonly number[]): BoxSpace {
  return { kind: 'box', shape: [low.length], low: Float32Array.from(low), high: Float32Array.from(high) };
}

/**
 * The episode bookkeeping of a classic-control env with actions of type `A`. A subclass's
 * `stepInto` calls `checkCanStep()`, checks its action, advances its dynamics and ends with
 * `endStep(terminated, …)`.
 */
export abstract class EpisodicEnv<A> {
  abstract readonly id: string;
  abstract readonly observationSpace: BoxSpace;
  readonly maxEpisodeSteps: number;
  lastTerminated = false;
  lastTruncated = false;
  protected rng: Rng;
  private started = false;
  private ended = false;
  private elapsed = 0;

  constructor(defaultMaxEpisodeSteps: number, options: EnvOptions = {}) {
    const max = options.maxEpisodeSteps ?? defaultMaxEpisodeSteps;
    if (!Number.isInteger(max) || max < 1) {
      throw new Error(`maxEpisodeSteps must be a positive integer, got ${max}`);
    }
    this.maxEpisodeSteps = max;
    this.rng = new Rng(options.seed ?? 0);
  }

  /** Steps taken in the current episode. */
  get elapsedSteps(): number {
    return this.elapsed;
  }

  get obsDim(): number {
    return this.observationSpace.shape[0];
  }

  /** Draw the initial state from `rng`. */
  protected abstract resetState(rng: Rng): void;
  /** Write the float32 observation of the current state at `out[offset ..]`. */
  protected abstract writeObs(out: Float32Array, offset: number): void;
  /** Set the internal float64 state from `state` (same layout as `getState()`). */
  protected abstract loadState(state: ArrayLike<number>): void;
  /** The internal float64 state, as Gymnasium's `env.unwrapped.state`. */
  abstract getState(): number[];
  abstract renderState(): Record<string, number>;
  /** Step, write the observation at `out[offset ..]`, and return the reward. */
  abstract stepInto(action: A, out: Float32Array, offset: number): number;

  /**
   * Start a new episode from a given internal state (elapsed steps 0; the Rng is not touched), like
   * assigning Gymnasium's `env.unwrapped.state` right after a reset. Returns the observation.
   */
  resetToState(state: ArrayLike<number>): Float32Array {
    const n = this.getState().length;
    if (state.length !== n) throw new Error(`${this.id}: resetToState needs ${n} numbers, got ${state.length}`);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(state[i])) throw new Error(`${this.id}: resetToState got a non-finite value`);
    }
    this.loadState(state);
    this.beginEpisode();
    const obs = new Float32Array(this.obsDim);
    this.writeObs(obs, 0);
    return obs;
  }

  private beginEpisode(): void {
    this.started = true;
    this.ended = false;
    this.elapsed = 0;
    this.lastTerminated = false;
    this.lastTruncated = false;
  }

  resetInto(out: Float32Array, offset: number, seed?: number): void {
    if (seed !== undefined) this.rng = new Rng(seed);
    this.resetState(this.rng);
    this.beginEpisode();
    this.writeObs(out, offset);
  }

  /** OrderEnforcing, and no step after the episode ended: throws unless a step may be taken now. */
  protected checkCanStep(): void {
    if (!this.started) throw new Error(`${this.id}: step() called before reset(); call reset() first`);
    if (this.ended) throw new Error(`${this.id}: step() called after the episode ended; call reset() first`);
  }

  /** After the dynamics: count the step, apply the time limit, and write the observation. */
  protected endStep(terminated: boolean, out: Float32Array, offset: number): void {
    this.elapsed += 1;
    const truncated = this.elapsed >= this.maxEpisodeSteps;
    this.lastTerminated = terminated;
    this.lastTruncated = truncated;
    this.ended = terminated || truncated;
    this.writeObs(out, offset);
  }

  reset(options: ResetOptions = {}): ResetResult {
    const obs = new Float32Array(this.obsDim);
    this.resetInto(obs, 0, options.seed);
    return { obs, info: {} };
  }

  step(action: A): StepResult {
    const obs = new Float32Array(this.obsDim);
    const reward = this.stepInto(action, obs, 0);
    return { obs, reward, terminated: this.lastTerminated, truncated: this.lastTruncated, info: {} };
  }
}

export abstract class ClassicControlEnv extends EpisodicEnv<number> implements InPlaceEnv {
  abstract readonly actionSpace: DiscreteSpace;

  /** Advance the dynamics by one step; return `terminated`. The action is already validated. */
  protected abstract advance(action: number): boolean;
  /** Reward of the step that just happened. */
  protected abstract reward(terminated: boolean): number;

  stepInto(action: number, out: Float32Array, offset: number): number {
    this.checkCanStep();
    const n = this.actionSpace.n;
    if (!Number.isInteger(action) || action < 0 || action >= n) {
      throw new Error(`${this.id}: invalid action ${String(action)}; expected an integer in [0, ${n - 1}]`);
    }
    const terminated = this.advance(action);
    this.endStep(terminated, out, offset);
    return this.reward(terminated);
  }
}
