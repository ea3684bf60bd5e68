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
 * Float32 scalar constants kept across steps, so that a hot loop does not upload the same number
 * every time it writes `tf.mul(0.5, x)`. `tf.mul(c.get(0.5), x)` is bit-identical to
 * `tf.mul(0.5, x)`: tfjs turns a JS number into the same float32 scalar. The tensors outlive every
 * tf.tidy; free them with `dispose()`.
 */
export class ScalarCache {
  private readonly byValue = new Map<string, tf.Scalar>();

  get(x: number): tf.Scalar {
    const key = Object.is(x, -0) ? '-0' : String(x);
    let t = this.byValue.get(key);
    if (!t) {
      t = tf.keep(tf.scalar(x, 'float32'));
      this.byValue.set(key, t);
    }
    return t;
  }

  /** Number of constants held. */
  get size(): number {
    return this.byValue.size;
  }

  dispose(): void {
    for (const t of this.byValue.values()) t.dispose();
    this.byValue.clear();
  }
}

/** A source of scalar constants: a ScalarCache's `get`, or a fresh tensor each call. */
export type ScalarSource = (x: number) => tf.Scalar;
const freshScalar: ScalarSource = (x) => tf.scalar(x, 'float32');

/** ‖g‖₂ = √(Σ_k Σ_i g_{k,i}²) over the gradients in the given order (call inside tf.tidy). */
export function globalNorm(grads: readonly tf.Tensor[]): tf.Scalar {
  return tf.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g))))) as tf.Scalar;
}

/**
 * The factor of global-norm clipping, min(1, maxNorm / (‖g‖₂ + 1e-6)), or null when there is no
 * clipping (maxNorm null or not finite). Call inside tf.tidy.
 */
export function clipScale(norm: tf.Scalar, maxNorm: number | null, c: ScalarSource = freshScalar): tf.Scalar | null {
  if (maxNorm === null || !Number.isFinite(maxNorm)) return null;
  return tf.minimum(c(1), tf.div(c(maxNorm), tf.add(norm, c(1e-6))));
}

/**
 * Global-norm gradient clipping (as torch.nn.utils.clip_grad_norm_): if ‖g‖₂ > maxNorm, every
 * gradient is scaled by maxNorm / ‖g‖₂. Returns the clipped gradients and the norm BEFORE
 * clipping. Call inside tf.tidy.
 */
export function clipByGlobalNorm(
  grads: Record<string, tf.Tensor>,
  maxNorm: number | null,
  c: ScalarSource = freshScalar,
): { grads: Record<string, tf.Tensor>; norm: tf.Scalar } {
  const keys = Object.keys(grads);
  const norm = globalNorm(keys.map((k) => grads[k]));
  const scale = clipScale(norm, maxNorm, c);
  if (!scale) return { grads, norm };
  const clipped: Record<string, tf.Tensor> = {};
  for (const k of keys) clipped[k] = tf.mul(grads[k], scale);
  return { grads: clipped, norm };
}
