/**
 * Adam (Kingma & Ba 2015) over all of a model's variables as ONE flat vector, bit-identical to
 * tfjs's AdamOptimizer. tfjs runs ~14 kernels per variable per step; this runs them once on the
 * concatenated gradient g = [vec(g_1); …; vec(g_K)] and splits the step back:
 *
 *     m ← β1·m + (1 − β1)·g
 *     v ← β2·v + (1 − β2)·g²
 *     θ ← (−lr)·( (m / (1 − β1ᵗ)) / (√(v / (1 − β2ᵗ)) + ε) ) + θ
 *     β1ᵗ ← β1ᵗ·β1,  β2ᵗ ← β2ᵗ·β2          (float32 scalars, starting at β1, β2)
 *
 * Every operation is element-wise, applied in tfjs's order with the same float32 constants, so
 * each element gets exactly the value tfjs would give it, whatever the backend. The constants
 * are kept between steps (no scalar uploads). `applyGradients(grads, scale)` also multiplies the
 * flat gradient by `scale` first (global-norm clipping: one kernel instead of one per variable).
 *
 * The variables are looked up by name in tfjs's registry (as tfjs's optimizers do); the first
 * step fixes their set and order, and a later step with other variables is an error.
 *
 * `clipAndApply(grads, maxNorm)` adds global-norm clipping (globalNorm and clipScale of
 * tensorUtils.ts) and, on the cpu and wasm backends, runs the norm and the whole step on typed
 * arrays: the same float32 operations in the same order (sums as the backend's kernels,
 * backendSums.ts), one tensor written back per variable instead of ~80 kernels a step.
 */
import * as tf from '@tensorflow/tfjs';
import { backendSums, typedArrayPathSupported } from './backendSums';
import { SimdKernels, simdKernelsLoaded, type AdamConstants } from './simd/kernels';
import { clipScale, globalNorm, ScalarCache } from './tensorUtils';

const f = Math.fround;

/** tfjs's NamedTensor (not re-exported by @tensorflow/tfjs). */
interface NamedTensor {
  name: string;
  tensor: tf.Tensor;
}

interface Layout {
  key: string;
  variables: tf.Variable[];
  sizes: number[];
  /** Per variable, its positions in the flat vector as [size, 1] (for tf.gatherND on wasm). */
  positions: tf.Tensor2D[] | null;
}

export class FusedAdam extends tf.Optimizer {
  /** tfjs's serialization name. */
  static get className(): string {
    return 'FusedAdam';
  }

  private readonly constants = new ScalarCache();
  private readonly accBeta1: tf.Variable;
  private readonly accBeta2: tf.Variable;
  private layout: Layout | null = null;
  private m: tf.Variable | null = null;
  private v: tf.Variable | null = null;
  private negLr: { lr: number; t: tf.Scalar } | null = null;
  /** Whether clipAndApply's step may run in the SIMD kernel module (false: the JS loop; tests compare them). */
  useSimdKernels = true;

  /** `learningRate` is read on every step (Algorithm.setLearningRate sets it between updates). */
  constructor(
    protected learningRate: number,
    protected readonly beta1 = 0.9,
    protected readonly beta2 = 0.999,
    protected readonly epsilon: number = tf.backend().epsilon(),
  ) {
    super();
    this.accBeta1 = tf.tidy(() => tf.scalar(beta1).variable(false));
    this.accBeta2 = tf.tidy(() => tf.scalar(beta2).variable(false));
  }

  /**
   * One Adam step. `variableGradients` by variable name (as tf.variableGrads gives them); `scale`,
   * when given, multiplies the gradient first (bit-identical to scaling each gradient).
   */
  override applyGradients(variableGradients: tf.NamedTensorMap | NamedTensor[], scale?: tf.Scalar | null): void {
    const named = Array.isArray(variableGradients) ? variableGradients : Object.keys(variableGradients).map((name) => ({ name, tensor: variableGradients[name] }));
    const layout = this.layoutFor(named.map((g) => g.name));
    const c = (x: number) => this.constants.get(x);
    const negLr = this.negativeLearningRate();
    tf.tidy(() => {
      const pieces = named.map((g, i) => {
        if (g.tensor == null) throw new Error(`FusedAdam: no gradient for variable ${g.name}`);
        if (g.tensor.size !== layout.sizes[i]) throw new Error(`FusedAdam: the gradient of ${g.name} has ${g.tensor.size} values, the variable ${layout.sizes[i]}`);
        return tf.reshape(g.tensor, [-1]);
      });
      let grad: tf.Tensor = pieces.length === 1 ? pieces[0] : tf.concat(pieces);
      if (scale) grad = tf.mul(grad, scale);
      const m0 = this.m as tf.Variable;
      const v0 = this.v as tf.Variable;
      const oneMinusAccBeta1 = tf.sub(c(1), this.accBeta1);
      const oneMinusAccBeta2 = tf.sub(c(1), this.accBeta2);
      const m = tf.add(tf.mul(m0, c(this.beta1)), tf.mul(grad, c(1 - this.beta1)));
      const v = tf.add(tf.mul(v0, c(this.beta2)), tf.mul(tf.square(grad), c(1 - this.beta2)));
      const mHat = tf.div(m, oneMinusAccBeta1);
      const vHat = tf.div(v, oneMinusAccBeta2);
      m0.assign(m);
      v0.assign(v);
      const step = tf.mul(tf.div(mHat, tf.add(tf.sqrt(vHat), c(this.epsilon))), negLr);
      const steps = this.pieces(step as tf.Tensor1D, layout);
      layout.variables.forEach((x, i) => x.assign(tf.add(tf.reshape(steps[i], x.shape), x)));
      this.accBeta1.assign(tf.mul(this.accBeta1, c(this.beta1)));
      this.accBeta2.assign(tf.mul(this.accBeta2, c(this.beta2)));
    });
    this.incrementIterations();
  }

  /**
   * ‖g‖₂ over the gradients in order (globalNorm), then one step with the gradient scaled by
   * min(1, maxNorm / (‖g‖₂ + 1e-6)) (clipScale; no scaling when maxNorm is null or not finite).
   * Returns ‖g‖₂ before clipping, a new scalar.
   */
  clipAndApply(variableGradients: tf.NamedTensorMap, maxNorm: number | null): tf.Scalar {
    const names = Object.keys(variableGradients);
    if (!typedArrayPathSupported()) {
      return tf.tidy(() => {
        const norm = globalNorm(names.map((k) => variableGradients[k]));
        this.applyGradients(variableGradients, clipScale(norm, maxNorm, (x) => this.constants.get(x)));
        return norm;
      });
    }
    const layout = this.layoutFor(names);
    const sums = backendSums();
    const grads = names.map((name, i) => {
      const g = variableGradients[name];
      if (g == null) throw new Error(`FusedAdam: no gradient for variable ${name}`);
      if (g.size !== layout.sizes[i]) throw new Error(`FusedAdam: the gradient of ${name} has ${g.size} values, the variable ${layout.sizes[i]}`);
      return g.dataSync() as Float32Array;
    });
    // globalNorm: √(AddN of Sum(Square(g_k))); AddN adds in float32 from +0 on both backends.
    let total = 0;
    for (const g of grads) total = f(total + sums.sumOfSquares(g));
    const norm = f(Math.sqrt(total));
    const scale = maxNorm === null || !Number.isFinite(maxNorm) ? null : f(Math.min(1, f(f(maxNorm) / f(norm + f(1e-6)))));
    this.stepOnArrays(layout, grads, scale);
    return tf.scalar(norm, 'float32');
  }

  /**
   * applyGradients' arithmetic element by element (cpu and wasm only: see clipAndApply), in the
   * SIMD kernel module when it is loaded (the same float32 operations four at a time), else in JS.
   */
  private stepOnArrays(layout: Layout, grads: Float32Array[], scale: number | null): void {
    const acc1 = this.accBeta1.dataSync()[0];
    const acc2 = this.accBeta2.dataSync()[0];
    const c: AdamConstants = {
      b1: f(this.beta1),
      c1: f(1 - this.beta1),
      b2: f(this.beta2),
      c2: f(1 - this.beta2),
      om1: f(1 - acc1),
      om2: f(1 - acc2),
      eps: f(this.epsilon),
      negLr: f(-this.learningRate),
    };
    const m0 = (this.m as tf.Variable).dataSync() as Float32Array;
    const v0 = (this.v as tf.Variable).dataSync() as Float32Array;
    const thetas = layout.variables.map((x) => x.dataSync() as Float32Array);
    if (simd === null && simdKernelsLoaded()) simd = SimdKernels.create();
    const { m, v, theta } = simd && this.useSimdKernels ? adamSimd(simd, grads, m0, v0, thetas, scale, c) : adamJs(grads, m0, v0, thetas, scale, c);
    tf.tidy(() => {
      layout.variables.forEach((x, i) => x.assign(tf.tensor(theta[i], x.shape, 'float32')));
      (this.m as tf.Variable).assign(tf.tensor1d(m));
      (this.v as tf.Variable).assign(tf.tensor1d(v));
      this.accBeta1.assign(tf.scalar(f(acc1 * c.b1)));
      this.accBeta2.assign(tf.scalar(f(acc2 * c.b2)));
    });
    this.incrementIterations();
  }

  /**
   * The flat step cut back into one piece per variable (copies, exact either way). tf.split runs
   * wasm's Slice once per piece, and that kernel copies its whole input out of the wasm heap
   * each time (~2 ms a step for 12 pieces of 9k values); wasm's GatherNd works in the heap. On
   * cpu it is the other way round (GatherNd is a slow element loop there, Slice a subarray copy).
   */
  private pieces(step: tf.Tensor1D, layout: Layout): tf.Tensor[] {
    if (layout.variables.length === 1) return [step];
    if (tf.getBackend() !== 'wasm') return tf.split(step, layout.sizes);
    if (!layout.positions) {
      let offset = 0;
      layout.positions = layout.sizes.map((n) => {
        const at = tf.keep(tf.tensor2d(Int32Array.from({ length: n }, (_, i) => offset + i), [n, 1], 'int32'));
        offset += n;
        return at;
      });
    }
    return layout.positions.map((at) => tf.gatherND(step, at));
  }

  /** −lr as a float32 scalar, rebuilt only when the learning rate changed. */
  private negativeLearningRate(): tf.Scalar {
    if (this.negLr?.lr !== this.learningRate) {
      this.negLr?.t.dispose();
      this.negLr = { lr: this.learningRate, t: tf.keep(tf.scalar(-this.learningRate, 'float32')) };
    }
    return this.negLr.t;
  }

  /** The variables of the first step (their moments start at 0); later steps must name the same. */
  private layoutFor(names: string[]): Layout {
    const key = names.join('\u0000');
    if (this.layout) {
      if (this.layout.key !== key) throw new Error(`FusedAdam: the step names other variables (${names.join(', ')}) than the first (${this.layout.variables.map((x) => x.name).join(', ')})`);
      return this.layout;
    }
    const registered = tf.engine().registeredVariables;
    const variables = names.map((name) => {
      const x = registered[name];
      if (!x) throw new Error(`FusedAdam: no variable named ${name}`);
      if (x.dtype !== 'float32') throw new Error(`FusedAdam: variable ${name} is ${x.dtype}, not float32`);
      return x;
    });
    const sizes = variables.map((x) => x.size);
    const total = sizes.reduce((a, b) => a + b, 0);
    this.m = tf.tidy(() => tf.zeros([total]).variable(false));
    this.v = tf.tidy(() => tf.zeros([total]).variable(false));
    this.layout = { key, variables, sizes, positions: null };
    return this.layout;
  }

  override dispose(): void {
    this.accBeta1.dispose();
    this.accBeta2.dispose();
    this.m?.dispose();
    this.v?.dispose();
    if (this.layout?.positions) tf.dispose(this.layout.positions);
    this.negLr?.t.dispose();
    this.constants.dispose();
    this.m = this.v = this.negLr = this.layout = null;
  }

  override async getWeights(): Promise<NamedTensor[]> {
    const state: NamedTensor[] = [await this.saveIterations()];
    if (this.m && this.v) state.push({ name: 'm', tensor: this.m }, { name: 'v', tensor: this.v });
    return state;
  }

  override async setWeights(weightValues: NamedTensor[]): Promise<void> {
    const rest = await this.extractIterations(weightValues);
    if (rest.length !== 0) throw new Error('FusedAdam.setWeights: restoring the moments is not supported (they are tied to the variables of the first step)');
  }

  override getConfig(): tf.serialization.ConfigDict {
    return { learningRate: this.learningRate, beta1: this.beta1, beta2: this.beta2, epsilon: this.epsilon };
  }
}

let simd: SimdKernels | null = null;

interface AdamResult {
  m: Float32Array;
  v: Float32Array;
  theta: Float32Array[];
}

/** One Adam step on typed arrays, one float32 rounding per operation (FusedAdam's order). */
function adamJs(grads: Float32Array[], m0: Float32Array, v0: Float32Array, thetas: Float32Array[], scale: number | null, c: AdamConstants): AdamResult {
  const m = new Float32Array(m0.length);
  const v = new Float32Array(v0.length);
  let o = 0;
  const theta = thetas.map((th, i) => {
    const g = grads[i];
    const out = new Float32Array(th.length);
    for (let j = 0; j < th.length; j++, o++) {
      const gj = scale === null ? g[j] : f(g[j] * scale);
      m[o] = f(f(m0[o] * c.b1) + f(gj * c.c1));
      v[o] = f(f(v0[o] * c.b2) + f(f(gj * gj) * c.c2));
      out[j] = f(f(f(f(m[o] / c.om1) / f(f(Math.sqrt(f(v[o] / c.om2))) + c.eps)) * c.negLr) + th[j]);
    }
    return out;
  });
  return { m, v, theta };
}

/** The same step in the SIMD module: g, m, v and θ copied in (padded to a multiple of 4), run, copied out. */
function adamSimd(kernels: SimdKernels, grads: Float32Array[], m0: Float32Array, v0: Float32Array, thetas: Float32Array[], scale: number | null, c: AdamConstants): AdamResult {
  const n = m0.length;
  const nP = (n + 3) & ~3;
  kernels.reserve(16 * nP);
  const heap = kernels.heap;
  let o = 0;
  grads.forEach((g, i) => {
    heap.set(g, o);
    heap.set(thetas[i], 3 * nP + o);
    o += g.length;
  });
  heap.fill(0, n, nP);
  heap.set(m0, nP);
  heap.fill(0, nP + n, 2 * nP);
  heap.set(v0, 2 * nP);
  heap.fill(0, 2 * nP + n, 3 * nP);
  heap.fill(0, 3 * nP + n, 4 * nP);
  kernels.adam(0, 4 * nP, 8 * nP, 12 * nP, nP, scale, c);
  o = 3 * nP;
  const theta = thetas.map((th) => {
    const out = heap.slice(o, o + th.length);
    o += th.length;
    return out;
  });
  return { m: heap.slice(nP, nP + n), v: heap.slice(2 * nP, 2 * nP + n), theta };
}
