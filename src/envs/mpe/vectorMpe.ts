/**
 * N copies of one MPE env stepped together for actors, in flat typed arrays, with same-step
 * autoreset (as `VectorEnv`): a copy whose episode ends is reset at once; `obs` holds its reset
 * observations and `finalObs` the real last ones.
 *
 * Layouts (A agents, S = stateDim = Σ obsDims, W = actionStride):
 *   obs, finalObs  [n × S]  copy i, agent a at i·S + obsOffsets[a] (a copy's row is its global state)
 *   actions        [n × W]  copy i, agent a at i·W + actionOffsets[a]: the index (discrete) or the
 *                            Box vector (continuous)
 *   rewards        [n × A]
 *   terminated, truncated [n]  (every agent of a copy ends together in MPE)
 * Outputs are fresh arrays every step so that they can be transferred between threads.
 */
import { deriveSeed } from '../../core/rng';
import type { MpeEnv } from './mpeEnv';
import { makeMpeEnv, type MakeMpeOptions } from './registry';

export interface MpeEpisode {
  copy: number;
  /** Return of each agent, in agent order. */
  returns: number[];
  length: number;
  /** The scenario's metrics, aggregated over the episode (see `MpeVectorEnv.metricNames`). */
  metrics: Record<string, number>;
}

export interface MpeVectorStep {
  obs: Float32Array;
  rewards: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  finalObs: Float32Array;
  /** Episodes that ended this step, in copy order. */
  episodes: MpeEpisode[];
}

export type MpeVectorOptions = Omit<MakeMpeOptions, 'seed'>;

export class MpeVectorEnv {
  readonly id: string;
  readonly numEnvs: number;
  readonly agents: readonly string[];
  readonly numAgents: number;
  readonly obsDims: readonly number[];
  readonly obsOffsets: readonly number[];
  readonly stateDim: number;
  readonly actionWidths: readonly number[];
  readonly actionOffsets: readonly number[];
  readonly actionStride: number;
  /** Discrete: the number of actions of each agent; continuous: the Box length. */
  readonly actionSizes: readonly number[];
  readonly continuous: boolean;
  readonly maxCycles: number;
  readonly metricNames: readonly string[];
  private readonly envs: MpeEnv[];
  private readonly returns: Float64Array;
  private readonly lengths: Int32Array;
  private readonly metricSums: Float64Array;
  private readonly metricNow: Float64Array;
  private started = false;

  constructor(id: string, n: number, options: MpeVectorOptions = {}) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`MpeVectorEnv: n must be a positive integer, got ${n}`);
    this.envs = Array.from({ length: n }, () => makeMpeEnv(id, options));
    const e = this.envs[0];
    this.id = e.id;
    this.numEnvs = n;
    this.agents = e.possibleAgents;
    this.numAgents = this.agents.length;
    this.obsDims = e.obsDims;
    this.obsOffsets = e.obsOffsets;
    this.stateDim = e.stateDim;
    this.actionWidths = e.actionWidths;
    this.actionOffsets = e.actionOffsets;
    this.actionStride = e.actionStride;
    this.actionSizes = this.agents.map((a) => {
      const s = e.actionSpace(a);
      return s.kind === 'discrete' ? s.n : s.shape[0];
    });
    this.continuous = e.continuous;
    this.maxCycles = e.maxCycles;
    this.metricNames = e.scenario.metrics.map((m) => m.name);
    this.returns = new Float64Array(n * this.numAgents);
    this.lengths = new Int32Array(n);
    this.metricSums = new Float64Array(n * this.metricNames.length);
    this.metricNow = new Float64Array(this.metricNames.length);
  }

  /** Reset every copy, copy i with seed `deriveSeed(seed, i)`; returns n × stateDim observations. */
  reset(seed: number): Float32Array {
    const obs = new Float32Array(this.numEnvs * this.stateDim);
    for (let i = 0; i < this.numEnvs; i++) this.envs[i].resetInto(obs, i * this.stateDim, deriveSeed(seed, i));
    this.returns.fill(0);
    this.lengths.fill(0);
    this.metricSums.fill(0);
    this.started = true;
    return obs;
  }

  step(actions: ArrayLike<number>): MpeVectorStep {
    if (!this.started) throw new Error(`MpeVectorEnv(${this.id}): step() called before reset(seed)`);
    const n = this.numEnvs;
    const S = this.stateDim;
    const A = this.numAgents;
    const W = this.actionStride;
    if (actions.length !== n * W) {
      const layout = this.agents.map((a, k) => `${a}: ${this.actionWidths[k]}`).join(', ');
      throw new Error(
        `MpeVectorEnv(${this.id}): expected ${n} copies × ${W} numbers = ${n * W} actions (per copy ${layout}), got ${actions.length}`,
      );
    }
    const obs = new Float32Array(n * S);
    const rewards = new Float32Array(n * A);
    const terminated = new Uint8Array(n);
    const truncated = new Uint8Array(n);
    const finalObs = new Float32Array(n * S);
    const episodes: MpeEpisode[] = [];
    const specs = this.envs[0].scenario.metrics;
    const M = specs.length;
    for (let i = 0; i < n; i++) {
      const env = this.envs[i];
      env.stepFlat(actions, i * W, obs, i * S, rewards, i * A, `copy ${i}, `);
      for (let k = 0; k < A; k++) this.returns[i * A + k] += rewards[i * A + k];
      this.lengths[i] += 1;
      env.measure(this.metricNow);
      for (let m = 0; m < M; m++) {
        if (specs[m].aggregate === 'sum') this.metricSums[i * M + m] += this.metricNow[m];
        else this.metricSums[i * M + m] = this.metricNow[m];
      }
      if (env.lastTruncated) {
        truncated[i] = 1;
        finalObs.set(obs.subarray(i * S, (i + 1) * S), i * S);
        const metrics: Record<string, number> = {};
        for (let m = 0; m < M; m++) metrics[specs[m].name] = this.metricSums[i * M + m];
        episodes.push({ copy: i, returns: Array.from(this.returns.subarray(i * A, (i + 1) * A)), length: this.lengths[i], metrics });
        this.returns.fill(0, i * A, (i + 1) * A);
        this.lengths[i] = 0;
        this.metricSums.fill(0, i * M, (i + 1) * M);
        env.resetInto(obs, i * S); // continues this copy's own rng stream
      }
    }
    return { obs, rewards, terminated, truncated, finalObs, episodes };
  }

  /** Drawing description of copy i. */
  render(i: number) {
    if (!Number.isInteger(i) || i < 0 || i >= this.numEnvs) {
      throw new Error(`MpeVectorEnv: copy index ${i} out of range [0, ${this.numEnvs})`);
    }
    return this.envs[i].render();
  }
}
