/**
 * N copies of one env id stepped together, with same-step autoreset (Gymnasium's
 * `autoreset_mode=SAME_STEP`): a copy whose episode ends is reset at once, `obs` holds its reset
 * observation and `finalObs` the real last one. Outputs are fresh typed arrays every step so that
 * they can be transferred between threads; nothing else is allocated per copy.
 */
import { deriveSeed } from '../core/rng';
import { makeEnv } from './registry';
import type { BoxActionEnv, EnvOptions, InPlaceEnv, Space, TimeLimitedEnv } from './types';

export interface VectorStep {
  /** n * obsDim; for copies that ended this step, the observation after their reset. */
  obs: Float32Array;
  rewards: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  /** n * obsDim; the real last observation of copies that ended this step, zeros elsewhere. */
  finalObs: Float32Array;
  /** Returns of the episodes that ended this step, in copy order. */
  episodeReturns: number[];
  /** Lengths of the episodes that ended this step, in copy order. */
  episodeLengths: number[];
}

export type VectorEnvOptions = Pick<EnvOptions, 'maxEpisodeSteps'>;

function isInPlace(env: TimeLimitedEnv): env is InPlaceEnv {
  const e = env as Partial<InPlaceEnv>;
  return typeof e.stepInto === 'function' && typeof e.resetInto === 'function';
}

function isBoxActionEnv(env: InPlaceEnv): env is BoxActionEnv {
  return env.actionSpace.kind === 'box';
}

/** Adapter for registered envs that only implement the allocating `Env` API. */
class InPlaceAdapter implements InPlaceEnv {
  lastTerminated = false;
  lastTruncated = false;
  constructor(private readonly env: TimeLimitedEnv) {}
  get id(): string {
    return this.env.id;
  }
  get observationSpace() {
    return this.env.observationSpace;
  }
  get actionSpace() {
    return this.env.actionSpace;
  }
  get maxEpisodeSteps(): number {
    return this.env.maxEpisodeSteps;
  }
  reset(options?: { seed?: number }) {
    return this.env.reset(options);
  }
  step(action: number) {
    return this.env.step(action);
  }
  renderState() {
    return this.env.renderState();
  }
  resetInto(out: Float32Array, offset: number, seed?: number): void {
    out.set(this.env.reset(seed === undefined ? {} : { seed }).obs, offset);
    this.lastTerminated = false;
    this.lastTruncated = false;
  }
  stepInto(action: number, out: Float32Array, offset: number): number {
    const r = this.env.step(action);
    out.set(r.obs, offset);
    this.lastTerminated = r.terminated;
    this.lastTruncated = r.truncated;
    return r.reward;
  }
}

export class VectorEnv {
  readonly id: string;
  readonly numEnvs: number;
  readonly obsDim: number;
  /** Number of discrete actions; 0 for a Box action space (see `actionDim`). */
  readonly numActions: number;
  readonly maxEpisodeSteps: number;
  /** The action space of every copy. */
  readonly actionSpace: Space;
  /** Numbers per copy in `step(actions)`: 1 for a discrete space, shape[0] for a Box space. */
  readonly actionDim: number;
  private readonly envs: InPlaceEnv[];
  /** The same copies typed for vector actions (Box action spaces only). */
  private readonly boxEnvs: BoxActionEnv[] | null;
  /** One copy's action, reused every step (Box action spaces only). */
  private readonly actionScratch: Float64Array | null;
  private readonly runningReturns: Float64Array;
  private readonly runningLengths: Int32Array;
  private started = false;

  constructor(id: string, n: number, options: VectorEnvOptions = {}) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`VectorEnv: n must be a positive integer, got ${n}`);
    this.id = id;
    this.numEnvs = n;
    this.envs = [];
    for (let i = 0; i < n; i++) {
      const env = makeEnv(id, { maxEpisodeSteps: options.maxEpisodeSteps });
      this.envs.push(isInPlace(env) ? env : new InPlaceAdapter(env));
    }
    const first = this.envs[0];
    this.actionSpace = first.actionSpace;
    if (first.actionSpace.kind === 'discrete') {
      this.numActions = first.actionSpace.n;
      this.actionDim = 1;
      this.boxEnvs = null;
      this.actionScratch = null;
    } else {
      const boxEnvs = this.envs.filter(isBoxActionEnv);
      if (boxEnvs.length !== n) throw new Error(`VectorEnv: "${id}" has a Box action space but does not implement BoxActionEnv`);
      this.numActions = 0;
      this.actionDim = first.actionSpace.shape[0];
      this.boxEnvs = boxEnvs;
      this.actionScratch = new Float64Array(this.actionDim);
    }
    this.obsDim = first.observationSpace.shape[0];
    this.maxEpisodeSteps = first.maxEpisodeSteps;
    this.runningReturns = new Float64Array(n);
    this.runningLengths = new Int32Array(n);
  }

  /** Reset every copy, copy i with seed `deriveSeed(seed, i)`; returns n * obsDim observations. */
  reset(seed: number): Float32Array {
    const obs = new Float32Array(this.numEnvs * this.obsDim);
    for (let i = 0; i < this.numEnvs; i++) this.envs[i].resetInto(obs, i * this.obsDim, deriveSeed(seed, i));
    this.runningReturns.fill(0);
    this.runningLengths.fill(0);
    this.started = true;
    return obs;
  }

  /**
   * Step every copy. Discrete spaces: `actions[i]` is copy i's action index. Box spaces: `actions`
   * is row-major [n · actionDim] (e.g. a Float32Array), copy i's action is row i.
   */
  step(actions: ArrayLike<number>): VectorStep {
    if (!this.started) throw new Error('VectorEnv: step() called before reset(seed)');
    const n = this.numEnvs;
    const d = this.obsDim;
    const k = this.actionDim;
    if (actions.length !== n * k) {
      throw new Error(
        k === 1 ? `VectorEnv: expected ${n} actions, got ${actions.length}` : `VectorEnv: expected ${n}·${k} = ${n * k} action values, got ${actions.length}`,
      );
    }
    const obs = new Float32Array(n * d);
    const rewards = new Float32Array(n);
    const terminated = new Uint8Array(n);
    const truncated = new Uint8Array(n);
    const finalObs = new Float32Array(n * d);
    const episodeReturns: number[] = [];
    const episodeLengths: number[] = [];
    for (let i = 0; i < n; i++) {
      const env = this.envs[i];
      const off = i * d;
      let r: number;
      if (this.boxEnvs && this.actionScratch) {
        const a = this.actionScratch;
        for (let j = 0; j < k; j++) a[j] = actions[i * k + j];
        r = this.boxEnvs[i].stepInto(a, obs, off);
      } else {
        r = env.stepInto(actions[i], obs, off);
      }
      rewards[i] = r;
      this.runningReturns[i] += r;
      this.runningLengths[i] += 1;
      if (env.lastTerminated || env.lastTruncated) {
        terminated[i] = env.lastTerminated ? 1 : 0;
        truncated[i] = env.lastTruncated ? 1 : 0;
        for (let j = 0; j < d; j++) finalObs[off + j] = obs[off + j];
        episodeReturns.push(this.runningReturns[i]);
        episodeLengths.push(this.runningLengths[i]);
        this.runningReturns[i] = 0;
        this.runningLengths[i] = 0;
        env.resetInto(obs, off); // continues this copy's own rng stream
      }
    }
    return { obs, rewards, terminated, truncated, finalObs, episodeReturns, episodeLengths };
  }

  /** Drawing state of copy i. */
  renderState(i: number): Record<string, number> {
    if (!Number.isInteger(i) || i < 0 || i >= this.numEnvs) {
      throw new Error(`VectorEnv: copy index ${i} out of range [0, ${this.numEnvs})`);
    }
    return this.envs[i].renderState();
  }
}
