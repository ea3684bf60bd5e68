/**
 * tfjs-wasm's Sum over the first axis of a matrix (the bias gradient of every dense layer) through
 * the SIMD kernel (kernels.wat, `colsum`): the same bits as tfjs's own kernel, which transposes the
 * matrix and then sums each row of the transpose from +0 in order, i.e. each column in row order,
 * as `colsum` does four columns at a time without the transpose. Other sums keep tfjs's kernel.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { SimdKernels, loadSimdKernels } from './kernels';
import { overrideWasmKernel } from '../wasmKernelOverride';

/** How many sums took the SIMD route (tests check that the route is really taken). */
export const simdColumnSumStats = { calls: 0 };

let installed = false;

/** True for a Sum this kernel takes: float32 [rows, cols] over axis 0 only, cols a multiple of 4. */
function routed(x: tf.TensorInfo, axis: unknown): boolean {
  if (x.dtype !== 'float32' || x.shape.length !== 2 || x.shape[0] === 0 || x.shape[1] % 4 !== 0 || x.shape[1] === 0) return false;
  const axes = Array.isArray(axis) ? axis : [axis];
  return axes.length === 1 && (axes[0] === 0 || axes[0] === -2);
}

/**
 * Route tfjs-wasm's first-axis matrix sums through the SIMD kernel. Idempotent; resolves false
 * (leaving tfjs's kernel in place) when the wasm backend is not registered or WebAssembly SIMD is
 * unavailable. Never throws.
 */
export async function installSimdColumnSum(): Promise<boolean> {
  if (installed) return true;
  if (!(await loadSimdKernels())) return false;
  const kernels = SimdKernels.create();
  if (!kernels || installed) return installed;
  const original = overrideWasmKernel('Sum', (plain) => (args) => {
    const { x } = args.inputs;
    if (!x || !routed(x, args.attrs?.axis)) return plain(args);
    // The kernel API hands every kernel its backend as a KernelBackend; this one is registered for wasm only.
    const backend = args.backend as BackendWasm;
    const [rows, cols] = x.shape;
    const out = backend.makeOutput(args.attrs?.keepDims === true ? [1, cols] : [cols], 'float32');
    // Views of tfjs's heap are taken after its last allocation (makeOutput may grow it).
    const src = backend.typedArrayFromHeap(x) as Float32Array;
    const dst = backend.typedArrayFromHeap(out) as Float32Array;
    kernels.reserve(4 * (rows * cols + cols));
    const heap = kernels.heap;
    heap.set(src.subarray(0, rows * cols));
    kernels.colsum(0, rows, cols, 4 * rows * cols);
    dst.set(heap.subarray(rows * cols, rows * cols + cols));
    simdColumnSumStats.calls++;
    return out;
  });
  installed = original !== null;
  return installed;
}
