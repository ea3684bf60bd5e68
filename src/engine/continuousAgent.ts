/**
 * The learner-side Agent of the Box-action algorithms: turns replay samples (typed arrays) into
 * the tensor batch `learn` takes, with the random draws the update needs (SAC's ε at s and s',
 * TD3's target-smoothing ε, CQL's sampled actions, SAC-with-gSDE's exploration matrix) drawn in JS
 * from the run's seeded Rng, so a seed gives the same numbers on every backend. It frees every
 * tensor it makes.
 */
import * as tf from '@tensorflow/tfjs';
import type { BatchDraw } from '../config/algorithm';
import type { Algorithm } from '../core/algorithm';
import type { Rng } from '../core/rng';
import { toContinuousBatch } from '../algorithms/offPolicy';
import type { ContinuousTransitionBatch } from '../algorithms/replayBuffer';

/** The draws every off-policy continuous batch carries: SAC reads noise / nextNoise, TD3 targetNoise, DDPG none. */
export const STANDARD_DRAWS: readonly BatchDraw[] = [
  { name: 'noise', rows: 1, kind: 'normal' },
  { name: 'nextNoise', rows: 1, kind: 'normal' },
  { name: 'targetNoise', rows: 1, kind: 'normal' },
];

/** A standard-normal draw of a fixed shape per update rather than per transition (gSDE's E [H, A]). */
export interface UpdateDraw {
  name: string;
  shape: [number, number];
}

/** Whether an update rule asks for per-update draws (SAC declares `updateDraws()`). */
function hasUpdateDraws(a: object): a is { updateDraws(): readonly UpdateDraw[] } {
  return typeof (a as { updateDraws?: unknown }).updateDraws === 'function';
}

export class ContinuousAgent {
  private readonly draws: readonly BatchDraw[];
  private readonly updateDraws: readonly UpdateDraw[];

  constructor(
    readonly algorithm: Algorithm,
    readonly obsDim: number,
    readonly actionDim: number,
    private readonly rng: Rng,
    extraDraws: readonly BatchDraw[] = [],
  ) {
    this.draws = [...STANDARD_DRAWS, ...extraDraws];
    this.updateDraws = hasUpdateDraws(algorithm) ? algorithm.updateDraws() : [];
  }

  /** One update from a replay sample; returns the algorithm's metrics. */
  learn(sample: ContinuousTransitionBatch): Record<string, number> {
    const B = sample.batchSize;
    const batch: Record<string, tf.Tensor> = { ...toContinuousBatch(sample, this.obsDim, this.actionDim) };
    for (const d of this.draws) {
      const values = new Float32Array(B * d.rows * this.actionDim);
      for (let i = 0; i < values.length; i++) values[i] = d.kind === 'normal' ? this.rng.normal() : 2 * this.rng.uniform() - 1;
      batch[d.name] = tf.tensor2d(values, [B * d.rows, this.actionDim]);
    }
    // After the per-transition draws, so a rule without update draws sees the same stream.
    for (const d of this.updateDraws) {
      const values = new Float32Array(d.shape[0] * d.shape[1]);
      for (let i = 0; i < values.length; i++) values[i] = this.rng.normal();
      batch[d.name] = tf.tensor2d(values, d.shape);
    }
    try {
      return this.algorithm.learn(batch);
    } finally {
      tf.dispose(Object.values(batch));
    }
  }

  /** The actor network's weights (what the remote actors act with). */
  getWeightsAsync(): Promise<Float32Array[]> {
    return this.algorithm.model.getWeightsAsync();
  }

  setWeights(weights: Float32Array[]): void {
    this.algorithm.model.setWeights(weights);
  }

  dispose(): void {
    this.algorithm.dispose();
  }
}

/** Mean and standard deviation of each action dimension over a batch of actions [n · A]. */
export function actionStats(actions: Float32Array, actionDim: number): { mean: number[]; std: number[] } {
  const n = actions.length / actionDim;
  const mean = new Array<number>(actionDim).fill(0);
  const sq = new Array<number>(actionDim).fill(0);
  for (let i = 0; i < actions.length; i++) {
    mean[i % actionDim] += actions[i];
    sq[i % actionDim] += actions[i] * actions[i];
  }
  for (let j = 0; j < actionDim; j++) {
    mean[j] /= Math.max(n, 1);
    sq[j] = Math.sqrt(Math.max(sq[j] / Math.max(n, 1) - mean[j] * mean[j], 0));
  }
  return { mean, std: sq };
}

/** Sums metrics over several updates and averages each over the updates that reported it. */
export class MetricMeans {
  private readonly sums: Record<string, number> = {};
  private readonly counts: Record<string, number> = {};

  add(m: Record<string, number>): void {
    for (const [k, v] of Object.entries(m)) {
      this.sums[k] = (this.sums[k] ?? 0) + v;
      this.counts[k] = (this.counts[k] ?? 0) + 1;
    }
  }

  means(): Record<string, number> {
    return Object.fromEntries(Object.keys(this.sums).map((k) => [k, this.sums[k] / this.counts[k]]));
  }
}
