/**
 * tfjs-wasm's transposed matrix products, made fast without changing a single bit.
 *
 * tfjs-wasm computes C = op(A)·op(B) with XNNPACK only when neither operand is transposed. Every
 * gradient of a dense layer asks for a transposed one (∂L/∂W = Xᵀ·dY, ∂L/∂X = dY·Wᵀ), and those go
 * to a plain blocked loop (tfjs-backend-wasm batch_mat_mul_impl.cc, `slow_batch_matmul`), 10–13×
 * slower than XNNPACK for the 256×64·64×64 products of a PPO minibatch.
 *
 * That loop's arithmetic, for each output element, is
 *     C[i,j] = (((0 + s_1) + s_2) + … ) + s_J,      s_b = Σ_{k in block b} A[i,k]·B[k,j]
 * with the shared dimension cut into blocks of 48 and each s_b summed from 0 in k order. XNNPACK
 * also sums each output from 0 in k order (the f32 GEMM micro-kernels accumulate one k at a time
 * into an accumulator that starts at the zero bias). So the same numbers come from: copy each
 * 48-wide block of op(A) and op(B) into plain row-major buffers, multiply them with XNNPACK, and
 * add the block products in block order in float32. The test (tests/unit/core/blockedMatMul.test.ts)
 * compares every bit against the plain loop.
 *
 * Faster still, where WebAssembly SIMD is available: the loop itself, four columns at a time, in
 * the hand-written kernel module (simd/kernels.wat, `gemm`), which reads a transposed operand
 * through strides instead of copying it and adds the blocks in the same order, from +0, as the
 * plain loop does. Otherwise the XNNPACK block route below, where its estimate says it is cheaper.
 *
 * Only rank-2 products (a batch of one) are rerouted; the rest go to tfjs's own kernel. Every route
 * gives the same bits, so the choice never changes a result.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { SimdKernels, simdKernelsLoaded } from './simd/kernels';
import { overrideWasmKernel } from './wasmKernelOverride';

/** The shared-dimension block of tfjs-wasm's plain loop (kBlockSize in batch_mat_mul_impl.cc). */
export const WASM_MATMUL_BLOCK = 48;

/**
 * Whether the block route is expected to be faster. Measured in Node on 2 cores (tfjs 4.22): the
 * plain loop costs 0.8–3 ns per multiply-add; a block costs two copies, an XNNPACK call that packs
 * its right operand, and an add, about 30–60 µs for 64×48·48×64. One block is a win from a few
 * thousand multiply-adds; several pay off when each carries enough work.
 */
export function blockedIsFaster(m: number, k: number, n: number): boolean {
  const macs = m * k * n;
  const blocks = Math.ceil(k / WASM_MATMUL_BLOCK);
  return blocks === 1 ? macs >= 8_192 : macs / blocks >= 65_536;
}

type WasmInfo = tf.TensorInfo;

let installed = false;

/** How many products took the block route and the SIMD route (tests check that a route is really taken). */
export const blockedMatMulStats = { products: 0, simd: 0 };

let simd: SimdKernels | null = null;

/**
 * Route tfjs-wasm's transposed rank-2 BatchMatMul through XNNPACK in exact blocks. Idempotent;
 * call it once the wasm backend is active (false when it is not registered here).
 */
export function installBlockedTransposedMatMul(): boolean {
  if (installed) return true;
  const original = overrideWasmKernel('BatchMatMul', (plain) => (args) => {
    const { a, b } = args.inputs;
    const transposeA = args.attrs?.transposeA === true;
    const transposeB = args.attrs?.transposeB === true;
    if (!a || !b || (!transposeA && !transposeB) || a.shape.length !== 2 || b.shape.length !== 2 || a.dtype !== 'float32' || b.dtype !== 'float32') {
      return plain(args);
    }
    const m = transposeA ? a.shape[1] : a.shape[0];
    const k = transposeA ? a.shape[0] : a.shape[1];
    const n = transposeB ? b.shape[0] : b.shape[1];
    const kB = transposeB ? b.shape[1] : b.shape[0];
    if (k !== kB || m === 0 || n === 0 || k === 0) return plain(args);
    // The kernel API hands every kernel its backend as a KernelBackend; this one is registered for wasm only.
    const backend = args.backend as BackendWasm;
    if (simd === null && simdKernelsLoaded()) simd = SimdKernels.create();
    if (simd !== null) {
      blockedMatMulStats.simd++;
      return simdProduct(simd, backend, a, b, transposeA, transposeB, m, k, n);
    }
    if (!blockedIsFaster(m, k, n)) return plain(args);
    blockedMatMulStats.products++;
    return blockedProduct(backend, plain, a, b, transposeA, transposeB, m, k, n);
  });
  installed = original !== null;
  return installed;
}

/**
 * op(A)·op(B) by kernels.wat's `gemm`: A copied as it is stored (a transposed A is read through its
 * strides), B copied row-major as op(B) [k, nP] with the columns padded to a multiple of 4 by zeros
 * (those lanes are dropped), C [m, nP] copied out.
 */
function simdProduct(kernels: SimdKernels, backend: BackendWasm, a: WasmInfo, b: WasmInfo, transposeA: boolean, transposeB: boolean, m: number, k: number, n: number): WasmInfo {
  const nP = (n + 3) & ~3;
  const bAt = m * k;
  const cAt = bAt + k * nP;
  kernels.reserve(4 * (cAt + m * nP));
  const heap = kernels.heap;
  const aVals = backend.typedArrayFromHeap(a) as Float32Array;
  const bVals = backend.typedArrayFromHeap(b) as Float32Array;
  heap.set(aVals.subarray(0, m * k), 0);
  if (!transposeB && n === nP) {
    heap.set(bVals.subarray(0, k * n), bAt);
  } else {
    for (let t = 0; t < k; t++) {
      const row = bAt + t * nP;
      if (transposeB) {
        for (let j = 0; j < n; j++) heap[row + j] = bVals[j * k + t];
      } else {
        heap.set(bVals.subarray(t * n, t * n + n), row);
      }
      for (let j = n; j < nP; j++) heap[row + j] = 0;
    }
  }
  // A stored [m, k] (row stride k, element stride 1) or, transposed, [k, m] (1 and m), in bytes.
  kernels.gemm(0, transposeA ? 4 : 4 * k, transposeA ? 4 * m : 4, 4 * bAt, 4 * cAt, m, k, nP);
  const out = backend.makeOutput([m, n], 'float32');
  const dst = backend.typedArrayFromHeap(out) as Float32Array;
  if (n === nP) {
    dst.set(heap.subarray(cAt, cAt + m * n));
  } else {
    for (let i = 0; i < m; i++) dst.set(heap.subarray(cAt + i * nP, cAt + i * nP + n), i * n);
  }
  return out;
}

function blockedProduct(
  backend: BackendWasm,
  plain: tf.KernelFunc,
  a: WasmInfo,
  b: WasmInfo,
  transposeA: boolean,
  transposeB: boolean,
  m: number,
  k: number,
  n: number,
): WasmInfo {
  let out: WasmInfo | null = null;
  for (let k0 = 0; k0 < k; k0 += WASM_MATMUL_BLOCK) {
    const w = Math.min(WASM_MATMUL_BLOCK, k - k0);
    const aBlock = backend.makeOutput([m, w], 'float32');
    const bBlock = backend.makeOutput([w, n], 'float32');
    // Views of the wasm heap are taken after the last allocation: growing the heap detaches older ones.
    const aVals = backend.typedArrayFromHeap(a) as Float32Array;
    const bVals = backend.typedArrayFromHeap(b) as Float32Array;
    const aDst = backend.typedArrayFromHeap(aBlock) as Float32Array;
    const bDst = backend.typedArrayFromHeap(bBlock) as Float32Array;
    copyBlock(aVals, aDst, transposeA, m, k, k0, w, true);
    copyBlock(bVals, bDst, transposeB, n, k, k0, w, false);
    const product = plain({ inputs: { a: aBlock, b: bBlock }, backend, attrs: { transposeA: false, transposeB: false } });
    backend.disposeData(aBlock.dataId);
    backend.disposeData(bBlock.dataId);
    if (Array.isArray(product)) throw new Error('BatchMatMul returned several outputs');
    if (out === null) {
      out = product;
      continue;
    }
    const acc = backend.typedArrayFromHeap(out) as Float32Array;
    const add = backend.typedArrayFromHeap(product) as Float32Array;
    // Float32Array stores round each double sum to float32: exactly the float32 sum.
    for (let e = 0; e < acc.length; e++) acc[e] = acc[e] + add[e];
    backend.disposeData(product.dataId);
  }
  if (out === null) throw new Error('blocked product with an empty shared dimension');
  return { dataId: out.dataId, shape: [m, n], dtype: 'float32' };
}

/**
 * Copy the shared-dimension block [k0, k0 + w) of op(X) into a dense row-major buffer: [rows, w]
 * for a left operand, [w, rows] for a right one, where `rows` is op(X)'s other dimension and X is
 * stored [rows, k] or, transposed, [k, rows]. Each loop walks its source row by row.
 */
function copyBlock(src: Float32Array, dst: Float32Array, transposed: boolean, rows: number, k: number, k0: number, w: number, left: boolean): void {
  if (left !== transposed) {
    // Left, not transposed ([rows, k]: each row's block is contiguous), or right, transposed ([rows, k] read as [k, rows]).
    if (left) {
      for (let i = 0; i < rows; i++) dst.set(src.subarray(i * k + k0, i * k + k0 + w), i * w);
    } else {
      for (let j = 0; j < rows; j++) {
        const from = j * k + k0;
        for (let t = 0; t < w; t++) dst[t * rows + j] = src[from + t];
      }
    }
    return;
  }
  // Left, transposed ([k, rows]: op(X)[i, k0 + t] = X[k0 + t, i]), or right, not transposed ([k, rows]: rows k0.. are contiguous).
  if (left) {
    for (let t = 0; t < w; t++) {
      const from = (k0 + t) * rows;
      for (let i = 0; i < rows; i++) dst[i * w + t] = src[from + i];
    }
  } else {
    dst.set(src.subarray(k0 * rows, (k0 + w) * rows));
  }
}
