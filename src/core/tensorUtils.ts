/**
 * Small tensor helpers shared by the core and the algorithms.
 */
import * as tf from '@tensorflow/tfjs';

/** Check that a flat array holds `batch` rows and return the row width. */
export function rowWidth(data: ArrayLike<number>, batch: number, what = 'obs'): number {
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`${what}: batch must be a positive integer, got ${batch}`);
  if (data.length % batch !== 0 || data.length === 0) {
    throw new Error(`${what}: length ${data.length} is not a positive multiple of batch ${batch}`);
  }
  return data.length / batch;
}

/** A [batch, width] float32 tensor from a flat row-major array (copied, so the input may be transferred later). */
export function toTensor2d(data: Float32Array, batch: number, what = 'obs'): tf.Tensor2D {
  const width = rowWidth(data, batch, what);
  return tf.tensor2d(data.slice(), [batch, width], 'float32');
}

/**
 * Read a record of scalar tensors back as numbers with ONE readback (tf.stack + dataSync),
 * then dispose the scalars. Use it to return `learn()` metrics.
 */
export function readScalars(scalars: Record<string, tf.Scalar>): Record<string, number> {
  const keys = Object.keys(scalars);
  if (keys.length === 0) return {};
  const stacked = tf.tidy(() => tf.stack(keys.map((k) => scalars[k])));
  const values = stacked.dataSync();
  stacked.dispose();
  for (const k of keys) scalars[k].dispose();
  const out: Record<string, number> = {};
  keys.forEach((k, i) => (out[k] = values[i]));
  return out;
}

/**
 * Global-norm gradient clipping (as torch.nn.utils.clip_grad_norm_): if ‖g‖₂ > maxNorm, every
 * gradient is scaled by maxNorm / ‖g‖₂. Returns the clipped gradients and the norm BEFORE
 * clipping. Call inside tf.tidy.
 */
export function clipByGlobalNorm(
  grads: Record<string, tf.Tensor>,
  maxNorm: number | null,
): { grads: Record<string, tf.Tensor>; norm: tf.Scalar } {
  const keys = Object.keys(grads);
  const norm = tf.sqrt(tf.addN(keys.map((k) => tf.sum(tf.square(grads[k]))))) as tf.Scalar;
  if (maxNorm === null || !Number.isFinite(maxNorm)) return { grads, norm };
  const scale = tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6)));
  const clipped: Record<string, tf.Tensor> = {};
  for (const k of keys) clipped[k] = tf.mul(grads[k], scale);
  return { grads: clipped, norm };
}
