/**
 * trimWebgpuBufferPool against tfjs-webgpu's own BufferManager (the real class, on a device that
 * records the buffers it makes), registered in tfjs under the name 'webgpu'.
 */
import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { betweenUpdates } from '../../../src/core/backend';
import { trimWebgpuBufferPool, webgpuMemory } from '../../../src/core/webgpuBufferPool';
import { STORAGE, installFakeWebgpu } from './fakeWebgpu';

const backend = installFakeWebgpu({ a: {}, b: {} });
const made = backend.made;

describe('trimWebgpuBufferPool', () => {
  it('destroys the free pool of one-off batch sizes, keeps buffers in use, and the pool works on afterwards', () => {
    const bm = backend.bufferManager;
    // Two "variables" stay in use throughout: 2 x 1 KiB.
    const weights = [bm.acquireBuffer(1024, STORAGE), bm.acquireBuffer(1024, STORAGE)];
    // 40 updates whose batch sizes differ (N = 100..139 rows of 64 floats): one new pooled size each.
    let oneOffBytes = 0;
    for (let n = 100; n < 140; n++) {
      const b = bm.acquireBuffer(n * 64 * 4, STORAGE);
      bm.releaseBuffer(b);
      oneOffBytes += n * 64 * 4;
    }
    // sum_{n=100}^{139} n = 40 * (100 + 139) / 2 = 4780 rows, of 256 bytes each.
    expect(oneOffBytes).toBe(4780 * 256);
    expect(webgpuMemory()).toEqual({ numUsedBuffers: 2, numFreeBuffers: 40, numBytesUsed: 2048, numBytesAllocated: 2048 + 4780 * 256, freePoolKeys: 40, pipelines: 2 });

    // Under the cap: nothing happens.
    expect(trimWebgpuBufferPool(2 * 2 ** 20)).toBe(0);
    expect(made.filter((b) => b.destroyed)).toHaveLength(0);

    // Over it: every free buffer is destroyed, the two in use are not.
    expect(trimWebgpuBufferPool(2 ** 20)).toBe(4780 * 256);
    expect(made.filter((b) => b.destroyed)).toHaveLength(40);
    // The first two buffers the device made are the variables'.
    expect(made.slice(0, 2).map((b) => b.destroyed)).toEqual([false, false]);
    expect(webgpuMemory()).toEqual({ numUsedBuffers: 2, numFreeBuffers: 0, numBytesUsed: 2048, numBytesAllocated: 2048, freePoolKeys: 0, pipelines: 2 });

    // The pool still takes buffers back and hands them out again (tfjs ignores releases into an empty map).
    bm.releaseBuffer(weights[1]);
    expect(webgpuMemory()).toMatchObject({ numUsedBuffers: 1, numFreeBuffers: 1, numBytesUsed: 1024, numBytesAllocated: 2048 });
    const count = made.length;
    expect(bm.acquireBuffer(1024, STORAGE)).toBe(weights[1]);
    expect(made).toHaveLength(count);
  });

  it('keeps a free pool no larger than the buffers in use', () => {
    const bm = backend.bufferManager;
    const big = bm.acquireBuffer(4 * 2 ** 20, STORAGE);
    const other = bm.acquireBuffer(3 * 2 ** 20, STORAGE);
    bm.releaseBuffer(other);
    // 3 MiB free against 4 MiB + 2 KiB in use: kept even with a 1 MiB cap.
    expect(trimWebgpuBufferPool(2 ** 20)).toBe(0);
    bm.releaseBuffer(big);
    // 7 MiB free against 2 KiB in use: both go.
    expect(trimWebgpuBufferPool(2 ** 20)).toBe(7 * 2 ** 20);
  });

  it('does nothing on another backend', async () => {
    await tf.setBackend('cpu');
    expect(webgpuMemory()).toBeNull();
    expect(trimWebgpuBufferPool(0)).toBe(0);
    await tf.setBackend('webgpu');
  });

  it("is what the engine's backend-neutral hook does between updates on webgpu (cap 16 MiB), and nothing on cpu", async () => {
    const bm = backend.bufferManager;
    const release = (mib: number) => bm.releaseBuffer(bm.acquireBuffer(mib * 2 ** 20 + 16 * made.length, STORAGE));
    release(10);
    betweenUpdates();
    expect(webgpuMemory()!.numFreeBuffers).toBe(1); // 10 MiB free: under the cap, kept
    release(10);
    await tf.setBackend('cpu');
    betweenUpdates();
    await tf.setBackend('webgpu');
    expect(webgpuMemory()!.numFreeBuffers).toBe(2); // the hook left another backend's turn alone
    betweenUpdates();
    expect(webgpuMemory()).toMatchObject({ numFreeBuffers: 0, numBytesAllocated: webgpuMemory()!.numBytesUsed });
  });
});
