/**
 * Replace one of tfjs-wasm's kernels with a faster one that gives the same bits, keeping tfjs's own
 * as the fallback the replacement calls where it does not apply (blockedMatMul.ts, sharedIdentity.ts,
 * simd/tanhKernel.ts, simd/columnSumKernel.ts).
 */
import * as tf from '@tensorflow/tfjs';

/**
 * Register `wrap(tfjs's kernelFunc)` as the wasm backend's kernel `name`. Returns the kernel it
 * replaced, or null (and changes nothing) when the wasm backend has no such kernel here.
 */
export function overrideWasmKernel(name: string, wrap: (plain: tf.KernelFunc) => tf.KernelFunc): tf.KernelConfig | null {
  const original = tf.getKernel(name, 'wasm');
  if (!original) return null;
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({ ...original, kernelFunc: wrap(original.kernelFunc) });
  return original;
}
