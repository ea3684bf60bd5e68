/**
 * Where an update's time goes: `npm run bench -- profile --preset NAME [--set k=v,...] [--updates 20] [--skip 3]`.
 *
 * A real training run of the preset (learner on wasm, actors in worker threads as usual) with the
 * learner thread instrumented:
 *   - every tfjs kernel of the learner's backend is wrapped (count and time), and attributed to a
 *     phase: forward (the loss's forward pass inside tf.variableGrads), backward (the rest of
 *     variableGrads: the gradient kernels), optimizer (Optimizer.applyGradients), or other kernels
 *     (inference outside gradients: V(s) for GAE, central inference, metrics);
 *   - data movement: tensor uploads (backend.write), readbacks (readSync / read: count and time;
 *     on cpu and wasm this includes the typed-array paths' reads, copies out of the heap);
 *   - the optimizer's typed-array step (FusedAdam.clipAndApply on cpu/wasm), less what it counts above;
 *   - waiting: the learner thread's idle time (event-loop utilization), i.e. rollouts in the actors
 *     and the messages that bring them;
 *   - bookkeeping: the learner thread's busy time that is none of the above (GAE, segment joins,
 *     records, the loop).
 * The first `--skip` updates (warm-up, kernel compilation) are left out of the means.
 *
 * Then one rollout of one actor (the preset's envs per actor and segment length, in this thread):
 * env stepping, inference (tfjs kernels or the typed-array pass), and the segment's message
 * (structured clone, what postMessage copies).
 */
import { performance } from 'node:perf_hooks';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../src/core/backend';
import { FusedAdam } from '../src/core/fusedAdam';
import { resolveExperiment } from '../src/config/config';
import { modelSpecFor } from '../src/config/modelSpec';
import { RolloutActor, defaultFastPathMaxBatch } from '../src/engine/rolloutActor';
import { simdKernelsLoaded } from '../src/core/simd/kernels';
import { FastMlp } from '../src/core/fastMlp';
import { ActorCriticMlp, PolicyMlp, buildModel, type MlpSpec } from '../src/core/mlp';
import { TrainingRun } from '../src/engine/trainer';
import { VectorEnv } from '../src/envs/vectorEnv';
import { envSpec } from '../src/envs/registry';
import type { RunRecord } from '../src/runs/records';
import { nodePlatform } from '../src/cli/nodePlatform';
import { settingOverrides } from './engine';
import { markdownTable, type Benchmark } from './types';

type Phase = 'forward' | 'backward' | 'optimizer' | 'other';
const PHASES: Phase[] = ['forward', 'backward', 'optimizer', 'other'];

interface Tally {
  kernels: Record<Phase, { n: number; ms: number }>;
  uploads: { n: number; ms: number };
  readbacks: { n: number; ms: number };
  /** FusedAdam.clipAndApply's own work outside kernels, uploads and readbacks (its typed-array step on cpu/wasm). */
  optimizerArrays: { n: number; ms: number };
}

const emptyTally = (): Tally => ({
  kernels: { forward: { n: 0, ms: 0 }, backward: { n: 0, ms: 0 }, optimizer: { n: 0, ms: 0 }, other: { n: 0, ms: 0 } },
  uploads: { n: 0, ms: 0 },
  readbacks: { n: 0, ms: 0 },
  optimizerArrays: { n: 0, ms: 0 },
});

/** Loose views of tfjs internals the profiler wraps (not in the public typings). */
interface KernelConfigLike {
  kernelFunc: (...args: unknown[]) => unknown;
}
interface BackendLike {
  write?: (...args: unknown[]) => unknown;
  readSync?: (...args: unknown[]) => unknown;
  read?: (...args: unknown[]) => Promise<unknown>;
}
interface EngineLike {
  backend: BackendLike;
  gradients: (f: () => tf.Tensor, ...rest: unknown[]) => unknown;
}

/**
 * Instrument tfjs on the current backend; returns the live tally and an undo. Kernels nest (a
 * kernel may call others): only the outermost one is counted and timed.
 */
function instrument(): { tally: () => Tally; reset: () => void; undo: () => void } {
  let t = emptyTally();
  let phase: Phase = 'other';
  let depth = 0;
  const undo: (() => void)[] = [];
  for (const cfg of tf.getKernelsForBackend(tf.getBackend()) as unknown as KernelConfigLike[]) {
    const orig = cfg.kernelFunc;
    cfg.kernelFunc = (...args: unknown[]) => {
      if (depth > 0) return orig(...args);
      depth++;
      const s = performance.now();
      try {
        return orig(...args);
      } finally {
        depth--;
        const k = t.kernels[phase];
        k.n++;
        k.ms += performance.now() - s;
      }
    };
    undo.push(() => (cfg.kernelFunc = orig));
  }
  const engine = tf.engine() as unknown as EngineLike;
  const origGradients = engine.gradients;
  engine.gradients = function (f: () => tf.Tensor, ...rest: unknown[]) {
    const before = phase;
    try {
      return origGradients.call(
        this,
        () => {
          phase = 'forward';
          const y = f();
          phase = 'backward';
          return y;
        },
        ...rest,
      );
    } finally {
      phase = before;
    }
  };
  undo.push(() => (engine.gradients = origGradients));
  for (const Opt of [tf.AdamOptimizer, tf.RMSPropOptimizer, tf.SGDOptimizer, tf.MomentumOptimizer, FusedAdam]) {
    const proto = Opt.prototype as unknown as { applyGradients: (...a: unknown[]) => unknown };
    const orig = proto.applyGradients;
    proto.applyGradients = function (...a: unknown[]) {
      const before = phase;
      phase = 'optimizer';
      try {
        return orig.apply(this, a);
      } finally {
        phase = before;
      }
    };
    undo.push(() => (proto.applyGradients = orig));
  }
  // clipAndApply: its kernels (the tensor path) count as optimizer kernels; on cpu/wasm its typed-array step
  // is timed on its own, less the uploads, readbacks and kernels inside it (counted in their rows).
  const origClip = FusedAdam.prototype.clipAndApply;
  FusedAdam.prototype.clipAndApply = function (this: FusedAdam, ...a: Parameters<FusedAdam['clipAndApply']>) {
    const before = phase;
    phase = 'optimizer';
    const counted = () => t.uploads.ms + t.readbacks.ms + PHASES.reduce((sum, p) => sum + t.kernels[p].ms, 0);
    const start = performance.now();
    const inner = counted();
    try {
      return origClip.apply(this, a);
    } finally {
      t.optimizerArrays.n++;
      t.optimizerArrays.ms += performance.now() - start - (counted() - inner);
      phase = before;
    }
  };
  undo.push(() => (FusedAdam.prototype.clipAndApply = origClip));
  const backend = engine.backend;
  // backend.write with values is an upload; without (values null) it only allocates a kernel's output.
  const wrap = <K extends 'write' | 'readSync'>(name: K, into: () => { n: number; ms: number }, counts: (args: unknown[]) => boolean) => {
    const orig = backend[name];
    if (!orig) return;
    backend[name] = (...args: unknown[]) => {
      const s = performance.now();
      try {
        return orig.apply(backend, args);
      } finally {
        if (counts(args)) {
          const c = into();
          c.n++;
          c.ms += performance.now() - s;
        }
      }
    };
    undo.push(() => (backend[name] = orig));
  };
  wrap('write', () => t.uploads, (args) => args[0] != null);
  wrap('readSync', () => t.readbacks, () => true);
  const origRead = backend.read;
  if (origRead) {
    backend.read = async (...args: unknown[]) => {
      const s = performance.now();
      try {
        return await origRead.apply(backend, args);
      } finally {
        t.readbacks.n++;
        t.readbacks.ms += performance.now() - s;
      }
    };
    undo.push(() => (backend.read = origRead));
  }
  return { tally: () => t, reset: () => (t = emptyTally()), undo: () => undo.reverse().forEach((u) => u()) };
}

interface UpdateSample {
  wallMs: number;
  idleMs: number;
  tally: Tally;
}

/** Profile `updates` updates of a real run of the preset. */
async function profileUpdates(preset: string, overrides: Record<string, unknown>, updates: number, skip: number, seed: number): Promise<{ samples: UpdateSample[]; envStepsPerUpdate: number }> {
  const config = resolveExperiment(preset, { ...overrides, seed, backend: 'wasm' });
  const samples: UpdateSample[] = [];
  let prof: ReturnType<typeof instrument> | null = null;
  let last = { t: 0, elu: performance.eventLoopUtilization() };
  let firstSteps = 0;
  let lastSteps = 0;
  let run: TrainingRun | null = null;
  const onRecord = (r: RunRecord) => {
    if (r.type !== 'update') return;
    // The backend is chosen inside the run: instrument at the first record, measure from the next.
    if (!prof) prof = instrument();
    const now = performance.now();
    const elu = performance.eventLoopUtilization();
    if (r.update > skip + 1) {
      const d = performance.eventLoopUtilization(elu, last.elu);
      samples.push({ wallMs: now - last.t, idleMs: d.idle, tally: prof.tally() });
      lastSteps = r.envSteps;
    } else {
      firstSteps = r.envSteps;
    }
    prof.reset();
    last = { t: now, elu };
    if (samples.length >= updates) run?.stop();
  };
  run = new TrainingRun(config, onRecord, nodePlatform());
  try {
    await run.run();
  } finally {
    (prof as ReturnType<typeof instrument> | null)?.undo();
  }
  return { samples, envStepsPerUpdate: samples.length ? (lastSteps - firstSteps) / samples.length : 0 };
}

/** Env steps each part of the rollout profile is timed over (enough that a part is not a few ms of timer noise). */
const RO_STEPS = 200_000;

/** One actor's segment of the preset, timed piece by piece in this thread. */
async function profileRollout(preset: string, overrides: Record<string, unknown>, seed: number): Promise<(string | number)[][]> {
  const config = resolveExperiment(preset, { ...overrides, seed });
  const s = config.settings;
  const algo = String(s.algorithm);
  const kind = algo === 'dqn' ? 'q' : ['ppo', 'a2c', 'impala'].includes(algo) ? 'actorCritic' : null;
  if (!kind || s.inference === 'learner') return [];
  await chooseBackend({ preferred: 'wasm' });
  const numEnvs = s.envsPerActor;
  const T = s['sampling.segmentLength'];
  const spec = envSpec(s['env.id']);
  const reps = Math.max(3, Math.ceil(RO_STEPS / (T * numEnvs)));
  const rows: (string | number)[][] = [];
  const vec = new VectorEnv(s['env.id'], numEnvs);
  vec.reset(seed);
  const actions = new Int32Array(numEnvs);
  let started = performance.now();
  for (let r = 0; r < reps; r++) for (let t = 0; t < T; t++) vec.step(actions.map((_, i) => (t + i) % spec.numActions));
  const envMs = (performance.now() - started) / reps;
  const model = modelSpecFor(config, kind);
  for (const [label, maxBatch] of [
    ['tfjs wasm', 0],
    ['as the actor chooses', undefined],
  ] as const) {
    const actor = new RolloutActor({ envId: s['env.id'], numEnvs, seed, actorIndex: 0, model, backend: 'wasm', fastPathMaxBatch: maxBatch });
    await actor.init();
    actor.sampleSegment(null, 0, T); // warm up
    const prof = instrument();
    started = performance.now();
    let seg = actor.sampleSegment(null, 0, T);
    for (let r = 1; r < reps; r++) seg = actor.sampleSegment(null, 0, T);
    const totalMs = (performance.now() - started) / reps;
    const t = prof.tally();
    prof.undo();
    started = performance.now();
    for (let r = 0; r < reps; r++) structuredClone(seg);
    const messageMs = (performance.now() - started) / reps;
    const kernels = PHASES.reduce((a, p) => a + t.kernels[p].n, 0) / reps;
    const inferenceMs = inferenceAlone(model, numEnvs, T, seg.obs, numEnvs <= (maxBatch ?? defaultFastPathMaxBatch(simdKernelsLoaded())));
    rows.push([
      `${label}: ${numEnvs} envs x ${T} steps`,
      totalMs.toFixed(2),
      envMs.toFixed(2),
      (totalMs - envMs).toFixed(2),
      inferenceMs.toFixed(2),
      (totalMs - envMs - inferenceMs).toFixed(2),
      messageMs.toFixed(2),
      (kernels / T).toFixed(1),
      (t.readbacks.n / reps / T).toFixed(1),
      Math.round((T * numEnvs) / (totalMs / 1000)).toLocaleString('en-US'),
    ]);
    actor.dispose();
  }
  return rows;
}

/**
 * The segment's T forward passes alone (the actor's policy probabilities for `numEnvs` rows of the
 * segment's observations), as the actor computes them: typed arrays (`fast`) or tfjs wasm. What a
 * segment costs beyond this and the env steps is the sampling and the segment writing.
 */
function inferenceAlone(spec: MlpSpec, numEnvs: number, T: number, obs: Float32Array, fast: boolean): number {
  const rows = numEnvs * spec.obsDim;
  const net = buildModel(spec, 1);
  const typed = new FastMlp(spec);
  typed.setWeights(net.getWeights());
  const head = net instanceof ActorCriticMlp || net instanceof PolicyMlp ? net.policy : net.net;
  // A Q-network acts on its Q-values, a policy on softmax(logits), as RolloutActor.scores does.
  const q = spec.kind === 'q';
  const pass = (t: number): void => {
    const x = obs.subarray(t * rows, (t + 1) * rows);
    if (fast) {
      if (q) typed.forward(x, numEnvs);
      else typed.probabilities(x, numEnvs);
      return;
    }
    tf.tidy(() => {
      const input = tf.tensor2d(x, [numEnvs, spec.obsDim]);
      const out = head.apply(input);
      return (q ? out : tf.softmax(out)).dataSync();
    });
  };
  for (let t = 0; t < T; t++) pass(t); // warm up
  const reps = Math.max(3, Math.ceil(RO_STEPS / (T * numEnvs)));
  const started = performance.now();
  for (let r = 0; r < reps; r++) for (let t = 0; t < T; t++) pass(t);
  net.dispose();
  return (performance.now() - started) / reps;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export const profileBenchmark: Benchmark = {
  name: 'profile',
  description:
    'Where the time goes in one update of a preset (--preset NAME, --set key=value,... over it, --updates N, --skip warm-up updates): learner-thread ms per update in forward, backward and optimizer kernels, other kernels, uploads, readbacks, bookkeeping, and waiting for the actors (rollout + messages), with kernel and readback counts; then one actor segment split into env stepping, inference and the message',
  help: {
    seeds: 'the first seed given is the run\'s (default 1)',
    flags: [
      { name: 'preset', value: 'NAME', text: 'the preset to profile (default ppo-cartpole)' },
      { name: 'set', value: 'key=value,...', text: 'settings over the preset, checked as npm run train --set checks them' },
      { name: 'updates', value: 'N', text: 'updates to run (default 20)' },
      { name: 'skip', value: 'N', text: 'warm-up updates left out of the means (default 3)' },
    ],
  },
  async run({ seeds, flags }) {
    const preset = flags.preset ?? 'ppo-cartpole';
    const updates = Number(flags.updates ?? 20);
    const skip = Number(flags.skip ?? 3);
    const seed = seeds[0] ?? 1;
    const overrides = settingOverrides(flags.set);
    const { samples, envStepsPerUpdate } = await profileUpdates(preset, overrides, updates, skip, seed);
    const m = (f: (s: UpdateSample) => number) => mean(samples.map(f));
    const wall = m((s) => s.wallMs);
    const idle = m((s) => s.idleMs);
    const kernelMs = PHASES.map((p) => m((s) => s.tally.kernels[p].ms));
    const kernelN = PHASES.map((p) => m((s) => s.tally.kernels[p].n));
    const up = { ms: m((s) => s.tally.uploads.ms), n: m((s) => s.tally.uploads.n) };
    const rb = { ms: m((s) => s.tally.readbacks.ms), n: m((s) => s.tally.readbacks.n) };
    const opt = { ms: m((s) => s.tally.optimizerArrays.ms), n: m((s) => s.tally.optimizerArrays.n) };
    const busy = wall - idle;
    const bookkeeping = busy - kernelMs.reduce((a, b) => a + b, 0) - up.ms - rb.ms - opt.ms;
    const pct = (x: number) => `${((100 * x) / wall).toFixed(0)}%`;
    const rows: (string | number)[][] = [
      ...PHASES.map((p, i) => [`${p === 'other' ? 'other kernels (inference, metrics)' : `${p} kernels`}`, kernelMs[i].toFixed(1), pct(kernelMs[i]), kernelN[i].toFixed(0)]),
      ['uploads (tensor creation)', up.ms.toFixed(1), pct(up.ms), up.n.toFixed(0)],
      ['readbacks (on cpu/wasm also the typed-array paths\' reads: heap copies)', rb.ms.toFixed(1), pct(rb.ms), rb.n.toFixed(1)],
      ['optimizer on typed arrays (clipping and Adam, JS or wasm SIMD)', opt.ms.toFixed(1), pct(opt.ms), opt.n.toFixed(0)],
      ['bookkeeping (learner JS; PPO\'s fused loss included)', bookkeeping.toFixed(1), pct(bookkeeping), ''],
      ['waiting for actors (rollout + messages)', idle.toFixed(1), pct(idle), ''],
      ['**update, wall**', wall.toFixed(1), '100%', `${kernelN.reduce((a, b) => a + b, 0).toFixed(0)} kernels`],
    ];
    const rollout = await profileRollout(preset, overrides, seed);
    let table = `Preset \`${preset}\`${flags.set === undefined ? '' : ` with ${flags.set}`}, seed ${seed}, ${samples.length} updates after ${skip} warm-up, ${Math.round(envStepsPerUpdate)} env steps per update, ${Math.round((envStepsPerUpdate * 1000) / wall).toLocaleString('en-US')} env steps/s.\n\n`;
    table += markdownTable(['learner thread, per update', 'ms', 'share', 'calls'], rows);
    if (rollout.length) {
      table += `\n\n${markdownTable(['one actor segment', 'ms', 'env stepping ms', 'inference + sampling + writing ms', 'inference alone ms', 'sampling + writing ms (the rest)', 'message (structured clone) ms', 'kernels per step', 'readbacks per step', 'env steps/s'], rollout)}`;
    }
    return {
      table,
      figures: {
        preset,
        updates: samples.length,
        envStepsPerUpdate,
        wallMs: wall,
        idleMs: idle,
        bookkeepingMs: bookkeeping,
        kernels: Object.fromEntries(PHASES.map((p, i) => [p, { n: kernelN[i], ms: kernelMs[i] }])),
        uploads: up,
        readbacks: rb,
        optimizerArrays: opt,
        rollout,
      },
    };
  },
};
