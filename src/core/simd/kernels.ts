/**
 * The hand-written wasm SIMD kernels (kernels.wat, committed assembled in kernelsWasm.ts), four
 * float32 lanes at a time and bit-identical to tfjs-wasm: tanh exactly as musl's tanhf (tfjs-wasm's
 * scalar C), a dense layer in XNNPACK's summation order, a matrix product in the order of
 * tfjs-wasm's plain loop for transposed operands, column sums in the order of its Sum, and an Adam
 * step in FusedAdam's order.
 *
 * The module is compiled once (`loadSimdKernels`, awaited when the wasm backend starts); each user
 * then instantiates it synchronously (`SimdKernels.create`) and gets its own memory, freed with it
 * (Chromium refuses synchronous work on a page's main thread only for modules over 4 KB; this one
 * is about 2 KB).
 * Where WebAssembly SIMD is missing, loading reports false and callers keep their scalar paths
 * (the same bits, slower).
 */
import { KERNELS_WASM_BASE64 } from './kernelsWasm';

/** What kernels.wat exports (see its header for the arguments). */
interface KernelExports {
  memory: WebAssembly.Memory;
  tanh(ptr: number, n: number): void;
  dense(x: number, xStride: number, w: number, b: number, y: number, rows: number, inDim: number, outP: number, relu: number): void;
  gemm(a: number, aRow: number, aK: number, b: number, c: number, m: number, k: number, nP: number): void;
  colsum(x: number, rows: number, colsP: number, y: number): void;
  adam(g: number, m: number, v: number, th: number, nP: number, useScale: number, scale: number, b1: number, c1: number, b2: number, c2: number, om1: number, om2: number, eps: number, negLr: number): void;
}

/** The instance's exports, checked to be kernels.wat's (their signatures are the module's, not TypeScript's). */
function kernelExports(e: WebAssembly.Exports): KernelExports {
  const { memory, tanh, dense, gemm, colsum, adam } = e;
  if (!(memory instanceof WebAssembly.Memory) || [tanh, dense, gemm, colsum, adam].some((fn) => typeof fn !== 'function')) {
    throw new Error('kernels.wasm does not export memory, tanh, dense, gemm, colsum and adam');
  }
  return {
    memory,
    tanh: tanh as KernelExports['tanh'],
    dense: dense as KernelExports['dense'],
    gemm: gemm as KernelExports['gemm'],
    colsum: colsum as KernelExports['colsum'],
    adam: adam as KernelExports['adam'],
  };
}

const PAGE_BYTES = 65536;

let compiled: WebAssembly.Module | null = null;
let loading: Promise<boolean> | null = null;

/** The module's bytes, decoded from the committed base64. */
export function kernelsWasmBytes(): Uint8Array<ArrayBuffer> {
  const text = atob(KERNELS_WASM_BASE64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Compile the module once; false (and never a throw) where WebAssembly SIMD is unavailable. */
export function loadSimdKernels(): Promise<boolean> {
  loading ??= (async () => {
    try {
      if (typeof WebAssembly === 'undefined') return false;
      const bytes = kernelsWasmBytes();
      if (!WebAssembly.validate(bytes)) return false;
      compiled = await WebAssembly.compile(bytes);
      return true;
    } catch {
      return false;
    }
  })();
  return loading;
}

/** Whether loadSimdKernels has compiled the module (SimdKernels.create then succeeds). */
export function simdKernelsLoaded(): boolean {
  return compiled !== null;
}

/** The float32 constants of one Adam step (see FusedAdam). */
export interface AdamConstants {
  b1: number;
  c1: number;
  b2: number;
  c2: number;
  om1: number;
  om2: number;
  eps: number;
  negLr: number;
}

/** One instance of the kernels with its own memory. */
export class SimdKernels {
  private view: Float32Array;

  private constructor(private readonly fns: KernelExports) {
    this.view = new Float32Array(fns.memory.buffer);
  }

  /** A new instance, or null while the module is not loaded (or cannot be). */
  static create(): SimdKernels | null {
    if (compiled === null) return null;
    return new SimdKernels(kernelExports(new WebAssembly.Instance(compiled).exports));
  }

  /** Make the memory hold at least `bytes` bytes (growing it detaches the old buffer: views come from `heap`). */
  reserve(bytes: number): void {
    const have = this.fns.memory.buffer.byteLength;
    if (bytes > have) this.fns.memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
  }

  /** The memory as float32s (a fresh view after the memory grew). */
  get heap(): Float32Array {
    if (this.view.buffer !== this.fns.memory.buffer) this.view = new Float32Array(this.fns.memory.buffer);
    return this.view;
  }

  /** tanh of n float32s at byte offset ptr, in place. */
  tanh(ptr: number, n: number): void {
    this.fns.tanh(ptr, n);
  }

  /** y = x·W + b, then relu if asked (kernels.wat's `dense`; byte offsets, outP a multiple of 4). */
  dense(x: number, xStride: number, w: number, b: number, y: number, rows: number, inDim: number, outP: number, relu: boolean): void {
    this.fns.dense(x, xStride, w, b, y, rows, inDim, outP, relu ? 1 : 0);
  }

  /** C = A·B (kernels.wat's `gemm`; byte offsets and byte strides of A, nP a multiple of 4). */
  gemm(a: number, aRow: number, aK: number, b: number, c: number, m: number, k: number, nP: number): void {
    this.fns.gemm(a, aRow, aK, b, c, m, k, nP);
  }

  /** y[j] = Σ_r x[r, j] in row order (kernels.wat's `colsum`; byte offsets, colsP a multiple of 4). */
  colsum(x: number, rows: number, colsP: number, y: number): void {
    this.fns.colsum(x, rows, colsP, y);
  }

  /** One Adam step in place (kernels.wat's `adam`; byte offsets, nP a multiple of 4; scale null = none). */
  adam(g: number, m: number, v: number, th: number, nP: number, scale: number | null, c: AdamConstants): void {
    this.fns.adam(g, m, v, th, nP, scale === null ? 0 : 1, scale ?? 1, c.b1, c.c1, c.b2, c.c2, c.om1, c.om2, c.eps, c.negLr);
  }
}
