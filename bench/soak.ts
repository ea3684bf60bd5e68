/**
 * soak: the playground page trains one preset for `--minutes` (default 10) in headless Chromium
 * (Debian's, with the SwiftShader WebGPU flags of the e2e tests), served by `vite preview` from a
 * fresh `vite build` into .vite/soak-dist (`--dist` another folder; `--build false` reuses it). Every
 * `--every` seconds (default 10) it samples, after a forced GC (`--gc false`: none), the page's JS
 * heap, the learner's tensors and the webgpu buffer pool (the memory debug hook of a page opened
 * with `?debug=memory`, see src/workers/learnerProtocol.ts), and the RSS of Chromium's GPU process
 * (with its anonymous and shared-memory parts) and renderer processes (/proc). `--set key=value,...`
 * adds settings to the run's link: `--set actors=1,envsPerActor=1` slows QuickStart on wasm so that
 * one run, not runs started again, covers most of the soak (its 5M-step budget, the settings' most,
 * lasted about 8 minutes here at a load average of 40). A run that reaches its budget is started
 * again; samples taken between two runs are kept but not judged.
 * `--heap-snapshots true` takes a heap snapshot of the page at the end of the warm-up and at the end
 * and lists what grew between them (bench/soakHeap.ts). After the warm-up (`--warmup`
 * minutes, default 2) each figure is flat when every later sample is within 10% of the first one.
 *
 * `--control bare-webgpu|bare-tfjs` runs a control loop instead of the app, in the same Chromium
 * with the same flags (bench/soakControl.ts; `--parts` picks what each step does,
 * `--tf-flags` sets tfjs flags), to tell growth of Chromium's own from tfjs's and from the app's.
 *
 *   npm run bench -- soak [--backend wasm|webgpu] [--minutes 10] [--preset quickstart] [--set k=v,...] [--warmup 2] [--gc false]
 *   npm run bench -- soak --control bare-webgpu|bare-tfjs [--parts ...] [--tf-flags K=v,...] [--minutes 10]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, startPreview } from './previewServer';
import { resolveExperiment } from '../src/config/config';
import { getPreset } from '../src/config/presets';
import { encodeExperiment } from '../src/config/urlState';
import { budgetKey, isSwarm } from '../src/config/watchable';
import { presetSettingChanges } from '../src/cli/args';
import { MEMORY_DEBUG_CHANNEL, type MemoryDebugRecord } from '../src/workers/learnerProtocol';
import { markdownTable, type Benchmark } from './types';
import { BARE_TFJS_EXTRA_PARTS, BARE_TFJS_PARTS, BARE_WEBGPU_EXTRA_PARTS, BARE_WEBGPU_PARTS, CONTROL_KINDS, isControlKind, parseParts, serveControl, type ControlPart, type ControlKind, type ControlStats } from './soakControl';
import { heapGrowth, heapGrowthTable, readHeapSnapshot, summarizeHeap, takeHeapSnapshot, type HeapGrowth } from './soakHeap';
import type { Page } from '@playwright/test';

const PORT = 4181;
const OUT_DIR = '.vite/soak-dist';
/** The e2e tests' Chromium flags (tests/e2e/playwright.config.ts): SwiftShader gives WebGPU without a GPU. */
const FLAGS = [
  '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run',
  '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader',
];
/** Within this share of the first sample after the warm-up counts as flat. */
const FLAT_WITHIN = 0.1;

export interface SoakSample {
  /** Seconds since training (or the control loop) started. */
  t: number;
  /** The page's JS heap, used (a control page only relays: its loop runs in a worker). */
  jsHeapMiB: number;
  tensors: number | null;
  /** tfjs-webgpu's buffer manager: bytes allocated (in use + free pool), MiB. */
  gpuPoolMiB: number | null;
  gpuPoolUsedMiB: number | null;
  freeBuffers: number | null;
  pipelines: number | null;
  gpuProcessMiB: number | null;
  /** The GPU process's RSS split: anonymous memory, shared memory (transfer buffers, mapped GPU buffers), files. */
  gpuAnonMiB: number | null;
  gpuShmemMiB: number | null;
  gpuFileMiB: number | null;
  rendererMiB: number | null;
  /** Env steps of the app's run, or steps of a control loop. */
  envSteps: number;
  load1: number;
  /** False for a sample taken while a finished run was being started again. */
  running: boolean;
}

/** Parent pid of `pid` from /proc/<pid>/stat (the field after the parenthesised name). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let p: number | null = parentOf(pid), hops = 0; p !== null && p > 1 && hops < 16; p = parentOf(p), hops++) if (p === ancestor) return true;
  return false;
}

/** Resident memory of a set of processes, MiB: VmRSS and its parts (anonymous, file-backed, shared memory). */
export interface ProcessMemory {
  rss: number;
  anon: number;
  file: number;
  shmem: number;
}

/** VmRSS, RssAnon, RssFile and RssShmem (MiB) from the text of /proc/<pid>/status; null without VmRSS. */
export function parseProcStatus(text: string): ProcessMemory | null {
  const kib = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  const rss = kib('VmRSS');
  if (rss === null) return null;
  return { rss: rss / 1024, anon: (kib('RssAnon') ?? 0) / 1024, file: (kib('RssFile') ?? 0) / 1024, shmem: (kib('RssShmem') ?? 0) / 1024 };
}

/**
 * Summed memory (MiB) of this process's Chromium children whose command line has `--type=<type>`
 * (other people's browsers on a shared machine are not ours, so ancestry decides); null when none.
 */
export function chromiumMemoryMiB(type: string, ancestor = process.pid): ProcessMemory | null {
  let sum: ProcessMemory | null = null;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      // Chromium rewrites its process title: its arguments may be joined by spaces, not NULs.
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).includes(`--type=${type}`) || !descendsFrom(pid, ancestor)) continue;
      const m = parseProcStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) sum = sum ? { rss: sum.rss + m.rss, anon: sum.anon + m.anon, file: sum.file + m.file, shmem: sum.shmem + m.shmem } : m;
    } catch {
      // the process ended while we looked
    }
  }
  return sum;
}

/** Summed RSS (MiB) of this process's Chromium children of `--type=<type>`; null when none. */
export function chromiumRssMiB(type: string, ancestor = process.pid): number | null {
  return chromiumMemoryMiB(type, ancestor)?.rss ?? null;
}

export interface Flatness {
  /** Samples after the warm-up. */
  n: number;
  first: number;
  last: number;
  /** Largest |x - first| / first over the samples after the warm-up. */
  maxDeviation: number;
  /** Least-squares slope per minute, in the figure's unit. */
  slopePerMinute: number;
  flat: boolean;
}

/** Whether `values` (sampled at times `t`, seconds) stay within FLAT_WITHIN of the first one. */
export function flatness(t: number[], values: number[]): Flatness | null {
  if (values.length < 2 || values[0] === 0) return null;
  const first = values[0];
  const maxDeviation = Math.max(...values.map((v) => Math.abs(v - first) / Math.abs(first)));
  const mt = t.reduce((a, b) => a + b, 0) / t.length;
  const mv = values.reduce((a, b) => a + b, 0) / values.length;
  const sxx = t.reduce((a, x) => a + (x - mt) ** 2, 0);
  const sxy = t.reduce((a, x, i) => a + (x - mt) * (values[i] - mv), 0);
  return { n: values.length, first, last: values[values.length - 1], maxDeviation, slopePerMinute: sxx > 0 ? (60 * sxy) / sxx : 0, flat: maxDeviation <= FLAT_WITHIN };
}

const MEASURES: { key: keyof SoakSample; label: string; unit: string }[] = [
  { key: 'jsHeapMiB', label: "page's JS heap (used)", unit: 'MiB' },
  { key: 'tensors', label: 'learner tensors (tf.memory)', unit: '' },
  { key: 'gpuProcessMiB', label: 'GPU process RSS', unit: 'MiB' },
  { key: 'gpuAnonMiB', label: 'GPU process RSS: anonymous', unit: 'MiB' },
  { key: 'gpuShmemMiB', label: 'GPU process RSS: shared memory', unit: 'MiB' },
  { key: 'rendererMiB', label: 'renderer processes RSS (page + workers)', unit: 'MiB' },
  { key: 'gpuPoolMiB', label: 'tfjs-webgpu buffers allocated', unit: 'MiB' },
  { key: 'pipelines', label: 'tfjs-webgpu pipelines', unit: '' },
];

/** What one sample reads from the page under test, besides the JS heap and /proc. */
interface PageProbe {
  running: boolean;
  tensors: number | null;
  gpuPoolMiB: number | null;
  gpuPoolUsedMiB: number | null;
  freeBuffers: number | null;
  pipelines: number | null;
  steps: number;
}

/** The page a soak watches: the app training a preset, or a control loop. */
interface SoakTarget {
  /** One line: what ran, for the table's caption. */
  what: string;
  /** Reads the page (and starts a run that ended again); throws when the page is broken. */
  probe(): Promise<PageProbe>;
  stop(): Promise<void>;
  restarts: number;
}

interface TargetOptions {
  page: Page;
  base: string;
  gc: boolean;
  flags: Record<string, string>;
  started: () => number;
}

const mib = (bytes: number | undefined | null) => (bytes === undefined || bytes === null ? null : bytes / 2 ** 20);

/** `--tf-flags NAME=value,...`: key=value pairs, `true`/`false` and numbers typed (the settings' `--set` is presetSettingChanges). */
export function parseKeyValues(flag: string, text: string | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (!text) return out;
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`soak: ${flag} expects key=value pairs separated by commas, got "${pair}"`);
    const key = pair.slice(0, eq).trim();
    const raw = pair.slice(eq + 1).trim();
    out[key] = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  return out;
}

async function appTarget({ page, base, gc, flags, started }: TargetOptions, backend: string, preset: string): Promise<SoakTarget> {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('console', (msg) => void (msg.type() === 'error' && errors.push(`console.error: ${msg.text()}`)));
  // A budget that outlasts the soak where it can; a run that ends anyway is started again.
  const { algorithm } = resolveExperiment(preset).settings;
  const overrides: Record<string, unknown> = isSwarm(algorithm) ? { [budgetKey(algorithm)]: 100_000 } : { 'run.envSteps': 5_000_000, 'run.stopAtTarget': false };
  const changed = presetSettingChanges(preset, flags.set);
  Object.assign(overrides, changed, { backend });
  const config = resolveExperiment(preset, overrides);
  await page.goto(`${base}?debug=memory#x=${encodeExperiment(config, { autostart: true })}`);
  await page.getByTestId('status').filter({ hasText: 'running' }).waitFor({ timeout: 300_000 });
  const ask = (): Promise<MemoryDebugRecord | null> =>
    page.evaluate(
      ({ name, question }) =>
        new Promise<MemoryDebugRecord | null>((resolve) => {
          const channel = new BroadcastChannel(name);
          // A learner busy in a long update answers late; a missing answer is a gap, not an error.
          const timer = setTimeout(() => (channel.close(), resolve(null)), 20_000);
          channel.onmessage = (ev: MessageEvent<MemoryDebugRecord>) => {
            if (ev.data?.type !== 'memory') return;
            clearTimeout(timer);
            channel.close();
            resolve(ev.data);
          };
          channel.postMessage(question);
        }),
      { name: MEMORY_DEBUG_CHANNEL, question: gc ? 'memory after gc?' : 'memory?' },
    );
  const settings = Object.entries(changed).map(([k, v]) => `${k}=${String(v)}`);
  const target: SoakTarget = {
    what: `${preset}${settings.length ? ` (${settings.join(', ')})` : ''} on ${backend}`,
    restarts: 0,
    async probe() {
      const status = await page
        .getByTestId('status')
        .textContent({ timeout: 60_000 })
        .catch(async (err: unknown) => {
          // Say what the page shows instead (a panel's error message, say).
          const shown = await page.evaluate(() => document.body.innerText).catch(() => '(no answer)');
          const shot = join(tmpdir(), 'soak-failure');
          await page.screenshot({ path: `${shot}.png`, fullPage: true }).catch(() => undefined);
          writeFileSync(`${shot}.txt`, `${page.url()}\n\nerrors:\n${errors.join('\n')}\n\nthe page shows:\n${shown}\n`);
          const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
          // One line: the CLI prints only the first line of an error.
          throw new Error(`soak: no run status after ${started().toFixed(0)} s (${why}); ${errors.length} page error(s); what the page shows: ${shot}.txt and .png`);
        });
      const running = status === 'running';
      if (status === 'done' || status === 'stopped') {
        target.restarts += 1;
        await page.getByTestId('start').click();
      } else if (status !== 'running' && status !== 'starting' && status !== 'paused') {
        throw new Error(`soak: the run ended in "${status}": ${(await page.getByTestId('notices').allInnerTexts()).join(' | ')}`);
      }
      const mem = await ask();
      return {
        running,
        tensors: mem?.tensors ?? null,
        gpuPoolMiB: mib(mem?.webgpu?.numBytesAllocated),
        gpuPoolUsedMiB: mib(mem?.webgpu?.numBytesUsed),
        freeBuffers: mem?.webgpu?.numFreeBuffers ?? null,
        pipelines: mem?.webgpu?.pipelines ?? null,
        steps: Number(await page.getByTestId('progress').getAttribute('aria-valuenow', { timeout: 60_000 })),
      };
    },
    async stop() {
      await page.getByTestId('stop').click();
    },
  };
  return target;
}

async function controlTarget({ page, base, gc, flags }: TargetOptions, kind: ControlKind, parts: readonly ControlPart[]): Promise<SoakTarget> {
  await page.goto(base);
  const status = page.locator('#status');
  await status.filter({ hasText: /running|error/ }).waitFor({ timeout: 120_000 });
  const first = await status.textContent();
  const tfFlags = flags['tf-flags'];
  if (first !== 'running') throw new Error(`soak: the control page says "${first}"`);
  return {
    what: `control ${kind} (${kind === 'bare-webgpu' ? ['dispatch', 'readback', ...parts].join(' + ') : parts.join(' + ') || 'nothing'}${tfFlags ? `; tfjs flags ${tfFlags}` : ''})`,
    restarts: 0,
    async probe() {
      const stats = await page.evaluate((collect) => {
        const ask = (window as Window & { __soakAsk?: (gc: boolean) => Promise<ControlStats> }).__soakAsk;
        if (!ask) throw new Error('the control page has no __soakAsk');
        return ask(collect);
      }, gc);
      if (stats.error) throw new Error(`soak: the control loop failed after ${stats.steps} steps: ${stats.error}`);
      if (stats.wrong > 0) throw new Error(`soak: the control loop read back wrong values in ${stats.wrong} of ${stats.steps} steps`);
      return { running: true, tensors: stats.tensors, gpuPoolMiB: mib(stats.poolBytes), gpuPoolUsedMiB: mib(stats.poolUsedBytes), freeBuffers: null, pipelines: stats.pipelines, steps: stats.steps };
    },
    async stop() {
      await page.close();
    },
  };
}

export const soakBenchmark: Benchmark = {
  name: 'soak',
  description:
    'The page trains for --minutes (10) on --backend (webgpu), or a bare control loop runs (--control bare-webgpu|bare-tfjs): JS heap, tensors and GPU-process memory every 10 s, flat within 10% after a warm-up',
  help: {
    seeds: null,
    flags: [
      { name: 'minutes', value: 'M', text: 'how long it runs (default 10)' },
      { name: 'warmup', value: 'M', text: 'minutes before the samples are judged, below --minutes (default 2)' },
      { name: 'every', value: 'S', text: 'seconds between samples, at least 1 (default 10)' },
      { name: 'backend', value: 'NAME', text: 'the learner backend of the page: webgpu, wasm, webgl, cpu or auto (default webgpu)' },
      { name: 'preset', value: 'NAME', text: 'the preset the page trains (default quickstart)' },
      { name: 'set', value: 'key=value,...', text: "settings added to the run's link, e.g. actors=1,envsPerActor=1" },
      { name: 'gc', value: 'false', text: 'sample without forcing a GC first (default: a GC before each sample)' },
      { name: 'heap-snapshots', value: 'true', text: 'a heap snapshot of the page after the warm-up and at the end, and what grew between them' },
      { name: 'dist', value: 'DIR', text: 'the build folder (default .vite/soak-dist)' },
      { name: 'build', value: 'false', text: 'reuse the build in --dist instead of running vite build first' },
      { name: 'port', value: 'N', text: `the server's port (default ${PORT})` },
      { name: 'control', value: CONTROL_KINDS.join('|'), text: 'run a bare control loop in the same Chromium instead of the app' },
      { name: 'parts', value: 'a,b|default|none', text: `with --control: what each step of the loop does; bare-webgpu (dispatch and readback always): ${[...BARE_WEBGPU_PARTS, ...BARE_WEBGPU_EXTRA_PARTS].join(', ')} (default ${BARE_WEBGPU_PARTS.join(',')}); bare-tfjs: ${[...BARE_TFJS_PARTS, ...BARE_TFJS_EXTRA_PARTS].join(', ')} (default ${BARE_TFJS_PARTS.join(',')})` },
      { name: 'tf-flags', value: 'K=v,...', text: 'with --control: tfjs flags set before the backend starts' },
    ],
  },
  async run({ flags }) {
    const minutes = Number(flags.minutes ?? 10);
    const warmup = Number(flags.warmup ?? 2);
    const every = Number(flags.every ?? 10);
    const backend = flags.backend ?? 'webgpu';
    const preset = flags.preset ?? 'quickstart';
    const control = flags.control;
    if (!(minutes > 0) || !(warmup >= 0) || warmup >= minutes || !(every >= 1)) throw new Error('soak: need --minutes > --warmup >= 0 and --every >= 1');
    if (control !== undefined && !isControlKind(control)) throw new Error(`soak: unknown control "${control}" (known: ${CONTROL_KINDS.join(', ')})`);
    const parts = control ? parseParts(control, flags.parts) : [];
    if (!['webgpu', 'wasm', 'webgl', 'cpu', 'auto'].includes(backend)) throw new Error(`soak: unknown backend "${backend}"`);
    if (!getPreset(preset)) throw new Error(`soak: unknown preset "${preset}"`);
    const snapshots = flags['heap-snapshots'] === 'true';
    const port = Number(flags.port ?? PORT);
    let stopServer: () => void;
    if (control) {
      const server = await serveControl(control, parts, port, parseKeyValues('--tf-flags', flags['tf-flags']));
      stopServer = () => void server.close();
    } else {
      // Its own build folder (ignored by git), so an e2e run serving dist/ meanwhile is not disturbed.
      // `--dist`: another build folder, so a second soak can build while one serves the first.
      const dist = flags.dist ?? OUT_DIR;
      buildApp(dist, flags.build === 'false');
      stopServer = (await startPreview(port, dist)).stop;
    }
    const base = `http://127.0.0.1:${port}/`;
    const { chromium } = await import('@playwright/test');
    // `--gc false`: sample without forcing a GC in the page and the learner worker first.
    const gc = flags.gc !== 'false';
    const samples: SoakSample[] = [];
    const loadStart = loadavg()[0];
    let target: SoakTarget | undefined;
    const heapFiles: string[] = [];
    let growth: HeapGrowth[] = [];
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: gc ? [...FLAGS, '--js-flags=--expose-gc'] : FLAGS, headless: true }).catch((err: unknown) => {
      stopServer();
      throw err;
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      let crashed = false;
      page.on('crash', () => (crashed = true));
      let started = Date.now();
      const options: TargetOptions = { page, base, gc, flags, started: () => (Date.now() - started) / 1000 };
      target = control ? await controlTarget(options, control, parts) : await appTarget(options, backend, preset);
      const cdp = await context.newCDPSession(page);
      started = Date.now();
      const end = started + minutes * 60_000;
      let lastTime = 0;
      for (let next = started; next <= end; next += every * 1000) {
        // A sample that took longer than the interval skips the ones it overran.
        if (Date.now() > next + every * 1000) continue;
        await page.waitForTimeout(Math.max(0, next - Date.now()));
        if (crashed) throw new Error(`soak: the page crashed after ${((Date.now() - started) / 1000).toFixed(0)} s`);
        const probe = await target.probe();
        // The live heap, not where the GC sawtooth happens to be: collect first.
        if (gc) await cdp.send('HeapProfiler.collectGarbage');
        const heap = await cdp.send('Runtime.getHeapUsage');
        const gpu = chromiumMemoryMiB('gpu-process');
        const sample: SoakSample = {
          t: (Date.now() - started) / 1000,
          jsHeapMiB: heap.usedSize / 2 ** 20,
          tensors: probe.tensors,
          gpuPoolMiB: probe.gpuPoolMiB,
          gpuPoolUsedMiB: probe.gpuPoolUsedMiB,
          freeBuffers: probe.freeBuffers,
          pipelines: probe.pipelines,
          gpuProcessMiB: gpu?.rss ?? null,
          gpuAnonMiB: gpu?.anon ?? null,
          gpuShmemMiB: gpu?.shmem ?? null,
          gpuFileMiB: gpu?.file ?? null,
          rendererMiB: chromiumRssMiB('renderer'),
          envSteps: probe.steps,
          load1: loadavg()[0],
          running: probe.running,
        };
        samples.push(sample);
        process.stderr.write(`soak ${JSON.stringify(sample)}\n`);
        // The page's heap at the end of the warm-up and at the end, to compare (`--heap-snapshots true`).
        const lastSample = next + every * 1000 > end;
        if (snapshots && ((lastTime < warmup * 60 && sample.t >= warmup * 60) || lastSample)) {
          const file = join(tmpdir(), `soak-heap-${heapFiles.length}.heapsnapshot`);
          await takeHeapSnapshot(cdp, file);
          heapFiles.push(file);
          process.stderr.write(`soak heap snapshot at ${sample.t.toFixed(0)} s: ${file}\n`);
        }
        lastTime = sample.t;
      }
      await target.stop();
      await context.close();
    } finally {
      await browser.close();
      stopServer();
    }
    if (heapFiles.length >= 2) growth = heapGrowth(summarizeHeap(readHeapSnapshot(heapFiles[0])), summarizeHeap(readHeapSnapshot(heapFiles[heapFiles.length - 1])));
    const after = samples.filter((s) => s.t >= warmup * 60 && s.running);
    const rows: (string | number)[][] = [];
    const verdicts: Record<string, Flatness | null> = {};
    for (const m of MEASURES) {
      const kept = after.filter((s) => s[m.key] !== null);
      const f = flatness(
        kept.map((s) => s.t),
        kept.map((s) => s[m.key] as number),
      );
      verdicts[m.key] = f;
      if (!f) continue;
      const fmt = (x: number) => `${x.toFixed(m.unit ? 1 : 0)}${m.unit ? ` ${m.unit}` : ''}`;
      rows.push([m.label, `${fmt(f.first)} → ${fmt(f.last)}`, `${(f.maxDeviation * 100).toFixed(1)} %`, `${f.slopePerMinute >= 0 ? '+' : ''}${f.slopePerMinute.toFixed(2)}${m.unit ? ` ${m.unit}` : ''}/min`, f.flat ? 'yes' : 'NO']);
    }
    const loads = samples.map((s) => s.load1);
    const last = samples[samples.length - 1];
    const what = target?.what ?? (control ? `control ${control}` : `${preset} on ${backend}`);
    const stepsLine = control
      ? `${(last?.envSteps ?? 0).toLocaleString('en-US')} loop steps (${((last?.envSteps ?? 0) / Math.max(1, last?.t ?? 1)).toFixed(0)}/s)`
      : `${(last?.envSteps ?? 0).toLocaleString('en-US')} env steps (or updates) at the end, ${target?.restarts ?? 0} restart(s) of a run that ended`;
    const table = [
      markdownTable(['measure (after the warm-up)', 'first → last sample', 'largest deviation', 'trend', 'flat within 10%'], rows),
      '',
      `${what} for ${minutes} min, sampled every ${every} s (${samples.length} samples${gc ? ', each after a forced GC in the page and the worker' : ', no forced GC'}); warm-up: the first ${warmup} min left out (${samples.filter((s) => s.t < warmup * 60).length} samples), and ${samples.filter((s) => s.t >= warmup * 60 && !s.running).length} sample(s) taken between runs; ` +
        `${stepsLine}; ` +
        `1-min load average ${loadStart.toFixed(1)} at the start, ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} while sampling, on ${availableParallelism()} core(s).`,
      ...(growth.length > 0 ? ['', 'What the page heap gained between the two snapshots (self size, by constructor):', '', heapGrowthTable(growth)] : []),
    ].join('\n');
    return { table, figures: { preset, backend, control: control ?? null, parts: control ? parts : null, minutes, warmup, every, gc, restarts: target?.restarts ?? 0, verdicts, samples, heapFiles, heapGrowth: growth } };
  },
};
