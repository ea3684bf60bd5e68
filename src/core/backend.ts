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
  return trySet('webgpu', adapterDetail(adapter));
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
interface WebgpuBackendLike {
  bufferManager: {
    numUsedBuffers: number;
    numFreeBuffers: number;
    numBytesUsed: number;
    numBytesAllocated: number;
    freeBuffers: Map<string, WebgpuBufferLike[]>;
  };
  pipelineCache: Record<string, unknown>;
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

/**
 * tfjs-webgpu keeps every released buffer in a free pool keyed by its exact byte size, and never
 * destroys one. A loop whose batch size changes each update (REINFORCE: the sum of episode
 * lengths) releases buffers of a new size almost every update, so the pool, and the GPU process
 * that backs it, grows without bound. When the free pool holds more than `maxFreeBytes` (and more
 * than the buffers in use), destroy every free buffer: none is bound to a tensor or to a command
 * not yet submitted (tfjs releases those only after submitting), and WebGPU defers freeing a
 * buffer that submitted work still reads. Returns the bytes freed (0 on other backends).
 */
export function trimWebgpuBufferPool(maxFreeBytes = 16 * 2 ** 20): number {
  const b = webgpuBackend();
  if (!b) return 0;
  const m = b.bufferManager;
  const freeBytes = m.numBytesAllocated - m.numBytesUsed;
  if (freeBytes <= Math.max(maxFreeBytes, m.numBytesUsed)) return 0;
  let freed = 0;
  for (const list of m.freeBuffers.values()) {
    for (const buffer of list) {
      freed += buffer.size;
      buffer.destroy();
    }
    // Emptied in place: tfjs keeps the map's keys (releaseBuffer returns early on an empty map).
    list.length = 0;
  }
  m.numFreeBuffers = 0;
  m.numBytesAllocated -= freed;
  return freed;
}
