/**
 * A stack of dense layers run by the SIMD kernels (kernels.wat's `dense`, then `tanh`), for core/fastMlp.ts:
 * y = act(x·W + b) per layer in XNNPACK's summation order, so the same bits as tfjs-wasm and as
 * fastMlp's JS loops. The weights live in the kernels' memory (copied when they are set, not per
 * call), each layer's columns padded with zeros to a multiple of 4 so that every output row is
 * whole vectors; the padded outputs are computed and never read.
 *
 * Memory layout (bytes, every block 16-aligned): the layers' [W | b] blocks first, then the input
 * rows [capacity, inDim] and each layer's outputs [capacity, outP]; the activation blocks move when
 * the capacity grows, the weights do not.
 */
import { SimdKernels } from './kernels';

const roundUp4 = (n: number) => Math.ceil(n / 4) * 4;

export class SimdDenseStack {
  /** Outputs per layer rounded up to whole vectors. */
  private readonly outP: number[];
  /** Float offsets of each layer's W [dims[i], outP[i]] and b [outP[i]]. */
  private readonly wAt: number[] = [];
  private readonly bAt: number[] = [];
  private readonly weightFloats: number;
  /** Float offsets of the input rows and of each layer's outputs, for `capacity` rows. */
  private inAt = 0;
  private outAt: number[] = [];
  private capacity = 0;

  private constructor(
    private readonly kernels: SimdKernels,
    private readonly dims: readonly number[],
    private readonly activation: 'tanh' | 'relu',
  ) {
    this.outP = dims.slice(1).map(roundUp4);
    let at = 0;
    for (let i = 0; i + 1 < dims.length; i++) {
      this.wAt.push(at);
      at += dims[i] * this.outP[i];
      this.bAt.push(at);
      at += this.outP[i];
    }
    this.weightFloats = at;
    this.kernels.reserve(4 * at);
  }

  /** A stack for these layer sizes (dims[0] inputs … dims[L] outputs), or null while the kernels are not loaded. */
  static create(dims: readonly number[], activation: 'tanh' | 'relu'): SimdDenseStack | null {
    const kernels = SimdKernels.create();
    return kernels && new SimdDenseStack(kernels, dims, activation);
  }

  /** Copy layer i's kernel W [dims[i], dims[i+1]] (row-major) and bias into the kernels' memory. */
  setLayer(i: number, w: Float32Array, b: Float32Array): void {
    const heap = this.kernels.heap;
    const out = this.dims[i + 1];
    const outP = this.outP[i];
    for (let k = 0; k < this.dims[i]; k++) heap.set(w.subarray(k * out, (k + 1) * out), this.wAt[i] + k * outP);
    heap.set(b.subarray(0, out), this.bAt[i]);
  }

  /** The last layer's outputs [batch, dims[L]] for inputs [batch, dims[0]], written into `out`. */
  forward(x: Float32Array, batch: number, out: Float32Array): void {
    this.ensure(batch);
    const heap = this.kernels.heap;
    heap.set(x.subarray(0, batch * this.dims[0]), this.inAt);
    let from = this.inAt;
    let stride = this.dims[0];
    const last = this.outP.length - 1;
    for (let i = 0; i <= last; i++) {
      const to = this.outAt[i];
      const hidden = i < last;
      this.kernels.dense(4 * from, stride, 4 * this.wAt[i], 4 * this.bAt[i], 4 * to, batch, this.dims[i], this.outP[i], hidden && this.activation === 'relu');
      if (hidden && this.activation === 'tanh') this.kernels.tanh(4 * to, batch * this.outP[i]);
      from = to;
      stride = this.outP[i];
    }
    const n = this.dims[last + 1];
    if (stride === n) out.set(heap.subarray(from, from + batch * n));
    else for (let r = 0; r < batch; r++) out.set(heap.subarray(from + r * stride, from + r * stride + n), r * n);
  }

  private ensure(batch: number): void {
    if (batch <= this.capacity) return;
    this.capacity = Math.max(batch, 2 * this.capacity);
    let at = this.weightFloats;
    this.inAt = at;
    at += roundUp4(this.capacity * this.dims[0]);
    this.outAt = this.outP.map((p) => {
      const start = at;
      at += this.capacity * p;
      return start;
    });
    this.kernels.reserve(4 * at);
  }
}
