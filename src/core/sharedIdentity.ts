/**
 * tfjs-wasm's Identity without the copy.
 *
 * tfjs's engine saves every input a gradient needs by cloning it (engine.saveTensorsForBackwardMode
 * keeps `clone(x)`, and clone runs the Identity kernel). On wasm that kernel allocates a new heap
 * buffer, registers it with the C side and copies the values: a PPO gradient step runs about 100 of
 * them, and frees them all again afterwards. The cpu and webgl backends share the data instead
 * (one more reference on the same buffer), as tfjs-wasm's own Reshape does. Nothing in tfjs-wasm or
 * in this project writes into a kernel's input (every kernel writes a fresh output, and
 * Variable.assign swaps buffers), so a shared buffer holds the same values a copy would: every
 * result keeps every bit.
 */
import { overrideWasmKernel } from './wasmKernelOverride';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

let installed = false;

/** How many Identity calls shared their input's buffer (tests check the route is taken). */
export const sharedIdentityStats = { shared: 0 };

/** Make tfjs-wasm's Identity share its input's buffer. Idempotent; false when wasm is not registered. */
export function installSharedIdentity(): boolean {
  if (installed) return true;
  const original = overrideWasmKernel('Identity', (copy) => (args) => {
    const { x } = args.inputs;
    // Strings live outside the heap; tfjs-wasm's own kernel handles them.
    if (!x || x.dtype === 'string') return copy(args);
    // The kernel API hands every kernel its backend as a KernelBackend; this one is registered for wasm only.
    (args.backend as BackendWasm).incRef(x.dataId);
    sharedIdentityStats.shared++;
    return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
  });
  installed = original !== null;
  return installed;
}
