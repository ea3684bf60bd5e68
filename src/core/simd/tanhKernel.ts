/**
 * tfjs-wasm's Tanh through the SIMD kernel (kernels.wat): the same bits as tfjs's own kernel (the
 * wasm build's scalar C `tanhf`, musl), four lanes at a time. The input is copied into the
 * kernels' own memory, transformed in place and copied into the output tensor; the copies cost a
 * small fraction of the scalar tanhf they replace.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { SimdKernels, loadSimdKernels } from './kernels';
import { overrideWasmKernel } from '../wasmKernelOverride';

/** How many Tanh calls took the SIMD route (tests check that the route is really taken). */
export const simdTanhStats = { calls: 0 };

let original: tf.KernelConfig | null = null;
let installed = false;

/** tfjs-wasm's own Tanh kernel, as it was before installSimdTanh replaced it (null before). */
export function originalTanhKernel(): tf.KernelFunc | null {
  return original?.kernelFunc ?? null;
}

/**
 * Route tfjs-wasm's Tanh through the SIMD kernel. Idempotent; resolves false (leaving tfjs's kernel
 * in place) when the wasm backend is not registered or WebAssembly SIMD is unavailable. Never throws.
 */
export async function installSimdTanh(): Promise<boolean> {
  if (installed) return true;
  if (!(await loadSimdKernels())) return false;
  const kernels = SimdKernels.create();
  if (!kernels || installed) return installed;
  const replaced = overrideWasmKernel('Tanh', (plain) => (args) => {
    const { x } = args.inputs;
    if (!x || x.dtype !== 'float32') return plain(args);
    // The kernel API hands every kernel its backend as a KernelBackend; this one is registered for wasm only.
    const backend = args.backend as BackendWasm;
    const out = backend.makeOutput(x.shape, 'float32');
    const n = x.shape.reduce((a, d) => a * d, 1);
    if (n === 0) return out;
    // Views of tfjs's heap are taken after its last allocation (makeOutput may grow it).
    const src = backend.typedArrayFromHeap(x) as Float32Array;
    const dst = backend.typedArrayFromHeap(out) as Float32Array;
    kernels.reserve(4 * n);
    const heap = kernels.heap;
    heap.set(src.subarray(0, n));
    kernels.tanh(0, n);
    dst.set(heap.subarray(0, n));
    simdTanhStats.calls++;
    return out;
  });
  original ??= replaced;
  installed = replaced !== null;
  return installed;
}

/** Put tfjs's own Tanh back (for measurements that compare the two). */
export function uninstallSimdTanh(): void {
  if (!installed || !original) return;
  tf.unregisterKernel('Tanh', 'wasm');
  tf.registerKernel(original);
  installed = false;
}
