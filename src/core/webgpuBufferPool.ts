/**
 * tfjs-webgpu's buffer pool, tuned: tfjs-webgpu 4.22 keeps every released buffer in a free pool keyed
 * by its exact byte size and never destroys one. Here: buffer sizes from a few classes, a trim of the
 * free pool between updates, reads cut to the tensor's size, and a synchronous read that reuses its
 * canvases. Behind a hook: src/core/backend.ts activates WEBGPU_BUFFER_POOL_TUNING when webgpu comes
 * up and calls its `betweenUpdates` from `betweenUpdates()`; nothing else reaches into the pool.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendTuning } from './backend';

/**
 * The parts of tfjs-webgpu 4.22's backend that memory checks read (`bufferManager` is public in
 * its typings; the pools and `pipelineCache` are plain properties of the same objects).
 */
interface WebgpuBufferLike {
  size: number;
  destroy(): void;
}
export interface WebgpuBackendLike {
  bufferManager: {
    numUsedBuffers: number;
    numFreeBuffers: number;
    numBytesUsed: number;
    numBytesAllocated: number;
    freeBuffers: Map<string, WebgpuBufferLike[]>;
    acquireBuffer(size: number, usage: number, mappedAtCreation?: boolean, reuse?: boolean): WebgpuBufferLike;
  };
  pipelineCache: Record<string, unknown>;
  tensorMap: { get(dataId: object): { dtype: string; shape: number[]; values: unknown; resource?: unknown } | undefined };
  read(dataId: object): Promise<unknown>;
  readSync(dataId: object): unknown;
  // What its synchronous read uses (see readSyncOnce); optional, so that a stand-in may leave them out.
  device?: GPUDevice;
  commandEncoder?: GPUCommandEncoder | null;
  ensureCommandEncoderReady?(): void;
  endComputePassEncoder?(): void;
  submitQueue?(): void;
  convertAndCacheOnCPU?(dataId: object, values: unknown): unknown;
}

function webgpuBackend(): WebgpuBackendLike | null {
  if (tf.getBackend() !== 'webgpu') return null;
  const b: unknown = tf.engine().backend;
  const bm = (b as { bufferManager?: unknown } | null)?.bufferManager;
  return bm && typeof bm === 'object' && (bm as { freeBuffers?: unknown }).freeBuffers instanceof Map ? (b as WebgpuBackendLike) : null;
}

/** The webgpu backend's buffer pool and pipeline cache, or null on another backend. */
export function webgpuMemory(): { numUsedBuffers: number; numFreeBuffers: number; numBytesUsed: number; numBytesAllocated: number; freePoolKeys: number; pipelines: number } | null {
  const b = webgpuBackend();
  if (!b) return null;
  const m = b.bufferManager;
  let freePoolKeys = 0;
  for (const list of m.freeBuffers.values()) if (list.length > 0) freePoolKeys += 1;
  return {
    numUsedBuffers: m.numUsedBuffers,
    numFreeBuffers: m.numFreeBuffers,
    numBytesUsed: m.numBytesUsed,
    numBytesAllocated: m.numBytesAllocated,
    freePoolKeys,
    pipelines: Object.keys(b.pipelineCache ?? {}).length,
  };
}

/** Updates a free size class may go unasked before trimWebgpuBufferPool destroys its buffers. */
const IDLE_UPDATES = 8;
/** With size classes, a free pool past this many times the cap is destroyed whole all the same. */
const HARD_CAP_FACTOR = 4;

/**
 * tfjs-webgpu keeps every released buffer in a free pool keyed by its exact byte size, and never
 * destroys one. A loop whose batch size changes each update (REINFORCE: the sum of episode
 * lengths) releases buffers of a new size almost every update, so the pool, and the GPU process
 * that backs it, grows without bound. Called once per update: when the free pool holds more than
 * `maxFreeBytes` (and more than the buffers in use), destroy free buffers. On a backend with size
 * classes (enableWebgpuSizeClasses) only those of classes not asked for in the last IDLE_UPDATES
 * updates go, so the buffers every update needs again are kept, not destroyed and made anew each
 * update (that churn grows the GPU process), unless the pool passes HARD_CAP_FACTOR times
 * the cap; without classes every free buffer goes. None is bound to a tensor or to a command not
 * yet submitted (tfjs releases those only after submitting), and WebGPU defers freeing a buffer
 * that submitted work still reads. Returns the bytes freed (0 on other backends).
 */
export function trimWebgpuBufferPool(maxFreeBytes = 16 * 2 ** 20): number {
  const b = webgpuBackend();
  if (!b) return 0;
  const classes = sizeClassState.get(b);
  if (classes) classes.generation += 1;
  const m = b.bufferManager;
  const freeBytes = m.numBytesAllocated - m.numBytesUsed;
  if (freeBytes <= Math.max(maxFreeBytes, m.numBytesUsed)) return 0;
  const idleOnly = classes !== undefined && freeBytes <= HARD_CAP_FACTOR * maxFreeBytes;
  let freed = 0;
  for (const [key, list] of m.freeBuffers) {
    if (idleOnly && (classes.lastAsked.get(key) ?? -Infinity) >= classes.generation - IDLE_UPDATES) continue;
    for (const buffer of list) {
      freed += buffer.size;
      buffer.destroy();
    }
    m.numFreeBuffers -= list.length;
    // Emptied in place: tfjs keeps the map's keys (releaseBuffer returns early on an empty map).
    list.length = 0;
  }
  m.numBytesAllocated -= freed;
  return freed;
}

/** GPUBufferUsage.MAP_WRITE and STORAGE (constants of the WebGPU spec; GPUBufferUsage is absent in Node). */
const MAP_WRITE = 0x0002;
const STORAGE = 0x0080;

/**
 * A buffer size rounded up to one of four classes per power of two, in steps of at least 16 bytes:
 * for 2^k <= bytes < 2^(k+1), the next multiple of max(16, 2^k / 4). At most 25 % (or 15 bytes) larger.
 */
export function webgpuSizeClass(bytes: number): number {
  if (bytes <= 16) return 16;
  let p = 1;
  while (p * 2 <= bytes) p *= 2;
  const step = Math.max(16, p / 4);
  return Math.ceil(bytes / step) * step;
}

/** Per size-classed backend: trim calls so far, and the call during which each pool key was last asked for. */
const sizeClassState = new WeakMap<object, { generation: number; lastAsked: Map<string, number> }>();

/**
 * Gives tfjs-webgpu's tensor buffers (and the upload staging buffers) sizes from a few classes
 * (webgpuSizeClass) instead of their exact byte sizes. A loop whose batch changes every update
 * (REINFORCE: the sum of episode lengths) otherwise asks for buffers of a new size at almost
 * every op, each created and later destroyed (trimWebgpuBufferPool), and that churn grows the GPU
 * process although the buffers alive do not (the soak's bare-tfjs control: an Adam step on a fixed
 * batch stayed flat, 197 -> 197 MiB over 260 steps; on a batch of a new size each step, with the
 * trim, it grew 219 -> 239 MiB over 190 steps). With classes the same sizes come back and are reused.
 *
 * tfjs binds the whole buffer and its shaders bound every index by the shape in their uniforms,
 * so a larger buffer computes the same; only a read gives back the whole buffer, so reads are
 * cut to the tensor's size (and the cut values are what tfjs keeps on the CPU). Returns false when
 * the active backend is not webgpu or this one is already set up.
 */
export function enableWebgpuSizeClasses(): boolean {
  const b = webgpuBackend();
  return b !== null && applyWebgpuSizeClasses(b);
}

/** enableWebgpuSizeClasses on a given backend (false when it is already set up). */
export function applyWebgpuSizeClasses(b: WebgpuBackendLike): boolean {
  if (sizeClassState.has(b)) return false;
  const state = { generation: 0, lastAsked: new Map<string, number>() };
  sizeClassState.set(b, state);
  const bm = b.bufferManager;
  const acquire = bm.acquireBuffer.bind(bm);
  bm.acquireBuffer = (size, usage, mappedAtCreation, reuse) => {
    const classed = usage & (STORAGE | MAP_WRITE) ? webgpuSizeClass(size) : size;
    // tfjs's pool key (getBufferKey in its buffer_manager.js).
    state.lastAsked.set(`${classed}_${usage}`, state.generation);
    return acquire(classed, usage, mappedAtCreation, reuse);
  };
  const read = b.read.bind(b);
  const readSync = b.readSync.bind(b);
  b.read = async (dataId) => fitToShape(b, dataId, await read(dataId));
  b.readSync = (dataId) => fitToShape(b, dataId, readSyncOnce(b, dataId) ?? readSync(dataId));
  return true;
}

/** Pixels per row and rows of the canvases a synchronous read goes through (tfjs's own sizes). */
const SYNC_READ_SIDE = 256;
/** GPUTextureUsage.COPY_DST. */
const TEXTURE_COPY_DST = 0x02;

interface SyncReadCanvases {
  device: GPUDevice;
  /** 'opaque' gives the colour bytes exactly, 'premultiplied' the alpha byte. */
  gpu: { context: GPUCanvasContext; canvas: OffscreenCanvas; alphaMode: GPUCanvasAlphaMode }[];
  host: OffscreenCanvasRenderingContext2D;
}

const syncReadCanvases = new WeakMap<object, SyncReadCanvases>();

/**
 * tfjs-webgpu's readSync (what dataSync does; readScalars calls it after every update) has no
 * synchronous way to map a buffer, so it copies the buffer into the textures of two WebGPU
 * canvases and reads them back through a 2D canvas. It makes three new OffscreenCanvases and
 * configures two new WebGPU contexts on every call, and Chromium's GPU process does not give their
 * memory back (measured in the soak's bare-tfjs control: with `--parts train,sync` the GPU process
 * grew about 1.6 MiB per step, 262 -> 476 MiB in 130 steps; with data() it stayed flat, and with
 * this read, `--parts train,sync,ours`, it grew 195 -> 207 MiB in 150 steps). This is the same read through
 * canvases made and configured once per device. Null when the tensor is not a plain GPU buffer
 * (tfjs's own readSync handles those), or where OffscreenCanvas is missing.
 */
function readSyncOnce(b: WebgpuBackendLike, dataId: object): unknown {
  const data = b.tensorMap.get(dataId);
  if (!data || data.values != null || data.dtype === 'string' || data.dtype === 'complex64') return null;
  if (typeof GPUBuffer === 'undefined' || !(data.resource instanceof GPUBuffer) || typeof OffscreenCanvas === 'undefined') return null;
  const { device, ensureCommandEncoderReady, endComputePassEncoder, submitQueue, convertAndCacheOnCPU } = b;
  if (!device || !ensureCommandEncoderReady || !endComputePassEncoder || !submitQueue || !convertAndCacheOnCPU) return null;
  const buffer = data.resource;
  const canvases = canvasesFor(b, device);
  if (!canvases) return null;
  // 4 bytes an element for every dtype tfjs keeps on the GPU; only the tensor's part of a size-classed buffer.
  const bytes = Math.min(buffer.size, 4 * data.shape.reduce((a, d) => a * d, 1));
  const out = new ArrayBuffer(bytes);
  const bytesPerRow = SYNC_READ_SIDE * 4;
  endComputePassEncoder.call(b);
  for (const { context, canvas, alphaMode } of canvases.gpu) {
    const texture = context.getCurrentTexture();
    const readRows = (width: number, height: number, offset: number) => {
      ensureCommandEncoderReady.call(b);
      b.commandEncoder?.copyBufferToTexture({ buffer, bytesPerRow, offset }, { texture }, { width, height });
      submitQueue.call(b);
      canvases.host.clearRect(0, 0, width, height);
      canvases.host.drawImage(canvas, 0, 0);
      const pixels = canvases.host.getImageData(0, 0, width, height).data;
      const span = new Uint8ClampedArray(out, offset, width * height * 4);
      // The canvases are bgra8unorm: swap blue and red back, and take alpha from the premultiplied one.
      for (let k = 0; k < span.length; k += 4) {
        if (alphaMode === 'premultiplied') span[k + 3] = pixels[k + 3];
        else {
          span[k] = pixels[k + 2];
          span[k + 1] = pixels[k + 1];
          span[k + 2] = pixels[k];
        }
      }
    };
    const pixelCount = bytes / 4;
    const perCanvas = SYNC_READ_SIDE * SYNC_READ_SIDE;
    let offset = 0;
    for (let i = 0; i < Math.floor(pixelCount / perCanvas); i++, offset += perCanvas * 4) readRows(SYNC_READ_SIDE, SYNC_READ_SIDE, offset);
    const rest = pixelCount % perCanvas;
    const rows = Math.floor(rest / SYNC_READ_SIDE);
    if (rows > 0) {
      readRows(SYNC_READ_SIDE, rows, offset);
      offset += rows * bytesPerRow;
    }
    if (rest % SYNC_READ_SIDE > 0) readRows(rest % SYNC_READ_SIDE, 1, offset);
  }
  const values = tf.util.convertBackendValuesAndArrayBuffer(out, data.dtype as tf.DataType);
  convertAndCacheOnCPU.call(b, dataId, values);
  return values;
}

function canvasesFor(b: object, device: GPUDevice): SyncReadCanvases | null {
  const known = syncReadCanvases.get(b);
  if (known && known.device === device) return known;
  const host = new OffscreenCanvas(SYNC_READ_SIDE, SYNC_READ_SIDE).getContext('2d', { willReadFrequently: true });
  if (!host) return null;
  const gpu: SyncReadCanvases['gpu'] = [];
  for (const alphaMode of ['opaque', 'premultiplied'] as const) {
    const canvas = new OffscreenCanvas(SYNC_READ_SIDE, SYNC_READ_SIDE);
    const context = canvas.getContext('webgpu');
    if (!context) return null;
    context.configure({ device, format: 'bgra8unorm', usage: TEXTURE_COPY_DST, alphaMode });
    gpu.push({ context, canvas, alphaMode });
  }
  const made = { device, gpu, host };
  syncReadCanvases.set(b, made);
  return made;
}

/** `values` (what tfjs read from a whole buffer) cut to the tensor's element count, and kept as its CPU copy. */
function fitToShape(b: WebgpuBackendLike, dataId: object, values: unknown): unknown {
  const data = b.tensorMap.get(dataId);
  // complex64 values are merged from their two parts, each already cut; strings never live on the GPU.
  if (!data || data.dtype === 'complex64' || !ArrayBuffer.isView(values) || values instanceof DataView) return values;
  const n = data.shape.reduce((a, d) => a * d, 1);
  const typed = values as Float32Array | Int32Array | Uint8Array;
  if (typed.length <= n) return values;
  const cut = typed.slice(0, n);
  data.values = cut;
  return cut;
}

/** The webgpu backend's tuning hooks: size classes once it is up, the trim between updates. */
export const WEBGPU_BUFFER_POOL_TUNING: BackendTuning = {
  activate: () => void enableWebgpuSizeClasses(),
  betweenUpdates: () => void trimWebgpuBufferPool(),
};
