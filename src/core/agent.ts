/**
 * Agent: the data bridge (PaddlePaddle PARL's `parl.Agent`).
 *
 * The environment side speaks flat Float32Arrays (row-major, `batch` rows); the Algorithm speaks
 * tensors. The Agent converts between them, and saves / restores the model's weights.
 *
 * Sampling is deterministic for a seed: the probabilities come back in ONE readback and the
 * categorical draws are made in JS with the caller's Rng (never a tfjs random op).
 */
import * as tf from '@tensorflow/tfjs';
import type { Algorithm, UpdateSteps } from './algorithm';
import type { Model, ModelOutput } from './model';
import type { Rng } from './rng';
import { isNode } from './backend';
import { loadCheckpointFile, loadCheckpointIdb, saveCheckpointFile, saveCheckpointIdb, type Checkpoint } from './checkpoint';
import { toTensor2d } from './tensorUtils';

export interface SaveOptions {
  /** Where to save: 'file' (Node) or 'idb' (IndexedDB). Default: 'file' in Node, 'idb' elsewhere. */
  store?: 'file' | 'idb';
  /** Extra metadata stored with the weights (merged over the agent's own `meta()`). */
  meta?: Record<string, unknown>;
}

export class Agent<Batch = unknown, M extends Model<ModelOutput> = Model<ModelOutput>> {
  constructor(readonly alg: Algorithm<Batch, M>) {}

  get model(): M {
    return this.alg.model;
  }

  /** Observations (flat, `batch` rows) → [batch, obsDim] tensor. Override to normalise, stack frames, ... */
  preprocess(obs: Float32Array, batch: number): tf.Tensor2D {
    return toTensor2d(obs, batch, 'obs');
  }

  /** Greedy actions: argmax over `alg.predict` for each row. */
  predict(obs: Float32Array, batch: number): Int32Array {
    const actions = tf.tidy(() => tf.argMax(this.alg.predict(this.preprocess(obs, batch)), 1));
    const out = new Int32Array(actions.dataSync());
    actions.dispose();
    return out;
  }

  /** Sampled actions: one readback of the [batch, A] probabilities, then `rng.categorical` per row. */
  sample(obs: Float32Array, batch: number, rng: Rng): Int32Array {
    const probs = tf.tidy(() => this.alg.sample(this.preprocess(obs, batch)));
    const p = probs.dataSync();
    probs.dispose();
    return categoricalRows(p, batch, rng);
  }

  /** As `sample`, with an async readback (use on webgpu/webgl so the thread does not block). */
  async sampleAsync(obs: Float32Array, batch: number, rng: Rng): Promise<Int32Array> {
    const probs = tf.tidy(() => this.alg.sample(this.preprocess(obs, batch)));
    try {
      return categoricalRows(await probs.data(), batch, rng);
    } finally {
      probs.dispose();
    }
  }

  /** The action probabilities themselves, [batch * numActions] row-major (for logging / tests). */
  probabilities(obs: Float32Array, batch: number): Float32Array {
    const probs = tf.tidy(() => this.alg.sample(this.preprocess(obs, batch)));
    const p = new Float32Array(probs.dataSync());
    probs.dispose();
    return p;
  }

  learn(batch: Batch): Record<string, number> {
    return this.alg.learn(batch);
  }

  /** `learn` as steps, for a loop that lets the event loop turn between them (see UpdateSteps). */
  learnSteps(batch: Batch): UpdateSteps {
    return this.alg.learnSteps(batch);
  }

  /** How far the run is, in [0, 1]: the algorithm applies its schedules (learning-rate annealing). */
  setProgress(fraction: number): void {
    this.alg.setProgress(fraction);
  }

  /** Sync the algorithm's target network(s) (DQN). */
  syncTarget(tau?: number): void {
    this.alg.syncTarget(tau);
  }

  getWeights(): Float32Array[] {
    return this.model.getWeights();
  }

  getWeightsAsync(): Promise<Float32Array[]> {
    return this.model.getWeightsAsync();
  }

  setWeights(ws: readonly Float32Array[]): void {
    this.model.setWeights(ws);
  }

  /** Metadata saved with every checkpoint. Override to add the spec, the step count, ... */
  meta(): Record<string, unknown> {
    return { algorithm: this.alg.constructor.name, model: this.model.constructor.name, numParams: this.model.numParams() };
  }

  /** Save the main model's weights: a file path in Node, an IndexedDB key in the browser. */
  async save(target: string, options: SaveOptions = {}): Promise<void> {
    const specs = this.model.weightSpecs();
    const ckpt: Checkpoint = {
      weights: await this.model.getWeightsAsync(),
      meta: { ...this.meta(), ...options.meta, savedAt: new Date().toISOString() },
      shapes: specs.map((s) => s.shape),
      names: specs.map((s) => s.name),
    };
    if ((options.store ?? defaultStore()) === 'file') await saveCheckpointFile(target, ckpt);
    else await saveCheckpointIdb(target, ckpt);
  }

  /** Load weights saved by `save` into the main model; returns the stored metadata. */
  async restore(target: string, options: Pick<SaveOptions, 'store'> = {}): Promise<Record<string, unknown>> {
    const ckpt = (options.store ?? defaultStore()) === 'file' ? await loadCheckpointFile(target) : await loadCheckpointIdb(target);
    if (ckpt.shapes) {
      const specs = this.model.weightSpecs();
      if (ckpt.shapes.length !== specs.length || ckpt.shapes.some((s, i) => !tf.util.arraysEqual(s, specs[i].shape))) {
        throw new Error(
          `restore ${target}: checkpoint shapes ${JSON.stringify(ckpt.shapes)} do not match the model's ${JSON.stringify(specs.map((s) => s.shape))}`,
        );
      }
    }
    this.model.setWeights(ckpt.weights);
    return ckpt.meta;
  }

  dispose(): void {
    this.alg.dispose();
  }
}

function defaultStore(): 'file' | 'idb' {
  return isNode() ? 'file' : 'idb';
}

/** One categorical draw per row of a row-major [batch, A] probability array. */
export function categoricalRows(p: ArrayLike<number>, batch: number, rng: Rng): Int32Array {
  const n = p.length / batch;
  if (!Number.isInteger(n) || n < 1) throw new Error(`categoricalRows: ${p.length} probabilities do not split into ${batch} rows`);
  const out = new Int32Array(batch);
  for (let b = 0; b < batch; b++) out[b] = rng.categorical(p, b * n, n);
  return out;
}
