// The learner Web Worker: runs the training loop (tfjs, WebGPU when available) and spawns the
// actor workers, so the page's main thread only renders.
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend, setAutoPlan } from '../core/backend';
import { webgpuMemory } from '../core/webgpuBufferPool';
import { resolveExperiment, type ExperimentConfig } from '../config/config';
import { descriptorOf } from '../config/registry';
import { interruptProbe, measuredAutoPlan, type AutoPlanOptions } from './backendProbe';
import { setActorSpawner } from '../core/remote/spawner';
import { MEMORY_DEBUG_CHANNEL, MEMORY_DEBUG_FLAG, type ClusterLearnerApi, type LearnerApi, type MemoryDebugRecord } from './learnerProtocol';
import type { BackendRecord, RunRecord } from '../runs/records';
import { TrainingRun } from '../engine/trainer';
import { watchEpisode } from '../engine/watch';
import { browserSpawner, coolActorWorkers, warmActorWorkers } from './browserSpawner';
import { joinAsClusterLearner, type WorkerClusterLearner } from '../cluster/tabLearner';
import { urgentRecords } from './urgentRecords';

setActorSpawner(browserSpawner);
const wasmPaths = new URL(`${import.meta.env.BASE_URL}tfjs-wasm/`, self.location.origin).href;
const FLUSH_MS = 100;
const LAST_FLUSH_MS = 5_000;
/** How often the learner sends a look inside its network (weights, activations, policy heatmap). */
const INSPECT_EVERY_MS = 2_000;
/** The default preset: its update rule is loaded ahead of a run, and its actor count kept warm until the page says otherwise. */
const DEFAULT_SETTINGS = resolveExperiment('quickstart').settings;
/** Actor workers kept started between runs: the page's experiment's count, then the last run's (a run with more spawns the rest). */
let warmCount = DEFAULT_SETTINGS.actors;

/** Starts the warm actor workers (again), unless a run or a cluster holds the learner. */
function warmActors(): void {
  if (current || cluster) return;
  warmActorWorkers(warmCount, wasmPaths);
  // Its update rule too (a module of its own): loaded now, the run's import of it is instant.
  void descriptorOf(DEFAULT_SETTINGS.algorithm).load?.().catch(() => undefined);
}

let current: TrainingRun | null = null;
/** The cluster this worker trains with (its actors come from the cluster's hosts), or null. */
let cluster: WorkerClusterLearner | null = null;
/** The backend the current run chose: a probe during a run reports it and never switches. */
let runBackend: BackendRecord | null = null;

/**
 * "auto" follows a measured plan: the learner of `config` timed on each backend (cached per
 * device and learner). Before any run the page's probe times the page's experiment.
 */
function planAuto(config: ExperimentConfig, options: AutoPlanOptions = {}): Promise<void> {
  if (config.settings.backend !== 'auto') return Promise.resolve();
  // One probe at a time: two would switch backends under each other's timings.
  planning = planning.then(async () => {
    try {
      setAutoPlan(await measuredAutoPlan(config, wasmPaths, options));
    } catch {
      // No plan: "auto" keeps the usual order.
      setAutoPlan(null);
    }
  });
  return planning;
}
let planning: Promise<void> = Promise.resolve();

const api: LearnerApi = {
  async probe(preferred, actors, config) {
    if (actors !== undefined && Number.isFinite(actors)) warmCount = actors;
    if (current && runBackend) return runBackend;
    // The actor workers start loading once the probe's timings that they would skew are done and
    // the learner's own backend is set up (the page probes once, after its first paint). The
    // page's own experiment is measured, so that its first run finds its learner measured.
    const measured = config ?? resolveExperiment('quickstart', actors !== undefined && Number.isFinite(actors) ? { actors } : {});
    if (preferred === 'auto' && !current) await planAuto(measured, { cpuFree: warmActors });
    // A run started meanwhile: its backend is the answer.
    if (current && runBackend) return runBackend;
    const choice = await chooseBackend({ preferred, wasmPaths });
    warmActors();
    return { type: 'backend', ...choice };
  },

  async start(config, onRecords, options = {}) {
    if (current) throw new Error('a run is already in progress; stop it first');
    // A probe still measuring stops after the backend it is timing, and the run starts at once on
    // the best backend known so far (its badge says so).
    const interrupted = interruptProbe();
    await planAuto(config, { knownSoFar: interrupted });
    if (current) throw new Error('a run is already in progress; stop it first');
    // Batch records so the page gets at most about 10 updates a second; a record after a quiet
    // spell (the run's first ones) or one the page shows at once (urgentRecords.ts) goes at once
    // instead of waiting for the timer.
    const isUrgent = urgentRecords(config.settings['run.targetReturn']);
    let pending: RunRecord[] = [];
    let lastFlush = -Infinity;
    const flush = async () => {
      if (pending.length === 0) return;
      lastFlush = performance.now();
      const out = pending;
      pending = [];
      await onRecords(out);
    };
    const timer = setInterval(() => void flush(), FLUSH_MS);
    current = new TrainingRun(
      config,
      (record) => {
        if (record.type === 'backend') runBackend = record;
        pending.push(record);
        if (isUrgent(record) || performance.now() - lastFlush >= FLUSH_MS) void flush();
      },
      { wasmPaths },
      { changes: options.changes ?? [], inspectEveryMs: INSPECT_EVERY_MS },
    );
    try {
      return await current.run();
    } finally {
      clearInterval(timer);
      // The callback has its own message port, so nothing orders its messages with this call's
      // reply: wait until the page has the last records (the summary, the final weights) before
      // the run is reported over, but never for long (a page that cannot answer would hold the
      // worker in this run for good).
      await Promise.race([flush().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, LAST_FLUSH_MS))]);
      current = null;
      runBackend = null;
      // The run's actors are gone; start the next run's now, while nothing trains.
      warmCount = config.settings.actors;
      warmActors();
    }
  },
  pause: () => current?.pause(),
  resume: () => current?.resume(),
  step: () => current?.step(),
  stop: () => current?.stop(),
  async watch(config, checkpoint) {
    // Watching sets up its own small backend, which would pull a running learner off its own.
    if (current) throw new Error('stop the run first');
    return watchEpisode(config, checkpoint, wasmPaths);
  },
  async change(key, value) {
    if (!current) throw new Error('no run is in progress');
    current.change(key, value);
  },
  async crashActor(index) {
    if (!current) throw new Error('no run is in progress');
    await current.crashActor(index);
  },
};

const clusterApi: ClusterLearnerApi = {
  async clusterLearn(options, onReport) {
    // A run keeps the spawner its pool started with: switching under it would mix the two.
    if (current) throw new Error('stop the run first: a run keeps the actors it started with');
    await cluster?.leave(browserSpawner);
    cluster = null;
    // The cluster's hosts run the actors: the workers kept for local runs are not needed.
    coolActorWorkers();
    cluster = await joinAsClusterLearner(options, onReport);
  },
  async clusterLeave() {
    if (current) throw new Error('stop the run first: a run keeps the actors it started with');
    await cluster?.leave(browserSpawner);
    cluster = null;
    warmActors();
  },
};

Comlink.expose({ ...api, ...clusterApi });

// The memory debug hook (see learnerProtocol.ts): only in a worker the page named for it.
if (self.name.includes(MEMORY_DEBUG_FLAG)) {
  const channel = new BroadcastChannel(MEMORY_DEBUG_CHANNEL);
  channel.onmessage = (ev: MessageEvent) => {
    // Before a backend is chosen, tf.memory() would start one of its own: answer only after.
    if ((ev.data !== 'memory?' && ev.data !== 'memory after gc?') || !tf.getBackend()) return;
    // With Chromium's --js-flags=--expose-gc: collect first, so WebGPU objects that only garbage
    // holds (bind groups, command buffers) are let go in the GPU process too.
    if (ev.data === 'memory after gc?') (globalThis as { gc?: () => void }).gc?.();
    let m: ReturnType<typeof tf.memory>;
    try {
      m = tf.memory();
    } catch {
      return; // a backend still initialising
    }
    const record: MemoryDebugRecord = {
      type: 'memory',
      at: performance.now(),
      backend: tf.getBackend(),
      tensors: m.numTensors,
      dataBuffers: m.numDataBuffers,
      bytes: m.numBytes,
      webgpu: webgpuMemory(),
    };
    channel.postMessage(record);
  };
}
