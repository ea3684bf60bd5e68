/**
 * The continuous-action classic-control envs (Pendulum-v1, MountainCarContinuous-v0), the
 * Box-action sibling of `ClassicControlEnv`: the episode bookkeeping (Rng, TimeLimit,
 * OrderEnforcing) is `EpisodicEnv`'s (base.ts); here is the action check (length = shape[0],
 * every value finite). Clipping to the bounds is the subclass's job, because
 * Gymnasium's envs differ in what they clip (MountainCarContinuous charges its action cost on the
 * UNCLIPPED action).
 */
import { EpisodicEnv } from './base';
import type { Action, BoxActionEnv, BoxSpace } from './types';

/** min(max(x, low), high), as np.clip for finite x. */
export function clip(x: number, low: number, high: number): number {
  return Math.min(Math.max(x, low), high);
}

export abstract class ContinuousControlEnv extends EpisodicEnv<Action> implements BoxActionEnv {
  abstract readonly actionSpace: BoxSpace;
  /** The validated action of the current step, as float64 (reused, no allocation per step). */
  private actionScratch: Float64Array | null = null;

  get actionDim(): number {
    return this.actionSpace.shape[0];
  }

  /** Advance the dynamics by one step with the (validated, unclipped) action; return the reward. */
  protected abstract advance(action: Float64Array): number;
  /** Whether the state after `advance` is terminal. */
  protected abstract isTerminal(): boolean;

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

  stepInto(action: Action, out: Float32Array, offset: number): number {
    this.checkCanStep();
    const reward = this.advance(this.validate(action));
    this.endStep(this.isTerminal(), out, offset);
    return reward;
  }
}
