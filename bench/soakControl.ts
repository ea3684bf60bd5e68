/**
 * Control pages for the soak (`npm run bench -- soak --control bare-webgpu|bare-tfjs`): the same
 * Chromium with the same flags, but a loop with no app around it, so that growth of the GPU
 * process can be put on Chromium (Dawn, SwiftShader), on tfjs-webgpu, or on the app.
 *
 * - bare-webgpu: raw WebGPU in a dedicated worker (where the app's learner runs), doing per step
 *   what tfjs-webgpu does per op and per read: an upload through a buffer created mapped
 *   (MAP_WRITE | COPY_SRC, destroyed after the submit, as tfjs's uploadToGPU), a queue.writeBuffer
 *   into a uniform buffer, a bind group made for the dispatch, one dispatch of a pipeline made once,
 *   a copy into a MAP_READ staging buffer (one, reused, as tfjs's pool hands back) and mapAsync.
 *   `--parts` picks which of upload, uniform, bindgroup run (the dispatch and readback always do),
 *   and adds barrier (workgroup memory and barriers in the shader) or pipelines (48 of them in turn).
 * - bare-tfjs: tfjs 4.22 with its webgpu backend in a dedicated worker: each step (`--parts`
 *   train,forward) one Adam update of a 4-64-2 tanh MLP on a fixed batch (the quickstart network)
 *   and a read of every weight with data(), as the learner does after an update, then one forward
 *   pass with a read of its output. A fixed batch keeps tfjs's buffer pool flat by construction;
 *   the parts vary (a new batch size each step) and trim (our pool trim) add what the app does.
 *   `--tf-flags WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE=1,...` sets tfjs flags before the backend starts.
 *
 * The pages are served from strings by a small node http server, with tfjs's bundles read from
 * node_modules: nothing is added to public/ or to the app.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { bundleIife, packageDist, serveFiles, type ServedFile } from './benchPages';

export const CONTROL_KINDS = ['bare-webgpu', 'bare-tfjs'] as const;
export type ControlKind = (typeof CONTROL_KINDS)[number];

/** The default parts of a bare-webgpu step (what tfjs does per op), and two more that tfjs's shaders have and the default lacks. */
export const BARE_WEBGPU_PARTS = ['upload', 'uniform', 'bindgroup'] as const;
export const BARE_WEBGPU_EXTRA_PARTS = ['barrier', 'pipelines'] as const;
/** A bare-tfjs step: an Adam update with a read of every weight, and a forward pass with a read of its output. */
export const BARE_TFJS_PARTS = ['train', 'forward'] as const;
/**
 * More for bare-tfjs: vary (the batch changes every step, 256 to 1023 rows, as REINFORCE's does),
 * trim (after each step, the same rule as trimWebgpuBufferPool in src/core/webgpuBufferPool.ts), sync
 * (the loss read with dataSync, as readScalars in src/core/tensorUtils.ts does, not with data(),
 * and each step two tensors made on the GPU read with dataSync and checked value by value) and
 * ours (src/core/webgpuBufferPool.ts itself, bundled for the page, sets up the backend as the app does:
 * enableWebgpuSizeClasses, and trim calls trimWebgpuBufferPool).
 */
export const BARE_TFJS_EXTRA_PARTS = ['vary', 'trim', 'sync', 'ours'] as const;
export type ControlPart =
  | (typeof BARE_WEBGPU_PARTS)[number]
  | (typeof BARE_WEBGPU_EXTRA_PARTS)[number]
  | (typeof BARE_TFJS_PARTS)[number]
  | (typeof BARE_TFJS_EXTRA_PARTS)[number];

export function isControlKind(x: string): x is ControlKind {
  return (CONTROL_KINDS as readonly string[]).includes(x);
}

/** `--parts upload,uniform`: the parts of a control step to run; the kind's default ones when absent or "default". */
export function parseParts(kind: ControlKind, flag: string | undefined): ControlPart[] {
  const defaults: readonly ControlPart[] = kind === 'bare-webgpu' ? BARE_WEBGPU_PARTS : BARE_TFJS_PARTS;
  const known: readonly ControlPart[] = kind === 'bare-webgpu' ? [...BARE_WEBGPU_PARTS, ...BARE_WEBGPU_EXTRA_PARTS] : [...BARE_TFJS_PARTS, ...BARE_TFJS_EXTRA_PARTS];
  if (flag === undefined || flag === 'default') return [...defaults];
  if (flag === 'none') return [];
  const parts = flag.split(',').map((p) => p.trim());
  const unknown = parts.find((p) => !(known as readonly string[]).includes(p));
  if (unknown !== undefined) throw new Error(`soak: unknown --parts entry "${unknown}" for ${kind} (known: ${known.join(', ')}, or default, none)`);
  return known.filter((p) => parts.includes(p));
}

/** What a control worker reports when asked (`window.__soakAsk(gc)` in the page). */
export interface ControlStats {
  steps: number;
  /** Steps whose read-back values were not the ones the step wrote (0 when the GPU does what we ask). */
  wrong: number;
  error: string | null;
  tensors: number | null;
  poolBytes: number | null;
  poolUsedBytes: number | null;
  pipelines: number | null;
}

/** The page: starts the worker and answers `__soakAsk(gc)` with the worker's next stats message. */
export const CONTROL_PAGE = `<!doctype html><meta charset="utf-8"><title>soak control</title><body>
<p id="status">starting</p>
<script>
const worker = new Worker('/loop.js');
let waiting = [];
worker.onmessage = (ev) => {
  if (ev.data && ev.data.type === 'started') document.getElementById('status').textContent = 'running';
  if (ev.data && ev.data.type === 'stats') { const w = waiting; waiting = []; for (const r of w) r(ev.data.stats); }
};
worker.onerror = (ev) => { document.getElementById('status').textContent = 'error: ' + ev.message; };
window.__soakAsk = (gc) => new Promise((resolve) => { waiting.push(resolve); worker.postMessage(gc ? 'stats after gc' : 'stats'); });
</script>`;

/** Shared by both workers: answers 'stats' / 'stats after gc' with the loop's counters. */
const STATS_HANDLER = `
let steps = 0, wrong = 0, error = null;
let extra = () => ({ tensors: null, poolBytes: null, poolUsedBytes: null, pipelines: null });
self.onmessage = (ev) => {
  if (ev.data === 'stats after gc' && typeof self.gc === 'function') self.gc();
  self.postMessage({ type: 'stats', stats: { steps, wrong, error, ...extra() } });
};
const fail = (e) => { error = String(e && e.message || e); };
`;

/**
 * The bare WebGPU worker. Each step adds 1 to every element of a 1024-float storage buffer (or, with
 * the upload part, first writes \`steps\` to it), so the read-back value is known: element 0 must be
 * steps + 1 with the upload and the previous value + 1 without it.
 */
export function bareWebgpuWorker(parts: readonly ControlPart[]): string {
  return `${STATS_HANDLER}
const PARTS = new Set(${JSON.stringify(parts)});
const N = 1024, BYTES = N * 4;
// 'barrier': a workgroup tree reduction through workgroup memory (as tfjs's matmul and reduce
// shaders do) whose sum is 0, so the step still adds exactly 1. 'pipelines': 48 pipelines that
// differ only in a constant, one after another, as tfjs's many programs are.
const shader = (k) => PARTS.has('barrier') ? \`
struct U { step: u32, n: u32, pad0: u32, pad1: u32 };
@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@group(0) @binding(1) var<uniform> u: U;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  var v = 0.0;
  if (id.x < u.n) { v = x[id.x]; }
  tile[li] = (v - v) * \${k}.0;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (li < s) { tile[li] = tile[li] + tile[li + s]; }
    workgroupBarrier();
  }
  if (id.x < u.n) { x[id.x] = v + 1.0 + tile[0]; }
}\` : \`
struct U { step: u32, n: u32, pad0: u32, pad1: u32 };
@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@group(0) @binding(1) var<uniform> u: U;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  if (id.x < u.n) { x[id.x] = x[id.x] + 1.0 + 0.0 * \${k}.0; }
}\`;
(async () => {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const device = await adapter.requestDevice();
  device.onuncapturederror = (ev) => fail(ev.error.message);
  const pipelines = Array.from({ length: PARTS.has('pipelines') ? 48 : 1 }, (_, k) => device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: shader(k + 1) }), entryPoint: 'main' } }));
  const storage = device.createBuffer({ size: BYTES, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const uniform = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const staging = device.createBuffer({ size: BYTES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(uniform, 0, new Uint32Array([0, N, 0, 0]));
  const makeBindGroup = (pipeline) => device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: storage } }, { binding: 1, resource: { buffer: uniform } }] });
  const onceBindGroups = pipelines.map(makeBindGroup);
  extra = () => ({ tensors: null, poolBytes: null, poolUsedBytes: null, pipelines: pipelines.length });
  self.postMessage({ type: 'started' });
  let last = 0;
  for (;;) {
    const encoder = device.createCommandEncoder();
    let upload = null;
    if (PARTS.has('upload')) {
      upload = device.createBuffer({ size: BYTES, usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
      new Float32Array(upload.getMappedRange()).fill(steps);
      upload.unmap();
      encoder.copyBufferToBuffer(upload, 0, storage, 0, BYTES);
    }
    if (PARTS.has('uniform')) device.queue.writeBuffer(uniform, 0, new Uint32Array([steps, N, 0, 0]));
    const k = steps % pipelines.length;
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipelines[k]);
    pass.setBindGroup(0, PARTS.has('bindgroup') ? makeBindGroup(pipelines[k]) : onceBindGroups[k]);
    pass.dispatchWorkgroups(N / 64);
    pass.end();
    encoder.copyBufferToBuffer(storage, 0, staging, 0, BYTES);
    device.queue.submit([encoder.finish()]);
    if (upload) upload.destroy();
    await staging.mapAsync(GPUMapMode.READ);
    const v = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    const expected = upload ? steps + 1 : last + 1;
    if (v[0] !== expected || v[N - 1] !== expected) wrong += 1;
    last = v[0];
    steps += 1;
  }
})().catch(fail);
`;
}

/** The bare tfjs-webgpu worker (see the file comment). */
export function bareTfjsWorker(parts: readonly ControlPart[], tfFlags: Readonly<Record<string, string | number | boolean>> = {}): string {
  return `${STATS_HANDLER}
const PARTS = new Set(${JSON.stringify(parts)});
const TF_FLAGS = ${JSON.stringify(tfFlags)};
importScripts('/tf.min.js', '/tf-backend-webgpu.min.js');
if (PARTS.has('ours')) importScripts('/parl-backend.js');
const FIXED_BATCH = 512;
// The rule of trimWebgpuBufferPool (src/core/webgpuBufferPool.ts): past 16 MiB of free buffers, and more
// than the bytes in use, destroy every free buffer.
const trim = (bm) => {
  const free = bm.numBytesAllocated - bm.numBytesUsed;
  if (free <= Math.max(16 * 2 ** 20, bm.numBytesUsed)) return;
  let freed = 0;
  for (const list of bm.freeBuffers.values()) { for (const b of list) { freed += b.size; b.destroy(); } list.length = 0; }
  bm.numFreeBuffers = 0;
  bm.numBytesAllocated -= freed;
};
(async () => {
  for (const [key, value] of Object.entries(TF_FLAGS)) tf.env().set(key, value);
  if (!(await tf.setBackend('webgpu'))) throw new Error('tf.setBackend("webgpu") returned false');
  await tf.ready();
  if (PARTS.has('ours') && !parlBackend.enableWebgpuSizeClasses()) throw new Error('enableWebgpuSizeClasses() did nothing');
  const backend = tf.engine().backend;
  extra = () => ({ tensors: tf.memory().numTensors, poolBytes: backend.bufferManager.numBytesAllocated, poolUsedBytes: backend.bufferManager.numBytesUsed, pipelines: Object.keys(backend.pipelineCache).length });
  const w1 = tf.variable(tf.randomNormal([4, 64], 0, 0.5, 'float32', 1));
  const b1 = tf.variable(tf.zeros([64]));
  const w2 = tf.variable(tf.randomNormal([64, 2], 0, 0.5, 'float32', 2));
  const b2 = tf.variable(tf.zeros([2]));
  const weights = [w1, b1, w2, b2];
  const optimizer = tf.train.adam(0.001);
  const logits = (x) => tf.tanh(x.matMul(w1).add(b1)).matMul(w2).add(b2);
  // A seeded xorshift for the inputs: the same data every run.
  let s = 12345;
  const next = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return ((s >>> 0) / 4294967296) * 2 - 1; };
  const input = (rows) => { const a = new Float32Array(rows * 4); for (let i = 0; i < a.length; i++) a[i] = next(); return a; };
  self.postMessage({ type: 'started' });
  for (;;) {
    const rows = PARTS.has('vary') ? 256 + ((steps * 389) % 768) : FIXED_BATCH;
    const x = tf.tensor2d(input(rows), [rows, 4]);
    const actions = tf.tensor1d(Array.from({ length: rows }, (_, i) => i % 2), 'int32');
    if (PARTS.has('train')) {
      const cost = optimizer.minimize(() => tf.losses.softmaxCrossEntropy(tf.oneHot(actions, 2), logits(x)), true, weights);
      const loss = PARTS.has('sync') ? cost.dataSync()[0] : (await cost.data())[0];
      for (const w of weights) await w.data();
      if (!Number.isFinite(loss)) wrong += 1;
      cost.dispose();
    }
    if (PARTS.has('forward')) {
      const probs = tf.tidy(() => tf.softmax(logits(x)));
      const p = await probs.data();
      if (Math.abs(p[0] + p[1] - 1) > 1e-4) wrong += 1;
      probs.dispose();
    }
    tf.dispose([x, actions]);
    if (PARTS.has('trim')) PARTS.has('ours') ? parlBackend.trimWebgpuBufferPool() : trim(backend.bufferManager);
    // Sizes over tfjs's CPU hand-off (1000 elements), so the ops run on the GPU; 70001 floats span
    // one full 256 x 256 canvas, some full rows and part of a row.
    if (PARTS.has('sync')) {
      const n = [70001, 1500][steps % 2];
      const a = input(Math.ceil(n / 4)).subarray(0, n);
      const floats = tf.tensor1d(a);
      const doubled = tf.mul(floats, 2);
      const got = doubled.dataSync();
      const ints = Int32Array.from({ length: 1200 }, (_, i) => i * 7 - 4000);
      const intTensor = tf.tensor1d(ints, 'int32');
      const plusOne = tf.add(intTensor, 1);
      const gotInts = plusOne.dataSync();
      let ok = got.length === n && gotInts.length === ints.length;
      for (let i = 0; ok && i < n; i++) ok = got[i] === Math.fround(a[i] * 2);
      for (let i = 0; ok && i < ints.length; i++) ok = gotInts[i] === ints[i] + 1;
      if (!ok) wrong += 1;
      tf.dispose([floats, doubled, intTensor, plusOne]);
    }
    steps += 1;
  }
})().catch(fail);
`;
}

/** Serves the control page and its worker on 127.0.0.1:`port`; resolves once it listens. */
export async function serveControl(kind: ControlKind, parts: readonly ControlPart[], port: number, tfFlags: Readonly<Record<string, string | number | boolean>> = {}): Promise<Server> {
  const js = (body: string): ServedFile => ({ type: 'text/javascript; charset=utf-8', body });
  const files: Record<string, ServedFile> = {
    '/': { type: 'text/html; charset=utf-8', body: CONTROL_PAGE },
    '/loop.js': js(kind === 'bare-webgpu' ? bareWebgpuWorker(parts) : bareTfjsWorker(parts, tfFlags)),
  };
  if (kind === 'bare-tfjs') {
    // The tfjs the app uses, from node_modules.
    files['/tf.min.js'] = js(readFileSync(packageDist('@tensorflow/tfjs', 'tf.min.js'), 'utf8'));
    files['/tf-backend-webgpu.min.js'] = js(readFileSync(packageDist('@tensorflow/tfjs-backend-webgpu', 'tf-backend-webgpu.min.js'), 'utf8'));
  }
  if (kind === 'bare-tfjs' && parts.includes('ours')) files['/parl-backend.js'] = js(await bundleIife(new URL('../src/core/webgpuBufferPool.ts', import.meta.url), 'parlBackend'));
  return serveFiles(files, port);
}
