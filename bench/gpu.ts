/**
 * `npm run bench -- gpu`: the learner's work on WebGPU against wasm, in headless Chromium, in a
 * dedicated worker as the app runs its learner: one PPO gradient step and one central-inference
 * pass at batch sizes 256 to 16k, for the ppo-cartpole network and a wider one (bench/gpuProbe.ts
 * does the timing). The table says which adapter WebGPU had: on a machine without a GPU it is
 * SwiftShader, the CPU, and the figures say nothing about a real GPU.
 *
 * Flags: --adapter hardware|swiftshader (default hardware: Chromium picks its adapter; swiftshader
 * forces the software one), --backends wasm,webgpu, --hidden 64,256, --batches 256,1024,4096,16384,
 * --repeats 5, --cell-budget-ms 5000 (a cell slower than this skips that backend's larger batches),
 * --timeout 1200 (seconds), --chromium PATH (default $CHROMIUM_PATH or /usr/bin/chromium).
 *
 * The page and worker are served from strings by a small http server, with tfjs's bundles and wasm
 * binaries read from node_modules; the probe is bundled by vite with tfjs as the global `tf`.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { bundleIife, packageDist, serveFiles, type ServedFile } from './benchPages';
import type { GpuProbeCell, GpuProbeOptions, GpuProbeResult } from './gpuProbe';
import { markdownTable, type Benchmark } from './types';

declare global {
  interface Window {
    __startGpuProbe?: (opts: GpuProbeOptions) => void;
    __gpuProbe?: GpuProbeResult | { error: string };
  }
}

const PORT = 4187;
const COMMON_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--enable-unsafe-webgpu', '--enable-features=Vulkan'];
const SWIFTSHADER_FLAGS = ['--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader'];

/** `--key 1,2,3` as positive integers, or the default; a clear error for anything else. */
export function positiveList(flag: string | undefined, name: string, fallback: number[]): number[] {
  if (flag === undefined) return fallback;
  const xs = flag.split(',').map((x) => Number(x.trim()));
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x <= 0)) throw new Error(`gpu: --${name} takes positive integers separated by commas, not "${flag}"`);
  return xs;
}

/** The options the probe gets, from the bench's flags. */
export function probeOptions(flags: Record<string, string>): GpuProbeOptions {
  const backends = (flags.backends ?? 'wasm,webgpu').split(',').map((b) => b.trim());
  for (const b of backends) if (!['wasm', 'webgpu', 'webgl', 'cpu'].includes(b)) throw new Error(`gpu: unknown backend "${b}" in --backends (wasm, webgpu, webgl, cpu)`);
  const [repeats] = positiveList(flags.repeats, 'repeats', [5]);
  const [cellBudgetMs] = positiveList(flags['cell-budget-ms'], 'cell-budget-ms', [5000]);
  return {
    backends,
    hidden: positiveList(flags.hidden, 'hidden', [64, 256]),
    batches: positiveList(flags.batches, 'batches', [256, 1024, 4096, 16384]),
    repeats,
    cellBudgetMs,
  };
}

/** One row per width and batch: each backend's ms, and webgpu against wasm where both ran. */
export function gpuTable(cells: GpuProbeCell[], backends: string[]): string {
  const keys = [...new Set(cells.map((c) => `${c.hidden}:${c.batch}`))];
  const cell = (b: string, key: string) => cells.find((c) => c.backend === b && `${c.hidden}:${c.batch}` === key);
  // undefined: the backend did not run (see the errors); null: skipped after a cell over the budget.
  const ms = (x: number | null | undefined) => (x === undefined ? 'not run' : x === null ? 'skipped' : x < 10 ? x.toFixed(2) : x.toFixed(1));
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null ? '–' : (a / b).toFixed(2));
  const rows = keys.map((key) => {
    const [hidden, batch] = key.split(':');
    const byBackend = backends.map((b) => cell(b, key));
    const wasm = cell('wasm', key);
    const gpu = cell('webgpu', key);
    return [
      `2×${hidden}`,
      Number(batch).toLocaleString('en-US'),
      ...byBackend.map((c) => ms(c?.learnMs)),
      ratio(gpu?.learnMs, wasm?.learnMs),
      ...byBackend.map((c) => ms(c?.inferMs)),
      ratio(gpu?.inferMs, wasm?.inferMs),
    ];
  });
  const header = ['hidden', 'batch', ...backends.map((b) => `${b}: PPO step ms`), 'webgpu ÷ wasm', ...backends.map((b) => `${b}: inference ms`), 'webgpu ÷ wasm'];
  return markdownTable(header, rows);
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>gpu bench</title><script>
const w = new Worker('/probe-worker.js');
w.onmessage = (e) => { window.__gpuProbe = e.data; };
w.onerror = (e) => { window.__gpuProbe = { error: String(e.message || e) }; };
window.__startGpuProbe = (opts) => w.postMessage(opts);
</script>`;

const WORKER = `importScripts('/tf.min.js', '/tf-backend-webgpu.min.js', '/tf-backend-wasm.min.js', '/probe.js');
tf.wasm.setWasmPaths('/');
self.onmessage = (e) => parlGpuProbe.runGpuProbe(e.data).then((r) => self.postMessage(r), (err) => self.postMessage({ error: String(err && err.stack || err) }));`;

async function serveProbe(port: number): Promise<Server> {
  const js = (body: string | Buffer): ServedFile => ({ type: 'text/javascript', body });
  const files: Record<string, ServedFile> = {
    '/': { type: 'text/html; charset=utf-8', body: PAGE },
    '/probe-worker.js': js(WORKER),
    '/probe.js': js(await bundleIife(new URL('./gpuProbe.ts', import.meta.url), 'parlGpuProbe')),
    '/tf.min.js': js(readFileSync(packageDist('@tensorflow/tfjs', 'tf.min.js'))),
    '/tf-backend-webgpu.min.js': js(readFileSync(packageDist('@tensorflow/tfjs-backend-webgpu', 'tf-backend-webgpu.min.js'))),
    '/tf-backend-wasm.min.js': js(readFileSync(packageDist('@tensorflow/tfjs-backend-wasm', 'tf-backend-wasm.min.js'))),
  };
  for (const f of ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm']) {
    files[`/${f}`] = { type: 'application/wasm', body: readFileSync(packageDist('@tensorflow/tfjs-backend-wasm', f)) };
  }
  return serveFiles(files, port);
}

export const gpuBenchmark: Benchmark = {
  name: 'gpu',
  description:
    'The learner on WebGPU against wasm in headless Chromium (a dedicated worker): one PPO gradient step and one inference pass at batch sizes 256 to 16k (--adapter hardware|swiftshader, --hidden, --batches)',
  help: {
    seeds: null,
    flags: [
      { name: 'adapter', value: 'hardware|swiftshader', text: "hardware: Chromium picks its adapter (default); swiftshader forces the software one" },
      { name: 'backends', value: 'a,b', text: 'of wasm, webgpu, webgl, cpu (default wasm,webgpu)' },
      { name: 'hidden', value: 'N,N,...', text: 'hidden widths of the network (default 64,256)' },
      { name: 'batches', value: 'N,N,...', text: 'batch sizes (default 256,1024,4096,16384)' },
      { name: 'repeats', value: 'N', text: 'timed repeats per cell (default 5)' },
      { name: 'cell-budget-ms', value: 'MS', text: "a cell slower than this skips that backend's larger batches (default 5000)" },
      { name: 'timeout', value: 'S', text: "seconds to wait for the probe's result (default 1200)" },
      { name: 'chromium', value: 'PATH', text: 'the browser (default $CHROMIUM_PATH or /usr/bin/chromium)' },
      { name: 'port', value: 'N', text: `the probe page's port (default ${PORT})` },
    ],
  },
  async run({ flags }) {
    const adapterFlag = flags.adapter ?? 'hardware';
    if (adapterFlag !== 'hardware' && adapterFlag !== 'swiftshader') throw new Error(`gpu: --adapter takes hardware or swiftshader, not "${adapterFlag}"`);
    const opts = probeOptions(flags);
    const timeoutS = positiveList(flags.timeout, 'timeout', [1200])[0];
    const server = await serveProbe(Number(flags.port ?? PORT));
    const { chromium } = await import('@playwright/test');
    const args = adapterFlag === 'swiftshader' ? [...COMMON_FLAGS, ...SWIFTSHADER_FLAGS] : COMMON_FLAGS;
    const browser = await chromium.launch({ executablePath: flags.chromium ?? (process.env.CHROMIUM_PATH || '/usr/bin/chromium'), args, headless: true }).catch((err: unknown) => {
      server.close();
      throw err;
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${flags.port ?? PORT}/`);
      await page.evaluate((o) => window.__startGpuProbe?.(o), opts);
      await page.waitForFunction(() => window.__gpuProbe !== undefined, undefined, { timeout: timeoutS * 1000, polling: 500 });
      const out = await page.evaluate(() => window.__gpuProbe);
      if (!out) throw new Error('gpu: the page gave no result');
      if ('error' in out) throw new Error(`gpu: the probe failed in the page: ${out.error}`);
      const adapter = out.adapter ? `${out.adapter.description}${out.adapter.software ? ' (software: the CPU, not a GPU)' : ''}` : 'none (no WebGPU adapter)';
      process.stderr.write(`gpu: WebGPU adapter: ${adapter}\n`);
      for (const e of out.errors) process.stderr.write(`gpu: ${e}\n`);
      const errors = out.errors.map((e) => `\n- ${e}`).join('');
      const table = `WebGPU adapter: ${adapter}; Chromium flags: ${adapterFlag}${errors}\n\n${gpuTable(out.cells, opts.backends)}`;
      return { table, figures: { adapter: out.adapter, adapterFlag, options: opts, cells: out.cells, errors: out.errors } };
    } finally {
      await browser.close();
      server.close();
    }
  },
};
