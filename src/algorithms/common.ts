/**
 * Small pieces shared by the actor-critic algorithms (A2C, PPO, IMPALA): the categorical policy's
 * log-probabilities and entropy, the on-policy batch and its advantages, optimizer choice, and
 * explained variance. Each is a few lines; the algorithm files stay readable from top to bottom.
 */
import * as tf from '@tensorflow/tfjs';
import type { Model } from '../core/model';
import { gae } from './gae';

/** A model with a policy head and a value head (e.g. ActorCriticMlp). */
export type ActorCriticModel = Model<{ logits: tf.Tensor2D; value: tf.Tensor1D }>;

/**
 * Categorical policy π(·|s) = softmax(logits) (call inside tf.tidy):
 *     logp    = log π(·|s)                 [B, A]
 *     logpA   = log π(a|s)                 [B]
 *     entropy = H(π(·|s)) = −Σ_a π log π   [B]
 */
export function categorical(logits: tf.Tensor2D, actions: tf.Tensor1D): { logp: tf.Tensor2D; logpA: tf.Tensor1D; entropy: tf.Tensor1D } {
  const logp = tf.logSoftmax(logits);
  const logpA = tf.sum(tf.mul(logp, tf.oneHot(actions, logits.shape[1])), 1) as tf.Tensor1D;
  const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1)) as tf.Tensor1D;
  return { logp, logpA, entropy };
}

/**
 * An on-policy batch of B = T·N transitions (A2C, PPO). Row b of every field is the same
 * transition; when advantages are computed here the rows are TIME-MAJOR (b = t·N + n, see gae.ts).
 *
 * Give EITHER `advantages` + `returns` (already computed), OR the rollout for GAE:
 * `rewards`, `dones`, `values`, `lastValues` (+ `numEnvs`, optionally `truncated` + `bootstrapValues`).
 */
export interface OnPolicyBatch {
  /** [B · obsDim] observations, row-major. */
  obs: Float32Array;
  /** [B] actions taken. */
  actions: Int32Array;
  /** B. */
  batchSize: number;
  /** [B] advantages A_t (precomputed). */
  advantages?: Float32Array;
  /** [B] value targets R_t (precomputed). */
  returns?: Float32Array;
  /** [B] r_t, time-major. */
  rewards?: Float32Array;
  /** [B] 1 where the episode terminated at step t, time-major. */
  dones?: Uint8Array;
  /** [B] V(s_t) recorded when acting, time-major. */
  values?: Float32Array;
  /** [N] V(s_T) of the observation after the last step. */
  lastValues?: Float32Array;
  /** N, the number of environments (default lastValues.length). */
  numEnvs?: number;
  /** [B] 1 where the episode was truncated (time limit) at step t. */
  truncated?: Uint8Array;
  /** [B] V(real final obs) where truncated = 1. */
  bootstrapValues?: Float32Array;
}

/** The batch's advantages and returns: as given, or by GAE(γ, λ) from the rollout fields. */
export function resolveAdvantages(batch: OnPolicyBatch, gamma: number, lambda: number, who: string): { advantages: Float32Array; returns: Float32Array } {
  const B = batch.batchSize;
  let out: { advantages: Float32Array; returns: Float32Array };
  if (batch.advantages && batch.returns) {
    out = { advantages: batch.advantages, returns: batch.returns };
  } else if (batch.rewards && batch.dones && batch.values && batch.lastValues) {
    out = gae(batch.rewards, batch.values, batch.dones, batch.lastValues, gamma, lambda, batch.numEnvs ?? batch.lastValues.length, {
      truncated: batch.truncated,
      bootstrapValues: batch.bootstrapValues,
    });
  } else {
    throw new Error(`${who}: the batch needs \`advantages\` and \`returns\`, or \`rewards\`, \`dones\`, \`values\` and \`lastValues\``);
  }
  if (out.advantages.length !== B || out.returns.length !== B) {
    throw new Error(`${who}: ${out.advantages.length} advantages / ${out.returns.length} returns for batchSize ${B}`);
  }
  return out;
}

/** Check the obs / actions sizes of a batch; returns obsDim. */
export function checkObsActions(obs: Float32Array, actions: Int32Array, batchSize: number, who: string): number {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`${who}: batchSize must be a positive integer, got ${batchSize}`);
  if (obs.length === 0 || obs.length % batchSize !== 0) throw new Error(`${who}: obs length ${obs.length} is not a positive multiple of batchSize ${batchSize}`);
  if (actions.length !== batchSize) throw new Error(`${who}: ${actions.length} actions for batchSize ${batchSize}`);
  return obs.length / batchSize;
}

export type OptimizerKind = 'adam' | 'rmsprop';

/**
 * Adam (torch defaults β = 0.9, 0.999) or RMSprop (momentum 0). Note tfjs's RMSprop adds ε
 * INSIDE the square root (TensorFlow style), torch's outside; with ε = 1e-5 the two differ only
 * where E[g²] is tiny.
 */
export function makeOptimizer(kind: OptimizerKind, lr: number, eps: number, rmspropDecay = 0.99): tf.Optimizer {
  if (kind === 'adam') return tf.train.adam(lr, 0.9, 0.999, eps);
  if (kind === 'rmsprop') return tf.train.rmsprop(lr, rmspropDecay, 0, eps, false);
  throw new Error(`unknown optimizer ${JSON.stringify(kind)}: use 'adam' or 'rmsprop'`);
}

/** Explained variance 1 − Var(R − V) / Var(R) (1 = perfect value function, ≤ 0 = useless); NaN if Var(R) = 0. */
export function explainedVariance(values: ArrayLike<number>, returns: ArrayLike<number>): number {
  const n = returns.length;
  let mr = 0;
  let md = 0;
  for (let i = 0; i < n; i++) {
    mr += returns[i];
    md += returns[i] - values[i];
  }
  mr /= n;
  md /= n;
  let vr = 0;
  let vd = 0;
  for (let i = 0; i < n; i++) {
    vr += (returns[i] - mr) ** 2;
    vd += (returns[i] - values[i] - md) ** 2;
  }
  return vr === 0 ? NaN : 1 - vd / vr;
}
