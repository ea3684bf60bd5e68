/**
 * A plain typed-array forward pass of the acting head of the MLPs in mlp.ts (PolicyMlp's and
 * ActorCriticMlp's policy stack, QMlp's Q stack), for actors: no gradients are needed there, and
 * for the small networks of this playground tfjs's per-call overhead (tensor creation, kernel
 * dispatch, readback) costs far more than the arithmetic.
 *
 * The arithmetic is that of tfjs's wasm backend, BIT FOR BIT, so an actor samples the same actions
 * for the same seed whichever path it uses (tests/unit/core/fastMlp.test.ts checks it):
 *   - y = x·W + b: XNNPACK's fully-connected kernel accumulates each output in float32 in input
 *     order, acc ← fl(acc + fl(x_k · W_kj)) from acc = 0, then tfjs adds the bias, fl(acc + b_j);
 *   - tanh: the wasm build's C `tanhf` (musl, via `expm1f`), ported below with every operation
 *     rounded to float32 (Math.fround);
 *   - relu: max(x, 0);
 *   - softmax (XNNPACK): m = max_a z_a, e_a = exp(z_a − m) by XNNPACK's "rr2_p5" polynomial,
 *     s = Σ e_a summed as its wasm-SIMD kernel does (four lanes over blocks of four, lanes
 *     (0 + 2) + (1 + 3), then the remainder one by one), p_a = fl(e_a · fl(1 / s)).
 * On other backends (cpu) tfjs sums and exponentiates differently: use this only where the tfjs
 * path it replaces is wasm (see RolloutActor.init).
 *
 * Once the wasm SIMD kernels are loaded (core/simd/kernels.ts: when the wasm backend starts), the
 * dense layers and tanh run there, four outputs at a time in the same order (simd/denseStack.ts);
 * the JS code below stays as the fallback and the reference. Softmax stays in JS.
 */
import type { MlpSpec } from './mlp';
import { simdKernelsLoaded } from './simd/kernels';
import { SimdDenseStack } from './simd/denseStack';

const f = Math.fround;

// Bit casts between float32 and its IEEE-754 pattern.
const castBuf = new ArrayBuffer(4);
const castF = new Float32Array(castBuf);
const castU = new Uint32Array(castBuf);
function bitsOf(x: number): number {
  castF[0] = x;
  return castU[0];
}
function fromBits(u: number): number {
  castU[0] = u >>> 0;
  return castF[0];
}

// musl's expm1f constants (FreeBSD s_expm1f.c): ln2 split in two, 1/ln2, and the rational
// approximation's coefficients on [−0.3457, 0.3457].
const LN2_HI = f(6.9313812256e-1);
const LN2_LO = f(9.0580006145e-6);
const INV_LN2 = f(1.4426950216);
const Q1 = f(-3.3333212137e-2);
const Q2 = f(1.5807170421e-3);
const TWO_127 = 2 ** 127;

/**
 * e^x − 1 in float32, exactly as musl's expm1f: x = k·ln2 + r (hi − lo), then a rational
 * approximation of e^r − 1 on |r| ≤ ln2/2, scaled by 2^k.
 */
export function expm1F32(x: number): number {
  // musl tests the bit pattern of |x| against float32 thresholds; comparing the values is the same.
  const ax = Math.abs(x);
  const neg = x < 0;
  if (ax >= 18.71497344970703) {
    // |x| ≥ 27·ln2: the result is −1, or overflows
    if (neg) return -1;
    if (ax > 88.72283172607422) return f(x * TWO_127);
  }
  if (!(ax >= 2 ** -25)) return x; // tiny, ±0 or NaN
  let k: number;
  let c = 0;
  if (ax > 0.3465735912322998) {
    // |x| > ln2/2: reduce
    let hi: number;
    let lo: number;
    if (ax < 1.0397207736968994) {
      hi = neg ? f(x + LN2_HI) : f(x - LN2_HI);
      lo = neg ? -LN2_LO : LN2_LO;
      k = neg ? -1 : 1;
    } else {
      k = Math.trunc(f(f(INV_LN2 * x) + (neg ? -0.5 : 0.5)));
      hi = f(x - f(k * LN2_HI));
      lo = f(k * LN2_LO);
    }
    x = f(hi - lo);
    c = f(f(hi - x) - lo);
  } else {
    k = 0;
  }
  const hfx = f(0.5 * x);
  const hxs = f(x * hfx);
  const r1 = f(1 + f(hxs * f(Q1 + f(hxs * Q2))));
  const t = f(3 - f(r1 * hfx));
  let e = f(hxs * f(f(r1 - t) / f(6 - f(x * t))));
  if (k === 0) return f(x - f(f(x * e) - hxs));
  e = f(f(x * f(e - c)) - c);
  e = f(e - hxs);
  if (k === -1) return f(f(0.5 * f(x - e)) - 0.5);
  if (k === 1) {
    if (x < -0.25) return f(-2 * f(e - f(x + 0.5)));
    return f(1 + f(2 * f(x - e)));
  }
  const twoPk = 2 ** k;
  if (k < 0 || k > 56) {
    let y = f(f(x - e) + 1);
    y = k === 128 ? f(f(y * 2) * TWO_127) : f(y * twoPk);
    return f(y - 1);
  }
  const twoMk = 2 ** -k;
  return k < 23 ? f(f(f(x - e) + f(1 - twoMk)) * twoPk) : f(f(f(x - f(e + twoMk)) + 1) * twoPk);
}

// tanhf's thresholds on |x|, as float32 values (musl compares their bit patterns: the same order).
const LN3_HALF = 0.5493061542510986; // 0x3f0c9f54 ≈ ln(3)/2
const LN53_HALF = 0.2554128170013428; // 0x3e82c578 ≈ ln(5/3)/2
const MIN_NORMAL = 2 ** -126; // 0x00800000

/** tanh in float32, exactly as musl's tanhf: tanh x = (e^{2x} − 1) / (e^{2x} + 1) through expm1f. */
export function tanhF32(x: number): number {
  const ax = Math.abs(x);
  let t: number;
  if (ax > LN3_HALF) {
    if (ax > 10) t = 1;
    else {
      const e = expm1F32(f(2 * ax));
      t = f(1 - f(2 / f(e + 2)));
    }
  } else if (ax > LN53_HALF) {
    const e = expm1F32(f(2 * ax));
    t = f(e / f(e + 2));
  } else if (ax >= MIN_NORMAL) {
    const e = expm1F32(f(-2 * ax));
    t = f(-e / f(e + 2));
  } else {
    return x; // subnormal, ±0 or NaN
  }
  return x < 0 ? -t : t;
}

// XNNPACK's exp(x − max) ("rr2_p5"): n = round(x·log2 e) by a magic-bias addition, s = 2^n from
// n's bits, t = x − n·ln2 (ln2 in two parts), e^t ≈ 1 + t·p(t) with a degree-5 polynomial.
const LOG2E = f(1.4426950216293335); // 0x1.715476p0
const MAGIC_BIAS = f(12583039); // 0x1.8000FEp23
const MINUS_LN2_HI = f(-0.693145751953125); // -0x1.62E400p-1
const MINUS_LN2_LO = f(-1.428606765330187e-6); // -0x1.7F7D1Cp-20
const C5 = f(0.008289290592074394); // 0x1.0F9F9Cp-7
const C4 = f(0.04189782217144966); // 0x1.573A1Ap-5
const C3 = f(0.16667652130126953); // 0x1.555A80p-3
const C2 = f(0.4999915063381195); // 0x1.FFFDC6p-2
const C1 = f(0.9999997019767761); // 0x1.FFFFF6p-1
const DENORM_CUTOFF = f(-87.33654022216797); // -0x1.5D589Ep6: below it e^x is flushed to 0

/** e^x for x ≤ 0 (x = z − max z), as XNNPACK's softmax computes it. */
export function expMinusMaxF32(x: number): number {
  let n = f(MAGIC_BIAS + f(x * LOG2E));
  const s = fromBits(bitsOf(n) << 23);
  n = f(n - MAGIC_BIAS);
  let t = f(x + f(n * MINUS_LN2_HI));
  t = f(t + f(n * MINUS_LN2_LO));
  let p = f(C4 + f(C5 * t));
  p = f(C3 + f(p * t));
  p = f(C2 + f(p * t));
  p = f(C1 + f(p * t));
  t = f(t * s);
  const e = f(s + f(t * p));
  return x < DENORM_CUTOFF ? 0 : e;
}

/** Softmax of each row of `logits` [batch, n] into `out` (may be the same array), as XNNPACK. */
export function softmaxRowsF32(logits: Float32Array, batch: number, n: number, out: Float32Array): Float32Array {
  const lanes = new Float32Array(4);
  for (let r = 0; r < batch; r++) {
    const o = r * n;
    let m = logits[o];
    for (let a = 1; a < n; a++) if (logits[o + a] > m) m = logits[o + a];
    for (let a = 0; a < n; a++) out[o + a] = expMinusMaxF32(f(logits[o + a] - m));
    // Σ e_a in the wasm-SIMD kernel's order: lane l sums elements 4i + l, then (l0 + l2) + (l1 + l3), then the rest in turn.
    lanes.fill(0);
    let a = 0;
    for (; a + 4 <= n; a += 4) for (let l = 0; l < 4; l++) lanes[l] += out[o + a + l];
    let s = f(f(lanes[0] + lanes[2]) + f(lanes[1] + lanes[3]));
    for (; a < n; a++) s = f(s + out[o + a]);
    const inv = f(1 / s);
    for (let b = 0; b < n; b++) out[o + b] = f(out[o + b] * inv);
  }
  return out;
}

/**
 * The acting head of an MLP (obsDim → hidden… → numActions): logits for 'policy' and
 * 'actorCritic' specs, Q-values for 'q'. Weights come from the model's `getWeights()` list (the
 * acting stack is always first: see mlp.ts); the critic of an actor-critic is not needed to act.
 */
export class FastMlp {
  readonly dims: readonly number[];
  private readonly kernels: Float32Array[];
  private readonly biases: Float32Array[];
  private readonly tanh: boolean;
  /** Scratch activations per layer output, grown to the largest batch seen. */
  private scratch: Float32Array[] = [];
  private capacity = 0;
  /** The layers in the SIMD kernels' memory, made at the first forward pass after they load. */
  private simd: SimdDenseStack | null = null;
  private readonly simdAllowed: boolean;

  /** `options.simd: false` keeps every forward pass in JS (tests and benchmarks compare the two). */
  constructor(readonly spec: MlpSpec, options: { simd?: boolean } = {}) {
    this.simdAllowed = options.simd ?? true;
    this.dims = [spec.obsDim, ...spec.hidden, spec.numActions];
    this.kernels = [];
    this.biases = [];
    for (let i = 0; i + 1 < this.dims.length; i++) {
      this.kernels.push(new Float32Array(this.dims[i] * this.dims[i + 1]));
      this.biases.push(new Float32Array(this.dims[i + 1]));
    }
    this.tanh = spec.activation === 'tanh';
  }

  /** How many arrays of a model's weight list the acting head takes (kernel and bias per layer). */
  /** Multiply-adds of one row's forward pass. */
  get macsPerRow(): number {
    let macs = 0;
    for (let i = 0; i + 1 < this.dims.length; i++) macs += this.dims[i] * this.dims[i + 1];
    return macs;
  }

  get weightCount(): number {
    return 2 * this.kernels.length;
  }

  /** Copy the acting head's weights from a model's full weight list (`Model.getWeights()` order). */
  setWeights(ws: readonly Float32Array[]): void {
    if (ws.length < this.weightCount) throw new Error(`FastMlp.setWeights: expected at least ${this.weightCount} arrays, got ${ws.length}`);
    for (let i = 0; i < this.kernels.length; i++) {
      const [w, b] = [ws[2 * i], ws[2 * i + 1]];
      if (w.length !== this.kernels[i].length || b.length !== this.biases[i].length) {
        throw new Error(`FastMlp.setWeights: layer ${i} needs ${this.dims[i]}x${this.dims[i + 1]} + ${this.dims[i + 1]}, got ${w.length} + ${b.length}`);
      }
      this.kernels[i].set(w);
      this.biases[i].set(b);
    }
    this.syncSimd();
  }

  /** As setWeights, from the flat concatenation of the model's weights (ES's parameter vector). */
  setFlatWeights(flat: Float32Array): void {
    let o = 0;
    for (let i = 0; i < this.kernels.length; i++) {
      for (const dst of [this.kernels[i], this.biases[i]]) {
        if (o + dst.length > flat.length) throw new Error(`FastMlp.setFlatWeights: ${flat.length} parameters are too few`);
        dst.set(flat.subarray(o, o + dst.length));
        o += dst.length;
      }
    }
    this.syncSimd();
  }

  /** Whether forward passes run in the SIMD kernels (they do once those are loaded, unless turned off). */
  get usesSimd(): boolean {
    return this.simdStack() !== null;
  }

  private simdStack(): SimdDenseStack | null {
    if (this.simd === null && this.simdAllowed && simdKernelsLoaded()) {
      this.simd = SimdDenseStack.create(this.dims, this.tanh ? 'tanh' : 'relu');
      this.syncSimd();
    }
    return this.simd;
  }

  private syncSimd(): void {
    if (this.simd) for (let i = 0; i < this.kernels.length; i++) this.simd.setLayer(i, this.kernels[i], this.biases[i]);
  }

  /**
   * The head's output [batch, numActions] (logits or Q-values) for obs [batch, obsDim]. The result
   * is a view of a scratch buffer, overwritten by the next call.
   */
  forward(obs: Float32Array, batch: number): Float32Array {
    if (obs.length < batch * this.dims[0]) throw new Error(`FastMlp.forward: ${obs.length} observation values for ${batch} rows of ${this.dims[0]}`);
    this.ensure(batch);
    const last = this.kernels.length - 1;
    const simd = this.simdStack();
    if (simd) {
      const out = this.scratch[last];
      simd.forward(obs, batch, out);
      return out.subarray(0, batch * this.dims[last + 1]);
    }
    let x = obs;
    for (let i = 0; i <= last; i++) {
      const y = this.scratch[i];
      dense(x, this.kernels[i], this.biases[i], batch, this.dims[i], this.dims[i + 1], y);
      if (i < last) {
        const n = batch * this.dims[i + 1];
        if (this.tanh) for (let j = 0; j < n; j++) y[j] = tanhF32(y[j]);
        else for (let j = 0; j < n; j++) if (y[j] < 0) y[j] = 0;
      }
      x = y;
    }
    return x.subarray(0, batch * this.dims[last + 1]);
  }

  /** softmax(logits) [batch, numActions]: the policy's action probabilities (a scratch view). */
  probabilities(obs: Float32Array, batch: number): Float32Array {
    const logits = this.forward(obs, batch);
    return softmaxRowsF32(logits, batch, this.spec.numActions, logits);
  }

  private ensure(batch: number): void {
    if (batch <= this.capacity) return;
    this.capacity = Math.max(batch, 2 * this.capacity);
    this.scratch = this.dims.slice(1).map((d) => new Float32Array(this.capacity * d));
  }
}

/**
 * y[r] = x[r]·W + b, W [inDim, outDim] row-major. Each output accumulates in float32 in input
 * order, acc ← fl(acc + fl(x_k · W_kj)) from acc = 0, then fl(acc + b_j) (XNNPACK's order).
 * Four outputs at a time, each in its own local: a float32 sum in JS is a chain of double add and
 * two conversions (Math.fround), about 13 cycles of latency, so four independent chains keep the
 * core busy where one chain (or a sum kept in the Float32Array, a load and a store per step) waits.
 */
function dense(x: Float32Array, w: Float32Array, b: Float32Array, batch: number, inDim: number, outDim: number, y: Float32Array): void {
  for (let r = 0; r < batch; r++) {
    const yo = r * outDim;
    const xo = r * inDim;
    let j = 0;
    for (; j + 4 <= outDim; j += 4) {
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      for (let k = 0, wo = j; k < inDim; k++, wo += outDim) {
        const xk = x[xo + k];
        a0 = f(a0 + f(xk * w[wo]));
        a1 = f(a1 + f(xk * w[wo + 1]));
        a2 = f(a2 + f(xk * w[wo + 2]));
        a3 = f(a3 + f(xk * w[wo + 3]));
      }
      // The Float32Array store rounds the bias sum.
      y[yo + j] = a0 + b[j];
      y[yo + j + 1] = a1 + b[j + 1];
      y[yo + j + 2] = a2 + b[j + 2];
      y[yo + j + 3] = a3 + b[j + 3];
    }
    for (; j < outDim; j++) {
      let a = 0;
      for (let k = 0, wo = j; k < inDim; k++, wo += outDim) a = f(a + f(x[xo + k] * w[wo]));
      y[yo + j] = a + b[j];
    }
  }
}
