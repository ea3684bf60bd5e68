import { describe, expect, it } from 'vitest';
import { applyWebgpuSizeClasses, webgpuSizeClass, type WebgpuBackendLike } from '../../../src/core/webgpuBufferPool';

describe('webgpuSizeClass', () => {
  it('rounds up to four classes per power of two, in steps of at least 16 bytes', () => {
    // 2^k <= n < 2^(k+1): next multiple of max(16, 2^k / 4).
    expect(webgpuSizeClass(1)).toBe(16);
    expect(webgpuSizeClass(16)).toBe(16);
    expect(webgpuSizeClass(17)).toBe(32); // k = 4, step 16
    expect(webgpuSizeClass(100)).toBe(112); // k = 6, step 16
    expect(webgpuSizeClass(1000)).toBe(1024); // k = 9, step 128
    expect(webgpuSizeClass(1025)).toBe(1280); // k = 10, step 256
    expect(webgpuSizeClass(4096)).toBe(4096);
    expect(webgpuSizeClass(5000)).toBe(5120); // k = 12, step 1024
  });

  it('is at least the size, at most 25 % (or 15 bytes) more, a multiple of 16, and a class maps to itself', () => {
    const classes = new Set<number>();
    const wrong: number[] = [];
    for (let n = 1; n <= 70_000; n += 7) {
      const c = webgpuSizeClass(n);
      if (c < n || c > Math.max(n * 1.25, n + 15) || c % 16 !== 0 || webgpuSizeClass(c) !== c) wrong.push(n);
      classes.add(c);
    }
    expect(wrong).toEqual([]);
    // 10,000 sizes up to 70,000 bytes fall into few classes: 16..64 by 16 (4), then 4 per octave from 64 to 2^17 (44).
    expect(classes.size).toBeLessThanOrEqual(48);
  });
});

/** A stand-in for tfjs-webgpu's backend: records the sizes asked of its buffer manager; reads give a whole buffer. */
function fakeBackend() {
  const asked: { size: number; usage: number }[] = [];
  const tensors = new Map<object, { dtype: string; shape: number[]; values: unknown }>();
  const wholeBuffer = (dataId: object) => {
    const t = tensors.get(dataId)!;
    // 3 elements more than the tensor holds, as a read of a size-classed buffer returns.
    const n = t.shape.reduce((a, d) => a * d, 1) + 3;
    const vals = t.dtype === 'int32' ? Int32Array.from({ length: n }, (_, i) => i) : Float32Array.from({ length: n }, (_, i) => i / 2);
    t.values = vals; // tfjs keeps what it read as the tensor's CPU copy
    return vals;
  };
  const backend: WebgpuBackendLike = {
    bufferManager: {
      numUsedBuffers: 0,
      numFreeBuffers: 0,
      numBytesUsed: 0,
      numBytesAllocated: 0,
      freeBuffers: new Map(),
      acquireBuffer(size, usage) {
        asked.push({ size, usage });
        return { size, destroy() {} };
      },
    },
    pipelineCache: {},
    tensorMap: { get: (id) => tensors.get(id) },
    read: (dataId) => Promise.resolve(wholeBuffer(dataId)),
    readSync: (dataId) => wholeBuffer(dataId),
  };
  return { backend, asked, tensors };
}

// GPUBufferUsage: MAP_READ 1, MAP_WRITE 2, COPY_SRC 4, COPY_DST 8, UNIFORM 0x40, STORAGE 0x80.
describe('applyWebgpuSizeClasses', () => {
  it('rounds storage and upload staging buffers to their class, and leaves uniform and read staging buffers as asked', () => {
    const { backend, asked } = fakeBackend();
    expect(applyWebgpuSizeClasses(backend)).toBe(true);
    backend.bufferManager.acquireBuffer(1000, 0x80 | 0x4 | 0x8);
    backend.bufferManager.acquireBuffer(1000, 0x2 | 0x4, true, false);
    backend.bufferManager.acquireBuffer(20, 0x40 | 0x8);
    backend.bufferManager.acquireBuffer(1000, 0x1 | 0x8);
    expect(asked).toEqual([
      { size: 1024, usage: 0x8c },
      { size: 1024, usage: 0x6 },
      { size: 20, usage: 0x48 },
      { size: 1000, usage: 0x9 },
    ]);
    expect(applyWebgpuSizeClasses(backend)).toBe(false);
  });

  it("cuts what a read returns to the tensor's size, keeps the cut copy, and leaves complex64 alone", async () => {
    const { backend, tensors } = fakeBackend();
    applyWebgpuSizeClasses(backend);
    const a = {};
    const b = {};
    const c = {};
    tensors.set(a, { dtype: 'float32', shape: [2, 3], values: null });
    tensors.set(b, { dtype: 'int32', shape: [4], values: null });
    tensors.set(c, { dtype: 'complex64', shape: [2], values: null });
    const readA = await backend.read(a);
    expect(readA).toEqual(new Float32Array([0, 0.5, 1, 1.5, 2, 2.5]));
    expect(tensors.get(a)!.values).toBe(readA);
    const readB = backend.readSync(b);
    expect(readB).toEqual(new Int32Array([0, 1, 2, 3]));
    expect(tensors.get(b)!.values).toBe(readB);
    expect((backend.readSync(c) as Float32Array).length).toBe(5);
  });
});
