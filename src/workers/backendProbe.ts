/**
 * The measured probe behind "auto" (browser learner worker): time one update of the run's own
 * learner at the batch its descriptor declares (probeTargets.ts) on each backend this browser
 * has, then pick with `chooseMeasuredBackend`. Measurements are cached in IndexedDB per device
 * (the WebGPU adapter, the CPU count, the browser) and learner, so a page probes each learner once.
 *
 * Budget: wasm is timed first (a few ms an update here); a software GPU adapter gets at most
 * PROBE_BUDGET_MS for its warm-up and about 20 wasm updates' worth for each timed update, after
 * which the probe stops waiting and counts what it saw as a lower bound (SwiftShader takes
 * seconds to compile its first shaders); a hardware GPU gets a few seconds to warm up.
 *
 * A run started while a probe measures does not wait for it: `interruptProbe` stops the probe
 * after the backend it is timing, and the run starts on the best backend known so far.
 */
import * as tf from '@tensorflow/tfjs';
import { activateBackend, webgpuAdapterInfo, type AutoPlan, type BackendName } from '../core/backend';
import { chooseMeasuredBackend, type BackendMeasurement } from '../core/backendChoice';
import type { ExperimentConfig } from '../config/config';
import { forwardAndUpdate, networkInputs, probeTargetFor, type ProbeTarget } from './probeTargets';

export { probeTargetFor, updateBatchOf, type ProbeTarget } from './probeTargets';

const PROBE_BUDGET_MS = 400;
const TIMED_RUNS = 3;

/** Resolves with `value`, or with 'late' after `ms` (the work goes on in the background). */
function within<T>(work: Promise<T>, ms: number): Promise<T | 'late'> {
  return Promise.race([work, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), Math.max(0, ms)))]);
}

/** Asks a probe to stop before the next backend it would time. */
export class ProbeStop {
  requested = false;
  private wake: () => void = () => undefined;
  /** Resolves once a stop is requested. */
  readonly asked = new Promise<'stopped'>((resolve) => {
    this.wake = () => resolve('stopped');
  });

  request(): void {
    this.requested = true;
    this.wake();
  }
}

/** How one backend is timed: the whole learner, or (a software GPU adapter) only what can be cut short. */
interface Budgets {
  warmupMs: number;
  timedMs: number;
  /** Time the run's update rule itself (synchronous reads); false: its network part only. */
  wholeLearner: boolean;
  /** wasm's time for the whole update, against which a part's time is a lower bound. */
  wasmMs: number | null;
}

async function timeNetwork(name: BackendName, target: ProbeTarget, b: Budgets): Promise<BackendMeasurement> {
  const model = target.network.build();
  const x = networkInputs(target.network);
  const optimizer = tf.train.adam(1e-4);
  const started = performance.now();
  const part = target.learner !== null;
  const lowerBound = (ms: number, detail: string): BackendMeasurement => ({ name, available: true, msPerUpdate: ms, cutShort: true, detail });
  try {
    // The first run compiles kernels (shaders on a GPU): not timed, but it counts against the budget.
    if ((await within(forwardAndUpdate(model, x, optimizer), b.warmupMs)) === 'late') {
      return lowerBound(performance.now() - started, 'its first update did not finish within the probe');
    }
    const times: number[] = [];
    for (let i = 0; i < TIMED_RUNS; i++) {
      const t0 = performance.now();
      if ((await within(forwardAndUpdate(model, x, optimizer), b.timedMs)) === 'late') {
        return lowerBound(performance.now() - t0, 'one update took longer than the probe waits');
      }
      times.push(performance.now() - t0);
    }
    times.sort((a, c) => a - c);
    const ms = times[Math.floor(times.length / 2)];
    if (!part) return { name, available: true, msPerUpdate: ms };
    // A part of the update: a lower bound of the whole, so it only says "slower" when it already is.
    if (b.wasmMs !== null && ms >= b.wasmMs) return lowerBound(ms, "one part of its update alone (the actor network) was slower than wasm's whole update");
    return { name, available: true, msPerUpdate: null, detail: 'not timed whole: its synchronous reads could block the probe on this adapter' };
  } catch (err) {
    return { name, available: true, msPerUpdate: null, detail: `measuring failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    // Tensors still in use by a late GPU run are freed when it is done; tfjs allows that.
    x.dispose();
    optimizer.dispose();
    model.dispose();
  }
}

async function timeLearner(name: BackendName, build: NonNullable<ProbeTarget['learner']>): Promise<BackendMeasurement> {
  let learner: Awaited<ReturnType<typeof build>> | null = null;
  try {
    learner = await build();
    learner.update(); // builds the optimiser state and compiles kernels: not timed
    const times: number[] = [];
    for (let i = 0; i < TIMED_RUNS; i++) {
      const t0 = performance.now();
      learner.update();
      times.push(performance.now() - t0);
    }
    times.sort((a, c) => a - c);
    return { name, available: true, msPerUpdate: times[Math.floor(times.length / 2)] };
  } catch (err) {
    return { name, available: true, msPerUpdate: null, detail: `measuring failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    learner?.dispose();
  }
}

async function measureOne(name: BackendName, target: ProbeTarget, wasmPaths: string | undefined, b: Budgets): Promise<BackendMeasurement> {
  const up = await activateBackend(name, wasmPaths);
  if (!up.ok) return { name, available: false, msPerUpdate: null, detail: up.detail };
  return target.learner && b.wholeLearner ? timeLearner(name, target.learner) : timeNetwork(name, target, b);
}

/**
 * Time the candidates: wasm first, then the GPU backends, then cpu only where wasm failed.
 * `cpuFree` is called once what is left to time cannot be skewed by other work on the CPU: after
 * wasm when the GPU backends here are software ones (their times are only lower bounds, far above
 * wasm's), else at the end. After wasm, a requested `stop` ends the probe before the next backend:
 * the backends not timed are listed as not measured.
 */
export async function measureBackends(target: ProbeTarget, wasmPaths: string | undefined, budgetMs = PROBE_BUDGET_MS, cpuFree: () => void = () => undefined, stop = new ProbeStop()): Promise<BackendMeasurement[]> {
  // The WebGL renderer is asked for at once, in its own worker, while wasm and WebGPU are timed here;
  // the adapter too (a software one took seconds to answer on a fresh profile).
  const rendererAnswer = webglRenderer();
  const adapterAnswer = adapterInfo();
  const out: BackendMeasurement[] = [];
  let freed = false;
  const free = () => {
    if (!freed) cpuFree();
    freed = true;
  };
  const wasm = await measureOne('wasm', target, wasmPaths, { warmupMs: budgetMs, timedMs: budgetMs, wholeLearner: true, wasmMs: null });
  out.push(wasm);
  const stopped = (): boolean => {
    if (!stop.requested) return false;
    free();
    return true;
  };
  const notTimed = (names: BackendName[]) => names.forEach((name) => out.push({ name, available: false, msPerUpdate: null, detail: 'not timed: a run started first' }));
  const adapter = await Promise.race([adapterAnswer, stop.asked]);
  if (adapter === 'stopped' || stopped()) {
    notTimed(['webgpu', 'webgl']);
    return out;
  }
  const softwareOnly = wasm.msPerUpdate !== null && (!adapter || adapter.software) && isSoftwareOrSlow(await rendererAnswer);
  if (softwareOnly) free();
  // A GPU backend gets the budget for its warm-up (kernel compilation), and for each timed update
  // about 20 wasm updates' worth: enough to tell "much slower" without waiting for all of it.
  const wasmMs = wasm.msPerUpdate;
  const warmup = wasmMs !== null ? Math.min(budgetMs, Math.max(150, 40 * wasmMs)) : budgetMs * 2;
  const timed = wasmMs !== null ? Math.max(40, 20 * wasmMs) : budgetMs;
  // A hardware GPU may take seconds to compile its kernels once and still be the fastest after.
  const hardwareWarmup = 3_000;
  if (adapter?.software && target.skipSoftwareAdapter) {
    out.push({ name: 'webgpu', available: false, msPerUpdate: null, software: true, detail: target.skipSoftwareAdapter });
  } else if (adapter) {
    const budgets = adapter.software ? { warmupMs: warmup, timedMs: timed, wholeLearner: false, wasmMs } : { warmupMs: hardwareWarmup, timedMs: timed, wholeLearner: true, wasmMs };
    out.push({ ...(await measureOne('webgpu', target, wasmPaths, budgets)), software: adapter.software });
  } else out.push({ name: 'webgpu', available: false, msPerUpdate: null, detail: 'no WebGPU adapter' });
  if (stopped()) {
    notTimed(['webgl']);
    return out;
  }
  // Opening a WebGL context is synchronous, and on a software renderer it blocked this worker for
  // 7-13 s (SwiftShader, load 8), where no budget can stop it; so the renderer is asked first, from
  // a worker that can be given up on. A software renderer is never faster than wasm here.
  const renderer = await rendererAnswer;
  if (renderer.kind === 'slow') {
    out.push({ name: 'webgl', available: true, msPerUpdate: null, detail: `not timed: opening a WebGL context took over ${WEBGL_OPEN_BUDGET_MS} ms` });
  } else if (renderer.kind === 'named' && SOFTWARE_RENDERER.test(renderer.name)) {
    out.push({ name: 'webgl', available: true, msPerUpdate: null, software: true, detail: `not timed: ${renderer.name.includes('SwiftShader') ? 'SwiftShader, ' : ''}a software renderer` });
  } else {
    // A renderer not named may be a software one: only its network is timed, which can be cut short.
    const named = renderer.kind === 'named';
    const webgl = await measureOne('webgl', target, wasmPaths, { warmupMs: named ? hardwareWarmup : warmup, timedMs: timed, wholeLearner: named, wasmMs });
    // A named renderer is already known to be hardware; otherwise ask tfjs's context.
    out.push({ ...webgl, software: webgl.available ? !named && webglIsSoftware() : undefined });
  }
  if (!wasm.available || wasm.msPerUpdate === null) out.push(await measureOne('cpu', target, wasmPaths, { warmupMs: budgetMs, timedMs: budgetMs, wholeLearner: true, wasmMs: null }));
  free();
  return out;
}

/** WebGL that is not timed: a software renderer, or one that took too long to open. */
function isSoftwareOrSlow(renderer: WebglRenderer): boolean {
  return renderer.kind === 'slow' || (renderer.kind === 'named' && SOFTWARE_RENDERER.test(renderer.name));
}

const SOFTWARE_RENDERER = /swiftshader|llvmpipe|software/i;
/** How long opening a bare WebGL context may take before WebGL is left out (tens of ms on a GPU). */
const WEBGL_OPEN_BUDGET_MS = 500;

type WebglRenderer = { kind: 'named'; name: string } | { kind: 'none' } | { kind: 'slow' };

/** The WebGL renderer's name from a bare context in a throwaway worker, before tfjs sets WebGL up. */
function webglRenderer(budgetMs = WEBGL_OPEN_BUDGET_MS): Promise<WebglRenderer> {
  if (typeof Worker === 'undefined') return Promise.resolve({ kind: 'none' });
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./webglRenderer.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      resolve({ kind: 'none' });
      return;
    }
    const done = (r: WebglRenderer) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(r);
    };
    const timer = setTimeout(() => done({ kind: 'slow' }), budgetMs);
    worker.onmessage = (e: MessageEvent<string | null>) => done(typeof e.data === 'string' ? { kind: 'named', name: e.data } : { kind: 'none' });
    worker.onerror = () => done({ kind: 'none' });
  });
}

/** True when the active WebGL context renders in software (SwiftShader, llvmpipe). */
function webglIsSoftware(): boolean {
  try {
    const gl = (tf.backend() as unknown as { gpgpu?: { gl?: WebGLRenderingContext } }).gpgpu?.gl;
    if (!gl) return false;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    return SOFTWARE_RENDERER.test(renderer);
  } catch {
    return false;
  }
}

let adapterAnswer: ReturnType<typeof webgpuAdapterInfo> | null = null;

/**
 * The WebGPU adapter, asked for once per worker. Asked again at Start (the run's own plan), a
 * software adapter answered only after the GPU process had finished the probe's cut-short WebGPU
 * work: 3.9 s after a probe on a fresh profile (SwiftShader, load 9), all of it before the run began.
 */
function adapterInfo(): ReturnType<typeof webgpuAdapterInfo> {
  adapterAnswer ??= webgpuAdapterInfo();
  return adapterAnswer;
}

/** Where this device's measurements are kept: the adapter, the cores and the browser. */
async function deviceKey(): Promise<string> {
  const adapter = await adapterInfo();
  const nav = globalThis.navigator as { hardwareConcurrency?: number; userAgent?: string } | undefined;
  return `${adapter?.description ?? 'no-webgpu'}|${adapter?.software ? 'sw' : 'hw'}|${nav?.hardwareConcurrency ?? 0}|${nav?.userAgent ?? ''}`;
}

const DB = 'parl-backend-probe';
const STORE = 'measurements';
/** Cached measurements older than this are measured again (a browser update can change the picture). */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

function openDb(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
  });
}

async function cached(key: string): Promise<BackendMeasurement[] | null> {
  const db = await openDb();
  if (!db) return null;
  return new Promise((resolve) => {
    const req = db.transaction(STORE).objectStore(STORE).get(key);
    req.onsuccess = () => {
      const v = req.result as { at: number; measurements: BackendMeasurement[] } | undefined;
      resolve(v && Date.now() - v.at < MAX_AGE_MS ? v.measurements : null);
      db.close();
    };
    req.onerror = () => {
      resolve(null);
      db.close();
    };
  });
}

async function keep(key: string, measurements: BackendMeasurement[]): Promise<void> {
  const db = await openDb();
  if (!db) return;
  await new Promise<void>((resolve) => {
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put({ at: Date.now(), measurements }, key);
    tx.oncomplete = () => resolve();
    tx.onerror = () => resolve();
  });
  db.close();
}

const inPage = new Map<string, BackendMeasurement[]>();
/** The measurements of the last probe in this page, whole or stopped: the best known so far. */
let lastMeasured: BackendMeasurement[] | null = null;
/** The probe measuring now, if any. */
let measuring: ProbeStop | null = null;

/** Stops the probe measuring now after the backend it is timing; false when none is. */
export function interruptProbe(): boolean {
  if (!measuring) return false;
  measuring.request();
  return true;
}

export interface AutoPlanOptions {
  /** Called once the timings other CPU work would skew are done (see measureBackends). */
  cpuFree?: () => void;
  /**
   * Never measure: answer from the measurements of this learner when there are some, else with
   * the best backend known so far (a run that started while a probe was measuring).
   */
  knownSoFar?: boolean;
}

/** The order and the badge's line for a set of measurements. */
function planFrom(measurements: BackendMeasurement[], note: string): AutoPlan {
  const choice = chooseMeasuredBackend(measurements);
  const measured = measurements.filter((m) => m.msPerUpdate !== null && m.available).map((m) => m.name);
  return { order: [choice.name, ...measured.filter((n) => n !== choice.name)], reason: `${choice.reason}${note}` };
}

/** The measured plan for "auto" for this config's learner: measured now, or from the cache. */
export async function measuredAutoPlan(config: ExperimentConfig, wasmPaths: string | undefined, options: AutoPlanOptions = {}): Promise<AutoPlan> {
  const cpuFree = options.cpuFree ?? (() => undefined);
  const target = probeTargetFor(config);
  const stop = new ProbeStop();
  measuring = stop;
  try {
    const device = await Promise.race([deviceKey(), stop.asked]);
    const key = device === 'stopped' ? null : `${device}|${target.key}`;
    const known = key === null ? null : (inPage.get(key) ?? (await cached(key).catch(() => null)));
    const batch = `; measured on a batch of ${target.batch}`;
    if (known) {
      cpuFree();
      inPage.set(key as string, known);
      lastMeasured = known;
      return planFrom(known, `${batch} (kept from an earlier probe on this device)`);
    }
    if (options.knownSoFar || stop.requested) {
      cpuFree();
      const soFar = lastMeasured?.some((m) => m.available && m.msPerUpdate !== null) ? lastMeasured : null;
      if (soFar) return planFrom(soFar, ' (the best known so far: the run started while the probe was measuring)');
      return { order: ['wasm'], reason: 'wasm: the run started before any backend was measured, and wasm is never far from the fastest for networks this small' };
    }
    const measurements = await measureBackends(target, wasmPaths, PROBE_BUDGET_MS, cpuFree, stop);
    lastMeasured = measurements;
    const whole = !stop.requested;
    // A probe cut short by a run is not kept: the next one measures every backend.
    if (whole && key) {
      inPage.set(key, measurements);
      void keep(key, measurements).catch(() => undefined);
    }
    return planFrom(measurements, `${batch}${whole ? '' : ' (the run started before the GPU backends were timed)'}`);
  } finally {
    if (measuring === stop) measuring = null;
  }
}
