/**
 * unstackSteps: a time-major tensor [steps, …] cut into its `steps` slices along axis 0, for the
 * recurrent Q-network's unroll (src/algorithms/qmix.ts). The gradient is the slices' gradients
 * stacked back (tf.stack; a slice whose gradient is missing contributes zeros).
 *
 * Why not tf.unstack: on wasm its Slice kernel reads the WHOLE input out of the wasm heap for
 * each slice (readSync copies), so cutting [26, 96, 192] into 26 steps copies it 26 times (about
 * 10 ms per call, four calls per QMIX step, measured in Node, tfjs 4.22). Axis-0 slices of a
 * row-major tensor are contiguous blocks; this kernel copies each block once, heap to heap.
 * Other backends run tf.unstack.
 */
import * as tf from '@tensorflow/tfjs';

const KERNEL = 'ParlUnstackSteps';
const registeredOn = new Set<string>();
let gradientRegistered = false;

/** The backend's heap views, as the wasm backend has them (not in tfjs's KernelBackend type). */
interface HeapBackend {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
}

function isHeapBackend(b: unknown): b is HeapBackend {
  return typeof b === 'object' && b !== null && typeof Reflect.get(b, 'makeOutput') === 'function' && typeof Reflect.get(b, 'typedArrayFromHeap') === 'function';
}

function kernelReady(): boolean {
  const backend = tf.getBackend();
  if (backend !== 'wasm') return false;
  if (registeredOn.has(backend)) return true;
  tf.registerKernel({
    kernelName: KERNEL,
    backendName: backend,
    kernelFunc: ({ inputs, backend: b }) => {
      const { x } = inputs;
      if (!x || x.dtype !== 'float32') throw new Error(`${KERNEL}: needs a float32 input x`);
      if (!isHeapBackend(b)) throw new Error(`${KERNEL}: the backend has no heap views`);
      const [steps, ...rest] = x.shape;
      const n = rest.reduce((p, d) => p * d, 1);
      const outs: tf.TensorInfo[] = [];
      for (let t = 0; t < steps; t++) {
        const out = b.makeOutput(rest, 'float32');
        // Views taken after the allocation: a heap that grew has detached the older ones.
        b.typedArrayFromHeap(out).set(b.typedArrayFromHeap(x).subarray(t * n, (t + 1) * n));
        outs.push(out);
      }
      return outs;
    },
  });
  registeredOn.add(backend);
  if (!gradientRegistered) {
    tf.registerGradient({
      kernelName: KERNEL,
      gradFunc: (dy) => {
        const dys = Array.isArray(dy) ? dy : [dy];
        return { x: () => tf.stack(dys, 0) };
      },
    });
    gradientRegistered = true;
  }
  return true;
}

/** x [steps, …] → `steps` tensors of shape […], differentiable (see the header). */
export function unstackSteps<T extends tf.Tensor>(x: tf.Tensor): T[] {
  if (x.shape[0] === 1) return [tf.reshape(x, x.shape.slice(1)) as T];
  if (kernelReady() && x.dtype === 'float32') {
    const out = tf.engine().runKernel(KERNEL, { x }, {});
    return (Array.isArray(out) ? out : [out]) as T[];
  }
  return tf.unstack(x, 0) as T[];
}
