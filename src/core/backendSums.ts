/**
 * Sums as the cpu and wasm backends' own kernels compute them, for code that repeats a tfjs graph on
 * typed arrays and must give its bits (ppoFusedLoss.ts, FusedAdam's typed-array step).
 *
 *   wasm (tfjs-backend-wasm Sum.cc, Mean.cc, AddN.cc): float32 accumulation from +0 in index
 *         order; Mean divides that sum by n in float32.
 *   cpu  (tfjs-backend-cpu Sum, Mean): the sum in double, rounded to float32 once at the end; Mean
 *         is the Sum of f(x_i / n). AddN accumulates in a Float32Array, so in float32, as wasm does.
 *
 * Element-wise steps need nothing of this: a float32 + − × ÷ or √ is f(a op b) with f = Math.fround
 * on every backend (double rounding of these is innocuous).
 */
import * as tf from '@tensorflow/tfjs';

const f = Math.fround;

export interface BackendSums {
  /** Σ of the n values x[start], x[start + 1], … (the Sum kernel over one row). */
  sum(x: Float32Array, start: number, n: number): number;
  /** Σ_i x_i² (Sum of Square). */
  sumOfSquares(x: Float32Array): number;
  /** The mean of all values (the Mean kernel). */
  mean(x: Float32Array): number;
}

const wasmSums: BackendSums = {
  sum(x, start, n) {
    let s = 0;
    for (let i = start; i < start + n; i++) s = f(s + x[i]);
    return s;
  },
  sumOfSquares(x) {
    let s = 0;
    for (let i = 0; i < x.length; i++) s = f(s + f(x[i] * x[i]));
    return s;
  },
  mean(x) {
    let s = 0;
    for (let i = 0; i < x.length; i++) s = f(s + x[i]);
    return f(s / x.length);
  },
};

const cpuSums: BackendSums = {
  sum(x, start, n) {
    let s = 0;
    for (let i = start; i < start + n; i++) s += x[i];
    return f(s);
  },
  sumOfSquares(x) {
    let s = 0;
    for (let i = 0; i < x.length; i++) s += f(x[i] * x[i]);
    return f(s);
  },
  mean(x) {
    let s = 0;
    const n = x.length;
    for (let i = 0; i < n; i++) s += f(x[i] / n);
    return f(s);
  },
};

/**
 * Whether code with a typed-array path takes it where it can. Tests turn it off to run, on cpu or
 * wasm, the tensor path that the GPU backends take (e.g. to count its readbacks).
 */
export const typedArrayPath = { enabled: true };

/** True on the backends whose sums this file repeats (and while typedArrayPath.enabled). */
export function typedArrayPathSupported(): boolean {
  const b = tf.getBackend();
  return typedArrayPath.enabled && (b === 'cpu' || b === 'wasm');
}

/** The sums of the current backend (cpu or wasm; anything else is an error). */
export function backendSums(): BackendSums {
  const b = tf.getBackend();
  if (b === 'wasm') return wasmSums;
  if (b === 'cpu') return cpuSums;
  throw new Error(`backendSums: the ${b} backend's kernels are not repeated here (use tensors)`);
}
