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
import { WEBGPU_BUFFER_POOL_TUNING } from './webgpuBufferPool';

export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

/**
 * What a backend's tuning module does beyond tfjs: once the backend is up, and between two updates
 * (when only the variables are in use). The engine calls `betweenUpdates` and knows nothing more.
 */
export interface BackendTuning {
  activate(): void;
  betweenUpdates(): void;
}

/** The tuning modules, by backend: tfjs-webgpu's buffer pool (src/core/webgpuBufferPool.ts). */
const TUNINGS: Partial<Record<BackendName, BackendTuning>> = { webgpu: WEBGPU_BUFFER_POOL_TUNING };

/** The active backend's work between two updates (webgpu: trims its buffer pool); nothing on the others. */
export function betweenUpdates(): void {
  TUNINGS[tf.getBackend() as BackendName]?.betweenUpdates();
}

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
  if (attempt.ok) TUNINGS.webgpu?.activate();
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
