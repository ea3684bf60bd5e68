/**
 * Gymnasium-style environment interfaces. Environments are pure TypeScript: no tensors, no DOM.
 * Observations are Float32Array so that they can be packed into transferable segments.
 */

export interface BoxSpace {
  readonly kind: 'box';
  readonly shape: readonly number[];
  readonly low: Float32Array;
  readonly high: Float32Array;
}

export interface DiscreteSpace {
  readonly kind: 'discrete';
  readonly n: number;
}

export type Space = BoxSpace | DiscreteSpace;

export type Info = Record<string, unknown>;

export interface ResetResult {
  obs: Float32Array;
  info: Info;
}

export interface StepResult {
  obs: Float32Array;
  reward: number;
  /** The episode reached a terminal state of the MDP (bootstrap with 0). */
  terminated: boolean;
  /** The episode was cut by a time limit (bootstrap from the value of `obs`). */
  truncated: boolean;
  info: Info;
}

export interface ResetOptions {
  seed?: number;
}

export interface Env {
  readonly id: string;
  readonly observationSpace: BoxSpace;
  readonly actionSpace: Space;
  reset(options?: ResetOptions): ResetResult;
  step(action: number): StepResult;
  /** A plain snapshot of the state for drawing (no references into the env). */
  renderState(): Record<string, number>;
}

/** An environment wrapped in a time limit (Gymnasium's TimeLimit), as every registered env is. */
export interface TimeLimitedEnv extends Env {
  readonly maxEpisodeSteps: number;
}

/**
 * The allocation-free path that `VectorEnv` uses: observations are written into a caller's buffer
 * and the flags of the last step are read back from the env.
 */
export interface InPlaceEnv extends TimeLimitedEnv {
  /** Reset (reseeding when `seed` is given) and write the observation at `out[offset ..]`. */
  resetInto(out: Float32Array, offset: number, seed?: number): void;
  /** Step, write the observation at `out[offset ..]`, and return the reward. */
  stepInto(action: number, out: Float32Array, offset: number): number;
  /** `terminated` of the last step. */
  readonly lastTerminated: boolean;
  /** `truncated` of the last step. */
  readonly lastTruncated: boolean;
}

/**
 * An action as an env receives it: an integer index for a discrete space, a vector of
 * `shape[0]` numbers for a Box space (a plain number is accepted as a 1-vector when shape is [1]).
 */
export type Action = number | ArrayLike<number>;

/**
 * An env with a Box (continuous) action space, on the same allocation-free path as `InPlaceEnv`.
 * Actions outside [low, high] are clipped inside the env (as Gymnasium's envs do); an action of
 * the wrong length or with a non-finite value throws.
 */
export interface BoxActionEnv extends InPlaceEnv {
  readonly actionSpace: BoxSpace;
  step(action: Action): StepResult;
  stepInto(action: Action, out: Float32Array, offset: number): number;
}

export interface EnvOptions {
  /** Seed of the env's Rng until `reset({ seed })` replaces it (default 0). */
  seed?: number;
  /** Override of the time limit (default: the env's Gymnasium registration). */
  maxEpisodeSteps?: number;
}
