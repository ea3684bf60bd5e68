/**
 * soak: the playground page trains one preset for `--minutes` (default 10) in headless Chromium
 * (Debian's, with the SwiftShader WebGPU flags of the e2e tests), served by `vite preview` from a
 * fresh `vite build` into .vite/soak-dist (`--build false` reuses it). Every `--every` seconds
 * (default 10) it samples, after a forced GC (`--gc false`: none), the page's JS heap, the learner's tensors and
 * the webgpu buffer pool (the memory debug hook of a page opened with `?debug=memory`, see
 * src/workers/learnerProtocol.ts), and the RSS of Chromium's GPU process and renderer processes
 * (/proc). A run that reaches its budget is started again (wasm trains QuickStart's 5M steps in
 * about 2 minutes); samples taken between two runs are kept but not judged. After the warm-up
 * (`--warmup` minutes, default 2) each figure is flat when every later sample is within 10% of
 * the first one after it.
 *
 *   npm run bench -- soak [--backend wasm|webgpu] [--minutes 10] [--preset quickstart] [--warmup 2] [--gc false]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveExperiment } from '../../config/config';
import { getPreset } from '../../config/presets';
import { encodeExperiment } from '../../config/urlState';
import { MEMORY_DEBUG_CHANNEL, type MemoryDebugRecord } from '../../workers/learnerProtocol';
import { markdownTable, type Benchmark } from './types';

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
  /** Seconds since training started. */
  t: number;
  jsHeapMiB: number;
  tensors: number | null;
  /** tfjs-webgpu's buffer manager: bytes allocated (in use + free pool), MiB. */
  gpuPoolMiB: number | null;
  gpuPoolUsedMiB: number | null;
  freeBuffers: number | null;
  pipelines: number | null;
  gpuProcessMiB: number | null;
  rendererMiB: number | null;
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

/**
 * Summed RSS (MiB) of this process's Chromium children whose command line has `--type=<type>`
 * (other people's browsers on a shared machine are not ours, so ancestry decides); null when none.
 */
export function chromiumRssMiB(type: string, ancestor = process.pid): number | null {
  let kib = 0;
  let found = false;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      // Chromium rewrites its process title: its arguments may be joined by spaces, not NULs.
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).includes(`--type=${type}`) || !descendsFrom(pid, ancestor)) continue;
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) {
        kib += Number(m[1]);
        found = true;
      }
    } catch {
      // the process ended while we looked
    }
  }
  return found ? kib / 1024 : null;
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

async function waitForServer(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer at ${url}`);
}

const MEASURES: { key: keyof SoakSample; label: string; unit: string }[] = [
  { key: 'jsHeapMiB', label: "page's JS heap (used)", unit: 'MiB' },
  { key: 'tensors', label: 'learner tensors (tf.memory)', unit: '' },
  { key: 'gpuProcessMiB', label: 'GPU process RSS', unit: 'MiB' },
  { key: 'rendererMiB', label: 'renderer processes RSS (page + workers)', unit: 'MiB' },
  { key: 'gpuPoolMiB', label: 'tfjs-webgpu buffers allocated', unit: 'MiB' },
  { key: 'pipelines', label: 'tfjs-webgpu pipelines', unit: '' },
];

export const soakBenchmark: Benchmark = {
  name: 'soak',
  description: 'The page trains for --minutes (10) on --backend (webgpu): JS heap, tensors and GPU-process memory every 10 s, flat within 10% after a warm-up',
  async run({ flags }) {
    const minutes = Number(flags.minutes ?? 10);
    const warmup = Number(flags.warmup ?? 2);
    const every = Number(flags.every ?? 10);
    const backend = flags.backend ?? 'webgpu';
    const preset = flags.preset ?? 'quickstart';
    if (!(minutes > 0) || !(warmup >= 0) || warmup >= minutes || !(every >= 1)) throw new Error('soak: need --minutes > --warmup >= 0 and --every >= 1');
    if (!['webgpu', 'wasm', 'webgl', 'cpu', 'auto'].includes(backend)) throw new Error(`soak: unknown backend "${backend}"`);
    if (!getPreset(preset)) throw new Error(`soak: unknown preset "${preset}"`);
    // Its own build folder (ignored by git), so an e2e run serving dist/ meanwhile is not disturbed.
    if (!existsSync(`${OUT_DIR}/index.html`) || flags.build !== 'false') {
      const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', OUT_DIR], { stdio: 'inherit' });
      if (b.status !== 0) throw new Error('vite build failed');
    }
    const port = Number(flags.port ?? PORT);
    const server: ChildProcess = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', OUT_DIR], { stdio: 'ignore', detached: true });
    const base = `http://127.0.0.1:${port}/`;
    const { chromium } = await import('@playwright/test');
    // `--gc false`: sample without forcing a GC in the page and the learner worker first.
    const gc = flags.gc !== 'false';
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: gc ? [...FLAGS, '--js-flags=--expose-gc'] : FLAGS, headless: true });
    const samples: SoakSample[] = [];
    let restarts = 0;
    const loadStart = loadavg()[0];
    try {
      await waitForServer(base, 30_000);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      let crashed = false;
      page.on('crash', () => (crashed = true));
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
      page.on('console', (msg) => void (msg.type() === 'error' && errors.push(`console.error: ${msg.text()}`)));
      // A budget that outlasts the soak where it can; a run that ends anyway is started again.
      const overrides: Record<string, unknown> = preset.startsWith('swarm') ? { 'swarm.updates': 100_000 } : { 'run.envSteps': 5_000_000, 'run.stopAtTarget': false };
      overrides.backend = backend;
      const config = resolveExperiment(preset, overrides);
      await page.goto(`${base}?debug=memory#x=${encodeExperiment(config, { autostart: true })}`);
      await page.getByTestId('status').filter({ hasText: 'running' }).waitFor({ timeout: 300_000 });
      const cdp = await context.newCDPSession(page);
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
      const started = Date.now();
      const end = started + minutes * 60_000;
      const mib = (bytes: number | undefined) => (bytes === undefined ? null : bytes / 2 ** 20);
      for (let next = started; next <= end; next += every * 1000) {
        // A sample that took longer than the interval skips the ones it overran.
        if (Date.now() > next + every * 1000) continue;
        await page.waitForTimeout(Math.max(0, next - Date.now()));
        if (crashed) throw new Error(`soak: the page crashed after ${((Date.now() - started) / 1000).toFixed(0)} s`);
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
            throw new Error(`soak: no run status after ${((Date.now() - started) / 1000).toFixed(0)} s (${why}); ${errors.length} page error(s); what the page shows: ${shot}.txt and .png`);
          });
        const running = status === 'running';
        if (status === 'done' || status === 'stopped') {
          restarts += 1;
          await page.getByTestId('start').click();
        } else if (status !== 'running' && status !== 'starting' && status !== 'paused') {
          throw new Error(`soak: the run ended in "${status}": ${(await page.getByTestId('notices').allInnerTexts()).join(' | ')}`);
        }
        // The live heap, not where the GC sawtooth happens to be: collect first.
        if (gc) await cdp.send('HeapProfiler.collectGarbage');
        const [heap, mem] = await Promise.all([cdp.send('Runtime.getHeapUsage'), ask()]);
        const sample: SoakSample = {
          t: (Date.now() - started) / 1000,
          jsHeapMiB: heap.usedSize / 2 ** 20,
          tensors: mem?.tensors ?? null,
          gpuPoolMiB: mib(mem?.webgpu?.numBytesAllocated),
          gpuPoolUsedMiB: mib(mem?.webgpu?.numBytesUsed),
          freeBuffers: mem?.webgpu?.numFreeBuffers ?? null,
          pipelines: mem?.webgpu?.pipelines ?? null,
          gpuProcessMiB: chromiumRssMiB('gpu-process'),
          rendererMiB: chromiumRssMiB('renderer'),
          envSteps: Number(await page.getByTestId('progress').getAttribute('aria-valuenow', { timeout: 60_000 })),
          load1: loadavg()[0],
          running,
        };
        samples.push(sample);
        process.stderr.write(`soak ${JSON.stringify(sample)}\n`);
      }
      await page.getByTestId('stop').click();
      await context.close();
    } finally {
      await browser.close();
      if (server.pid) process.kill(-server.pid);
    }
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
    const table = [
      markdownTable(['measure (after the warm-up)', 'first → last sample', 'largest deviation', 'trend', 'flat within 10%'], rows),
      '',
      `${preset} on ${backend} for ${minutes} min, sampled every ${every} s (${samples.length} samples${gc ? ', each after a forced GC in the page and the learner worker' : ', no forced GC'}); warm-up: the first ${warmup} min left out (${samples.filter((s) => s.t < warmup * 60).length} samples), and ${samples.filter((s) => s.t >= warmup * 60 && !s.running).length} sample(s) taken between runs; ` +
        `${(samples[samples.length - 1]?.envSteps ?? 0).toLocaleString('en-US')} env steps (or updates) at the end, ${restarts} restart(s) of a run that ended; ` +
        `1-min load average ${loadStart.toFixed(1)} at the start, ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} while sampling, on ${availableParallelism()} core(s).`,
    ].join('\n');
    return { table, figures: { preset, backend, minutes, warmup, every, gc, restarts, verdicts, samples } };
  },
};
