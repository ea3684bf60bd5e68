/**
 * Central (SEED-style) inference: the actors only step their environments, and the learner
 * chooses every action with one batched forward pass on its own backend for all the actors
 * that are waiting, instead of one pass per actor.
 */
import * as tf from '@tensorflow/tfjs';
import { categoricalRows } from '../core/agent';
import type { Model, ModelOutput } from '../core/model';
import { log } from '../core/portableMath';
import type { Rng } from '../core/rng';
import { SegmentWriter, type Segment, type VectorStepResult } from './segments';

interface Pending {
  obs: Float32Array;
  n: number;
  resolve(out: { actions: Int32Array; logProbs: Float32Array }): void;
  reject(err: unknown): void;
}

export class InferenceServer {
  private pending: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Batched forward passes run so far. */
  forwardCalls = 0;
  /** Producers currently acting; a batch runs as soon as all of them are waiting. */
  producers = 0;

  constructor(
    private readonly model: Model<ModelOutput>,
    private readonly obsDim: number,
    private readonly numActions: number,
    private readonly rng: Rng,
    /** Longest wait for the other producers before running a partial batch. */
    private readonly maxWaitMs = 2,
  ) {}

  act(obs: Float32Array, n: number): Promise<{ actions: Int32Array; logProbs: Float32Array }> {
    return new Promise((resolve, reject) => {
      this.pending.push({ obs, n, resolve, reject });
      if (this.pending.length >= this.producers) void this.flush();
      else if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.maxWaitMs);
    });
  }

  private async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      const rows = batch.reduce((s, p) => s + p.n, 0);
      const obs = new Float32Array(rows * this.obsDim);
      let r = 0;
      for (const p of batch) {
        obs.set(p.obs, r * this.obsDim);
        r += p.n;
      }
      this.forwardCalls += 1;
      const probsT = tf.tidy(() => tf.softmax((this.model.forward(tf.tensor2d(obs, [rows, this.obsDim])) as { logits: tf.Tensor2D }).logits));
      // One readback per batched step for every waiting actor, never one per environment.
      const probs = (await probsT.data()) as Float32Array;
      probsT.dispose();
      const actions = categoricalRows(probs, rows, this.rng);
      r = 0;
      for (const p of batch) {
        const a = actions.slice(r, r + p.n);
        const lp = new Float32Array(p.n);
        for (let i = 0; i < p.n; i++) lp[i] = log(Math.max(probs[(r + i) * this.numActions + a[i]], 1e-12)); // portable: the same bits in every engine
        p.resolve({ actions: a, logProbs: lp });
        r += p.n;
      }
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

export interface EnvStepper {
  resetVector(): Promise<Float32Array>;
  stepVector(actions: Int32Array): Promise<VectorStepResult>;
}

/** Collect one segment of T steps from an env-only actor, with the learner choosing actions. */
export async function collectSegmentCentral(
  stepper: EnvStepper,
  server: InferenceServer,
  actorIndex: number,
  policyVersion: number,
  T: number,
  obsDim: number,
): Promise<Segment> {
  server.producers += 1;
  try {
    let obs = await stepper.resetVector();
    const n = obs.length / obsDim;
    const writer = new SegmentWriter(actorIndex, policyVersion, T, n, obsDim);
    for (let t = 0; t < T; t++) {
      const { actions, logProbs } = await server.act(obs, n);
      // The actions are transferred to the actor (detached here): send a copy, keep ours.
      const step = await stepper.stepVector(actions.slice());
      writer.write(t, obs, actions, logProbs, step);
      obs = step.obs;
    }
    return writer.finish(obs);
  } finally {
    server.producers -= 1;
  }
}
