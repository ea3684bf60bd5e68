/**
 * One dense layer y = act(x·W + b) as ONE tfjs kernel with a gradient of its own, for the small
 * MLPs the off-policy learners (DDPG, TD3, SAC, CQL) train on wasm:
 *
 *   forward:  the backend's _FusedMatMul (product, bias and relu in one pass)
 *   backward, with dz = dy ⊙ act′(z) (relu: step(y), since y > 0 exactly where z > 0; linear: dy):
 *       ∂L/∂x = dz · Wᵀ        ∂L/∂W = xᵀ · dz        ∂L/∂b = Σ_rows dz
 *
 * The transposes are explicit tf.transpose ops. tfjs's own MatMul gradient asks the kernel for
 * transposed products (transposeA / transposeB), which wasm computes in a plain loop instead of
 * XNNPACK: 1 to 1.6 ms against about 0.1 ms for 256×64 · 64×64 (measured in Node, tfjs 4.22).
 * It is the same arithmetic; only the summation order inside a product may differ.
 *
 * A registered kernel (rather than tf.customGrad) keeps tfjs's lazy per-input gradients: the tape
 * computes only the gradients on a path to the variables asked for, so a critic evaluated inside
 * the actor's loss costs no ∂L/∂W and a first layer fed by observations no ∂L/∂x.
 *
 * Only on wasm; other backends run the ordinary ops (their transposed products are not slow).
 */
import * as tf from '@tensorflow/tfjs';

export type DenseActivation = 'linear' | 'relu';

/** One kernel per activation: only relu's gradient needs the output saved (the linear one keeps no copy). */
const KERNELS: Record<DenseActivation, string> = { linear: 'ParlDenseLinear', relu: 'ParlDenseRelu' };
const registeredOn = new Set<string>();
let gradientsRegistered = false;

function registerForward(kernelName: string, activation: DenseActivation, backend: string, fused: tf.KernelConfig): void {
  tf.registerKernel({
    kernelName,
    backendName: backend,
    kernelFunc: ({ inputs, backend: b }) => {
      const { x, w, bias } = inputs;
      if (!x || !w || !bias) throw new Error(`${kernelName}: needs inputs x, w and bias`);
      // _FusedMatMul works on rank-3 operands: view [B, in] · [in, out] as a batch of one.
      const out = fused.kernelFunc({
        inputs: { a: { ...x, shape: [1, ...x.shape] }, b: { ...w, shape: [1, ...w.shape] }, bias },
        backend: b,
        attrs: { transposeA: false, transposeB: false, activation, leakyreluAlpha: 0 },
      });
      if (Array.isArray(out)) throw new Error(`${kernelName}: _FusedMatMul returned several outputs`);
      return { dataId: out.dataId, dtype: out.dtype, shape: [x.shape[0], w.shape[1]] };
    },
  });
}

function registerGradient(kernelName: string, activation: DenseActivation): void {
  tf.registerGradient({
    kernelName,
    inputsToSave: ['x', 'w'],
    outputsToSave: [activation === 'relu'],
    gradFunc: (dy, saved) => {
      if (Array.isArray(dy)) throw new Error(`${kernelName}: one output, one gradient`);
      const [x, w, y] = saved;
      const dz = activation === 'relu' ? tf.mul(dy, tf.step(y)) : dy;
      return {
        x: () => tf.matMul(dz, tf.transpose(w)),
        w: () => tf.matMul(tf.transpose(x), dz),
        bias: () => tf.sum(dz, 0),
      };
    },
  });
}

/** Whether the fused kernels serve the current backend (registering them on first use). */
function kernelsReady(): boolean {
  const backend = tf.getBackend();
  if (backend !== 'wasm') return false;
  if (registeredOn.has(backend)) return true;
  const fused = tf.getKernel('_FusedMatMul', backend);
  if (!fused) return false;
  for (const a of ['linear', 'relu'] as const) registerForward(KERNELS[a], a, backend, fused);
  registeredOn.add(backend);
  if (!gradientsRegistered) {
    for (const a of ['linear', 'relu'] as const) registerGradient(KERNELS[a], a);
    gradientsRegistered = true;
  }
  return true;
}

/** act(x·W + b) for x [B, in], W [in, out], b [out]; differentiable in all three. */
export function denseLayer(x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D, activation: DenseActivation): tf.Tensor2D {
  if (kernelsReady()) return tf.engine().runKernel(KERNELS[activation], { x, w, bias: b }) as tf.Tensor2D;
  const z: tf.Tensor2D = tf.add(tf.matMul(x, w), b);
  return activation === 'relu' ? tf.relu(z) : z;
}
