/**
 * The measured probe behind "auto" (browser learner worker): time one forward pass plus one
 * optimiser update of the run's own network at its batch size on each backend this browser has,
 * then pick with `chooseMeasuredBackend`. Measurements are cached in IndexedDB per device (the
 * WebGPU adapter, the CPU count, the browser) and model shape, so a page probes each shape once.
 *
 * Budget: wasm is timed first (a few ms an update here); a software GPU adapter gets at most
 * PROBE_BUDGET_MS for its warm-up and about 20 wasm updates' worth for each timed update, after
 * which the probe stops waiting and counts what it saw as a lower bound (SwiftShader takes
 * seconds to compile its first shaders); a hardware GPU gets a few seconds to warm up.
 */
import * as tf from '@tensorflow/tfjs';
import { activateBackend, webgpuAdapterInfo, type AutoPlan, type BackendName } from '../core/backend';
import { chooseMeasuredBackend, type BackendMeasurement } from '../core/backendChoice';
import { buildModel, type MlpSpec } from '../core/mlp';
import type { ExperimentConfig } from '../config/config';
import { modelSpecFor } from '../config/modelSpec';
import { descriptorOf } from '../config/registry';

export interface ProbeShape {
  spec: MlpSpec;
  batch: number;
  /** Cache key of the shape. */
  key: string;
}

const PROBE_BUDGET_MS = 400;
const TIMED_RUNS = 3;

function setting(config: ExperimentConfig, key: string, fallback: number): number {
  const v = (config.settings as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** The network the run's learner trains and the batch one of its updates sees. */
export function probeShapeFor(config: ExperimentConfig): ProbeShape {
  const s = config.settings;
  const algorithm = s.algorithm;
  const perRound = s.actors * setting(config, 'envsPerActor', 1);
  const T = setting(config, 'sampling.segmentLength', 128);
  const spec: MlpSpec = modelSpecFor(config, descriptorOf(algorithm).network ?? 'policy');
  let batch: number;
  if (algorithm === 'ppo') batch = (perRound * T) / setting(config, 'ppo.numMinibatches', 1);
  else if (algorithm === 'dqn') batch = setting(config, 'dqn.batchSize', 64);
  else if (algorithm === 'impala') batch = setting(config, 'sampling.segmentsPerBatch', 1) * setting(config, 'envsPerActor', 1) * T;
  else if (algorithm === 'a2c') batch = perRound * T;
  else batch = perRound * 128; // whole episodes (REINFORCE) or a population (ES): about this many steps
  batch = Math.max(16, Math.min(4096, Math.round(batch)));
  return { spec, batch, key: `${spec.kind ?? 'policy'}:${spec.obsDim}-${spec.hidden.join('-')}-${spec.numActions}:${spec.activation}:b${batch}` };
}

/** Resolves with `value`, or with 'late' after `ms` (the work goes on in the background). */
function within<T>(work: Promise<T>, ms: number): Promise<T | 'late'> {
  return Promise.race([work, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), Math.max(0, ms)))]);
}

/** One forward pass and one Adam step of `spec` at `batch`, on the active backend; resolves when the device is done. */
async function forwardAndUpdate(model: ReturnType<typeof buildModel>, x: tf.Tensor2D, optimizer: tf.Optimizer): Promise<void> {
  const forward = tf.tidy(() => Object.values(model.forward(x))[0]);
  const cost = optimizer.minimize(
    () => {
      const out = Object.values(model.forward(x));
      return tf.addN(out.map((t) => tf.mean(tf.square(t)))) as tf.Scalar;
    },
    true,
    model.variables(),
  );
  // Reading back waits for the device: what one update really costs.
  await Promise.all([forward.data(), cost?.data()]);
  forward.dispose();
  cost?.dispose();
}

async function measureOne(name: BackendName, shape: ProbeShape, wasmPaths: string | undefined, warmupBudgetMs: number, timedBudgetMs: number): Promise<BackendMeasurement> {
  const up = await activateBackend(name, wasmPaths);
  if (!up.ok) return { name, available: false, msPerUpdate: null, detail: up.detail };
  const model = buildModel(shape.spec, 1);
  const data = new Float32Array(shape.batch * shape.spec.obsDim);
  // Deterministic inputs in [-1, 1]: the values do not matter, only the shapes.
  for (let i = 0; i < data.length; i++) data[i] = ((i * 7919) % 2001) / 1000 - 1;
  const x = tf.tensor2d(data, [shape.batch, shape.spec.obsDim]);
  const optimizer = tf.train.adam(1e-4);
  const started = performance.now();
  try {
    // The first run compiles kernels (shaders on a GPU): not timed, but it counts against the budget.
    if ((await within(forwardAndUpdate(model, x, optimizer), warmupBudgetMs)) === 'late') {
      return { name, available: true, msPerUpdate: performance.now() - started, cutShort: true, detail: 'its first update did not finish within the probe' };
    }
    const times: number[] = [];
    for (let i = 0; i < TIMED_RUNS; i++) {
      const t0 = performance.now();
      if ((await within(forwardAndUpdate(model, x, optimizer), timedBudgetMs)) === 'late') {
        return { name, available: true, msPerUpdate: performance.now() - t0, cutShort: true, detail: 'one update took longer than the probe waits' };
      }
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { name, available: true, msPerUpdate: times[Math.floor(times.length / 2)] };
  } catch (err) {
    return { name, available: true, msPerUpdate: null, detail: `measuring failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    // Tensors still in use by a late GPU run are freed when it is done; tfjs allows that.
    x.dispose();
    optimizer.dispose();
    model.dispose();
  }
}

/**
 * Time the candidates: wasm first, then the GPU backends, then cpu only where wasm failed.
 * `cpuFree` is called once what is left to time cannot be skewed by other work on the CPU: after
 * wasm when the GPU backends here are software ones (their times are only lower bounds, far above
 * wasm's), else at the end.
 */
export async function measureBackends(shape: ProbeShape, wasmPaths: string | undefined, budgetMs = PROBE_BUDGET_MS, cpuFree: () => void = () => undefined): Promise<BackendMeasurement[]> {
  // The WebGL renderer is asked for at once, in its own worker, while wasm and WebGPU are timed here.
  const rendererAnswer = webglRenderer();
  const adapter = await adapterInfo();
  const out: BackendMeasurement[] = [];
  const wasm = await measureOne('wasm', shape, wasmPaths, budgetMs, budgetMs);
  out.push(wasm);
  const softwareOnly = wasm.msPerUpdate !== null && (!adapter || adapter.software) && isSoftwareOrSlow(await rendererAnswer);
  if (softwareOnly) cpuFree();
  // A GPU backend gets the budget for its warm-up (kernel compilation), and for each timed update
  // about 20 wasm updates' worth: enough to tell "much slower" without waiting for all of it.
  const wasmMs = wasm.msPerUpdate;
  const warmup = wasmMs !== null ? Math.min(budgetMs, Math.max(150, 40 * wasmMs)) : budgetMs * 2;
  const timed = wasmMs !== null ? Math.max(40, 20 * wasmMs) : budgetMs;
  // A hardware GPU may take seconds to compile its kernels once and still be the fastest after.
  const hardwareWarmup = 3_000;
  if (adapter) out.push({ ...(await measureOne('webgpu', shape, wasmPaths, adapter.software ? warmup : hardwareWarmup, timed)), software: adapter.software });
  else out.push({ name: 'webgpu', available: false, msPerUpdate: null, detail: 'no WebGPU adapter' });
  // Opening a WebGL context is synchronous, and on a software renderer it blocked this worker for
  // 7-13 s (SwiftShader, load 8), where no budget can stop it; so the renderer is asked first, from
  // a worker that can be given up on. A software renderer is never faster than wasm here.
  const renderer = await rendererAnswer;
  if (renderer.kind === 'slow') {
    out.push({ name: 'webgl', available: true, msPerUpdate: null, detail: `not timed: opening a WebGL context took over ${WEBGL_OPEN_BUDGET_MS} ms` });
  } else if (renderer.kind === 'named' && SOFTWARE_RENDERER.test(renderer.name)) {
    out.push({ name: 'webgl', available: true, msPerUpdate: null, software: true, detail: `not timed: ${renderer.name.includes('SwiftShader') ? 'SwiftShader, ' : ''}a software renderer` });
  } else {
    const webgl = await measureOne('webgl', shape, wasmPaths, warmup, timed);
    // A named renderer is already known to be hardware; otherwise ask tfjs's context.
    out.push({ ...webgl, software: webgl.available ? renderer.kind !== 'named' && webglIsSoftware() : undefined });
  }
  if (!wasm.available || wasm.msPerUpdate === null) out.push(await measureOne('cpu', shape, wasmPaths, budgetMs, budgetMs));
  if (!softwareOnly) cpuFree();
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

/**
 * The measured plan for "auto" for this config's network: measured now, or from the cache.
 * `cpuFree` is called once the timings other CPU work would skew are done (see measureBackends).
 */
export async function measuredAutoPlan(config: ExperimentConfig, wasmPaths: string | undefined, cpuFree: () => void = () => undefined): Promise<AutoPlan> {
  const shape = probeShapeFor(config);
  const key = `${await deviceKey()}|${shape.key}`;
  let measurements = inPage.get(key) ?? (await cached(key).catch(() => null));
  const fromCache = measurements !== null;
  if (!measurements) {
    measurements = await measureBackends(shape, wasmPaths, PROBE_BUDGET_MS, cpuFree);
    void keep(key, measurements).catch(() => undefined);
  } else {
    cpuFree();
  }
  inPage.set(key, measurements);
  const choice = chooseMeasuredBackend(measurements);
  const measured = measurements.filter((m) => m.msPerUpdate !== null && m.available).map((m) => m.name);
  const order = [choice.name, ...measured.filter((n) => n !== choice.name)];
  return { order, reason: `${choice.reason}; measured on a batch of ${shape.batch}${fromCache ? ' (kept from an earlier probe on this device)' : ''}` };
}
