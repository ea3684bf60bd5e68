/**
 * enableWebgpuSizeClasses with trimWebgpuBufferPool against tfjs-webgpu's own BufferManager (the real
 * class, on a device that records the buffers it makes), registered in tfjs under the name 'webgpu'.
 */
import { describe, expect, it } from 'vitest';
import { trimWebgpuBufferPool, enableWebgpuSizeClasses, webgpuMemory } from '../../../src/core/webgpuBufferPool';
import { STORAGE, installFakeWebgpu } from './fakeWebgpu';

const backend = installFakeWebgpu({});
const made = backend.made;

/** One "update": buffers of the given byte sizes are taken and all given back, then the pool is trimmed. */
function update(sizes: number[], cap: number): number {
  const bm = backend.bufferManager;
  const taken = sizes.map((s) => bm.acquireBuffer(s, STORAGE));
  for (const b of taken) bm.releaseBuffer(b);
  return trimWebgpuBufferPool(cap);
}

describe('enableWebgpuSizeClasses with trimWebgpuBufferPool', () => {
  it('reuses one buffer for batch sizes of one class, keeps classes in use, and destroys a class idle for 8 updates', () => {
    expect(enableWebgpuSizeClasses()).toBe(true);
    expect(enableWebgpuSizeClasses()).toBe(false);
    // Update 1: 1000 and 5000 bytes, classes 1024 (step 128) and 5120 (step 1024). 6144 free > cap 2048,
    // but within 4 x 2048 and both classes were just asked for: nothing goes.
    expect(update([1000, 5000], 2048)).toBe(0);
    expect(made.map((b) => b.size)).toEqual([1024, 5120]);
    // Updates 2..9 ask only for sizes of class 1024 (990, 1010, ... all round to 1024): the same buffer each time.
    const freed: number[] = [];
    for (let u = 2; u <= 9; u++) freed.push(update([1024 - u * 3], 2048));
    expect(made).toHaveLength(2);
    // Class 5120 was last asked for in update 1 (trim call 1 had not yet counted): idle for more than 8 calls at call 9.
    expect(freed).toEqual([0, 0, 0, 0, 0, 0, 0, 5120]);
    expect(made.map((b) => b.destroyed)).toEqual([false, true]);
    expect(webgpuMemory()).toMatchObject({ numFreeBuffers: 1, numBytesAllocated: 1024, numBytesUsed: 0 });
  });

  it('destroys the whole free pool past four times the cap, even classes just used', () => {
    // 3 x 4096 = 12288 free > 4 x 2048.
    const count = made.length;
    expect(update([4096, 4096, 4096], 2048)).toBe(1024 + 3 * 4096);
    expect(made.slice(count).every((b) => b.destroyed)).toBe(true);
    expect(webgpuMemory()).toMatchObject({ numFreeBuffers: 0, numBytesAllocated: 0 });
  });
});
