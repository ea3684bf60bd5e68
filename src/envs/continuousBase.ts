/**
 * Shared plumbing of the continuous-action classic-control envs (Pendulum-v1,
 * MountainCarContinuous-v0), the Box-action sibling of `ClassicControlEnv`: the seeded Rng stream,
 * Gymnasium's TimeLimit (truncated when the elapsed step count reaches `maxEpisodeSteps`),
 * OrderEnforcing (no step before reset), no step after the episode ended, and the action check
 * (length = shape[0], every value finite). Clipping to the bounds is the subclass's job, because
 * Gymnasium's envs differ in what they clip (MountainCarContinuous charges its action cost on the
 * UNCLIPPED action).
 */
import { Rng } from '../core/rng';
import type { Action, BoxActionEnv, BoxSpace, EnvOptions, ResetOptions, ResetResult, StepResult } from './types';

/** min(max(x, low), high), as np.clip for finite x. */
export function clip(x: number, low: number, high: number): number {
  return Math.min(Math.max(x, low), high);
}

export abstract class ContinuousControlEnv implements BoxActionEnv {
  abstract readonly id: string;
  abstract readonly observationSpace: BoxSpace;
  abstract readonly actionSpace: BoxSpace;
  readonly maxEpisodeSteps: number;
  lastTerminated = false;
  lastTruncated = false;
  protected rng: Rng;
  private started = false;
  private ended = false;
  private elapsed = 0;
  /** The validated action of the current step, as float64 (reused, no allocation per step). */
  private actionScratch: Float64Array | null = null;

  constructor(defaultMaxEpisodeSteps: number, options: EnvOptions = {}) {
    const max = options.maxEpisodeSteps ?? defaultMaxEpisodeSteps;
    if (!Number.isInteger(max) || max < 1) {
      throw new Error(`maxEpisodeSteps must be a positive integer, got ${max}`);
    }
    this.maxEpisodeSteps = max;
    this.rng = new Rng(options.seed ?? 0);
  }

  get elapsedSteps(): number {
    return this.elapsed;
  }

  get obsDim(): number {
    return this.observationSpace.shape[0];
  }

  get actionDim(): number {
    return this.actionSpace.shape[0];
  }

  /** Draw the initial state from `rng`. */
  protected abstract resetState(rng: Rng): void;
  /** Advance the dynamics by one step with the (validated, unclipped) action; return the reward. */
  protected abstract advance(action: Float64Array): number;
  /** Whether the state after `advance` is terminal. */
  protected abstract isTerminal(): boolean;
  /** Write the float32 observation of the current state at `out[offset ..]`. */
  protected abstract writeObs(out: Float32Array, offset: number): void;
  /** Set the internal state from `state` (same layout as `getState()`). */
  protected abstract loadState(state: ArrayLike<number>): void;
  /** The internal state, as Gymnasium's `env.unwrapped.state`. */
  abstract getState(): number[];
  abstract renderState(): Record<string, number>;

  /** Start a new episode from a given internal state (elapsed steps 0, Rng untouched); returns the observation. */
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

  /** Copy `action` into float64 after checking its length and values; throws a message naming what is wrong. */
  private validate(action: Action): Float64Array {
    const d = this.actionDim;
    if (!this.actionScratch) this.actionScratch = new Float64Array(d);
    const a = this.actionScratch;
    if (typeof action === 'number') {
      if (d !== 1) throw new Error(`${this.id}: the action must have ${d} values (a Float32Array), got a single number`);
      a[0] = action;
    } else {
      if (action === null || typeof action !== 'object' || typeof action.length !== 'number') {
        throw new Error(`${this.id}: the action must be an array of ${d} numbers, got ${String(action)}`);
      }
      if (action.length !== d) throw new Error(`${this.id}: the action must have ${d} values, got ${action.length}`);
      for (let i = 0; i < d; i++) a[i] = action[i];
    }
    for (let i = 0; i < d; i++) {
      if (!Number.isFinite(a[i])) {
        throw new Error(`${this.id}: action[${i}] is ${String(a[i])}; every action value must be a finite number`);
      }
    }
    return a;
  }

  resetInto(out: Float32Array, offset: number, seed?: number): void {
    if (seed !== undefined) this.rng = new Rng(seed);
    this.resetState(this.rng);
    this.beginEpisode();
    this.writeObs(out, offset);
  }

  stepInto(action: Action, out: Float32Array, offset: number): number {
    if (!this.started) throw new Error(`${this.id}: step() called before reset(); call reset() first`);
    if (this.ended) throw new Error(`${this.id}: step() called after the episode ended; call reset() first`);
    const reward = this.advance(this.validate(action));
    const terminated = this.isTerminal();
    this.elapsed += 1;
    const truncated = this.elapsed >= this.maxEpisodeSteps;
    this.lastTerminated = terminated;
    this.lastTruncated = truncated;
    this.ended = terminated || truncated;
    this.writeObs(out, offset);
    return reward;
  }

  reset(options: ResetOptions = {}): ResetResult {
    const obs = new Float32Array(this.obsDim);
    this.resetInto(obs, 0, options.seed);
    return { obs, info: {} };
  }

  step(action: Action): StepResult {
    const obs = new Float32Array(this.obsDim);
    const reward = this.stepInto(action, obs, 0);
    return { obs, reward, terminated: this.lastTerminated, truncated: this.lastTruncated, info: {} };
  }
}
