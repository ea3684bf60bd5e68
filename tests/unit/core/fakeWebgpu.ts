/**
 * tfjs-webgpu's own BufferManager (the real class of 4.22: plain JS that only calls
 * device.createBuffer) on a device that records the buffers it makes, inside a backend registered
 * in tfjs under the name 'webgpu' for the tests of one file.
 */
import { afterAll, beforeAll } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { BufferManager } from '@tensorflow/tfjs-backend-webgpu/dist/buffer_manager.js';

export interface FakeBuffer {
  size: number;
  usage: number;
  destroyed: boolean;
  destroy(): void;
}

export const STORAGE = 0x80 | 0x4 | 0x8;

export class FakeWebgpuBackend extends tf.KernelBackend {
  readonly made: FakeBuffer[] = [];
  readonly bufferManager: BufferManager;
  readonly tensorMap = new Map<object, { dtype: string; shape: number[]; values: unknown }>();

  constructor(readonly pipelineCache: Record<string, unknown>) {
    super();
    const made = this.made;
    const device = {
      createBuffer({ size, usage }: { size: number; usage: number }): FakeBuffer {
        const b: FakeBuffer = { size, usage, destroyed: false, destroy: () => void (b.destroyed = true) };
        made.push(b);
        return b;
      },
    };
    this.bufferManager = new BufferManager(device as never);
  }

  override dispose(): void {}
}

/** Registers a fresh fake backend as 'webgpu' before the file's tests and restores the old backend after. */
export function installFakeWebgpu(pipelineCache: Record<string, unknown> = {}): FakeWebgpuBackend {
  const backend = new FakeWebgpuBackend(pipelineCache);
  let before = '';
  beforeAll(async () => {
    before = tf.getBackend();
    tf.registerBackend('webgpu', () => backend);
    await tf.setBackend('webgpu');
  });
  afterAll(async () => {
    await tf.setBackend(before || 'cpu');
    tf.removeBackend('webgpu');
  });
  return backend;
}
