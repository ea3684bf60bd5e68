/**
 * Backend choice for tfjs.
 *
 * Browser (page or Web Worker): webgpu -> webgl -> wasm -> cpu.
 * Node (main thread or worker_threads): wasm -> cpu.
 *
 * A `preferred` backend is tried first and the usual order follows as the fallback chain. Every
 * attempt is recorded, so the UI / CLI can say why the learner runs where it does.
 *
 * "auto" in the browser follows a measured plan when one is set (`setAutoPlan`): the learner
 * worker times the run's own network on each backend first (src/workers/backendProbe.ts), since
 * the usual order puts a software WebGPU adapter (SwiftShader) first, where wasm is 50-100x faster.
 *
 * WebGPU: tfjs 4.22's webgpu backend throws when `requestAdapter()` resolves to null (no GPU, or a
 * browser without the flags), so the adapter is probed here first, and the webgpu package is only
 * imported (dynamically) when an adapter exists. `navigator.gpu` exists in dedicated workers too.
 *
 * WASM: in the browser the binaries must be served by the app (never a CDN); the caller passes
 * their URL prefix (the app serves them at '/tfjs-wasm/'). In Node the package finds its own
 * binaries next to its JS, so no path is needed.
 */
import * as tf from '@tensorflow/tfjs';
import { installBlockedTransposedMatMul } from './blockedMatMul';
import { installSharedIdentity } from './sharedIdentity';
import { installSimdTanh } from './simd/tanhKernel';
import { installSimdColumnSum } from './simd/columnSumKernel';

export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

export interface BackendAttempt {
  name: string;
  ok: boolean;
  detail: string;
}

export interface BackendChoice {
  /** The backend now active in tfjs (`tf.getBackend()`). */
  name: string;
  /** One line: why this backend, e.g. "wasm (preferred webgpu unavailable: ...)". */
  reason: string;
  attempts: BackendAttempt[];
}

export interface ChooseBackendOptions {
  preferred?: 'auto' | BackendName;
  /** URL prefix of the tfjs wasm binaries, browser only (e.g. '/tfjs-wasm/'). */
  wasmPaths?: string;
}

/** True in Node (main thread or worker_threads), false in a browser page or Web Worker. */
export function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

/** Minimal view of the WebGPU entry point (avoids depending on @webgpu/types). */
interface GpuLike {
  requestAdapter(options?: { powerPreference?: string }): Promise<unknown>;
}

function navigatorGpu(): GpuLike | undefined {
  const nav = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator;
  return nav?.gpu;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

let wasmPathsSet: string | undefined;

/** What the WebGPU adapter says about itself, or null when there is none (never throws). */
export async function webgpuAdapterInfo(): Promise<{ software: boolean; description: string } | null> {
  const gpu = navigatorGpu();
  if (!gpu) return null;
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter == null) return null;
    const info = (adapter as { info?: { isFallbackAdapter?: boolean; vendor?: string; architecture?: string; device?: string; description?: string } }).info;
    const description = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ') || 'unknown adapter';
    return { software: info?.isFallbackAdapter === true || /swiftshader|llvmpipe|software/i.test(description), description };
  } catch {
    return null;
  }
}

async function tryWebgpu(): Promise<BackendAttempt> {
  const gpu = navigatorGpu();
  if (!gpu) return { name: 'webgpu', ok: false, detail: 'webgpu: navigator.gpu is undefined' };
  let adapter: unknown;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    return { name: 'webgpu', ok: false, detail: `webgpu: navigator.gpu.requestAdapter() threw: ${errText(e)}` };
  }
  if (adapter == null) {
    return { name: 'webgpu', ok: false, detail: 'webgpu: navigator.gpu.requestAdapter() returned null' };
  }
  try {
    await import('@tensorflow/tfjs-backend-webgpu');
  } catch (e) {
    return { name: 'webgpu', ok: false, detail: `webgpu: could not load @tensorflow/tfjs-backend-webgpu: ${errText(e)}` };
  }
  const attempt = await trySet('webgpu', adapterDetail(adapter));
  if (attempt.ok) enableWebgpuSizeClasses();
  return attempt;
}

/**
 * 'adapter found', or for a software adapter (SwiftShader: `info.isFallbackAdapter`) a warning:
 * it emulates the GPU on the CPU, and for networks as small as these wasm is much faster there
 * (measured: 5 swarm updates in 2 s on wasm against 106 s on SwiftShader WebGPU).
 */
function adapterDetail(adapter: unknown): string {
  const info = (adapter as { info?: { isFallbackAdapter?: boolean; vendor?: string; architecture?: string } }).info;
  if (!info?.isFallbackAdapter) return 'adapter found';
  const name = [info.vendor, info.architecture].filter(Boolean).join(' ') || 'unknown';
  return `software adapter (${name}) found: it runs on the CPU, and wasm is much faster for these small networks`;
}

async function tryWasm(wasmPaths: string | undefined): Promise<BackendAttempt> {
  try {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    if (!isNode() && wasmPaths !== undefined && wasmPaths !== wasmPathsSet) {
      // setWasmPaths must run before the backend initialises; tfjs ignores later calls.
      wasm.setWasmPaths(wasmPaths);
      wasmPathsSet = wasmPaths;
    }
  } catch (e) {
    return { name: 'wasm', ok: false, detail: `wasm: could not load @tensorflow/tfjs-backend-wasm: ${errText(e)}` };
  }
  return trySet('wasm', isNode() ? 'node binaries' : `binaries from ${wasmPathsSet ?? '(tfjs default path)'}`);
}

async function trySet(name: BackendName, okDetail: string): Promise<BackendAttempt> {
  if (tf.findBackendFactory(name) == null) {
    return { name, ok: false, detail: `${name}: backend not registered in this environment` };
  }
  try {
    // setBackend resolves false (and logs) when the backend fails to initialise.
    const ok = await tf.setBackend(name);
    if (!ok) return { name, ok: false, detail: `${name}: tf.setBackend('${name}') returned false` };
    await tf.ready();
    if (name === 'wasm') {
      installBlockedTransposedMatMul();
      installSharedIdentity();
      await installSimdTanh();
      await installSimdColumnSum();
    }
    return { name, ok: true, detail: `${name}: ${okDetail}` };
  } catch (e) {
    return { name, ok: false, detail: `${name}: initialisation threw: ${errText(e)}` };
  }
}

async function attempt(name: BackendName, wasmPaths: string | undefined): Promise<BackendAttempt> {
  switch (name) {
    case 'webgpu':
      if (isNode()) return { name, ok: false, detail: 'webgpu: not available in Node' };
      return tryWebgpu();
    case 'webgl':
      if (isNode()) return { name, ok: false, detail: 'webgl: not available in Node' };
      return trySet('webgl', 'context created');
    case 'wasm':
      return tryWasm(wasmPaths);
    case 'cpu':
      return trySet('cpu', 'plain JS (slowest, always available)');
  }
}

/** Activate one backend, without a fallback: whether it came up, and why not. */
export function activateBackend(name: BackendName, wasmPaths?: string): Promise<BackendAttempt> {
  const next = inFlight.then(() => attempt(name, wasmPaths));
  inFlight = next.catch(() => undefined);
  return next;
}

/** A measured order for "auto" (fastest first) and the line that says why. */
export interface AutoPlan {
  order: BackendName[];
  reason: string;
}

let autoPlan: AutoPlan | null = null;

/** Make "auto" follow a measured plan in this thread (null: the usual order again). */
export function setAutoPlan(plan: AutoPlan | null): void {
  autoPlan = plan;
}

/** The end of the last queued choice: choices run one at a time (see chooseBackend). */
let inFlight: Promise<unknown> = Promise.resolve();

/**
 * Pick and activate the fastest working tfjs backend. Never throws for an unavailable backend:
 * it falls through to the next one (cpu always works). Safe to call more than once.
 *
 * Calls are queued, one at a time. Two overlapping `tf.setBackend` calls make tfjs drop the first
 * initialisation as outdated (so a working WebGPU reads as failed), and a run could start on one
 * backend while a probe switches to another under it.
 */
export function chooseBackend(options: ChooseBackendOptions = {}): Promise<BackendChoice> {
  const next = inFlight.then(() => chooseNow(options));
  inFlight = next.catch(() => undefined);
  return next;
}

async function chooseNow(options: ChooseBackendOptions): Promise<BackendChoice> {
  const preferred = options.preferred ?? 'auto';
  const defaultOrder: BackendName[] = isNode() ? ['wasm', 'cpu'] : ['webgpu', 'webgl', 'wasm', 'cpu'];
  const plan = preferred === 'auto' && !isNode() ? autoPlan : null;
  const autoOrder = plan ? [...plan.order, ...defaultOrder.filter((n) => !plan.order.includes(n))] : defaultOrder;
  const order: BackendName[] =
    preferred === 'auto' ? autoOrder : [preferred, ...defaultOrder.filter((n) => n !== preferred)];
  const attempts: BackendAttempt[] = [];
  for (const name of order) {
    const a = await attempt(name, options.wasmPaths);
    attempts.push(a);
    if (a.ok) {
      const failed = attempts.filter((x) => !x.ok).map((x) => x.detail);
      let reason: string;
      if (plan && name === plan.order[0]) reason = plan.reason;
      else if (preferred !== 'auto' && name === preferred) reason = `${name}: preferred`;
      else if (preferred !== 'auto') reason = `${name}: preferred ${preferred} unavailable (${failed.join('; ')})`;
      else if (failed.length === 0) reason = `${a.detail} (first choice for ${isNode() ? 'Node' : 'the browser'})`;
      else reason = `${a.detail}, as a fallback (${failed.join('; ')})`;
      return { name: tf.getBackend(), reason, attempts };
    }
  }
  // Unreachable in practice: cpu is always registered by @tensorflow/tfjs.
  throw new Error(`No tfjs backend could be initialised: ${attempts.map((a) => a.detail).join('; ')}`);
}

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
