/**
 * ui: the playground page in headless Chromium (Debian's, with the SwiftShader WebGPU flags of
 * the e2e tests), served by `vite preview` from dist/ (built first when missing). Measures time
 * to an interactive page, JS transferred before the first paint, and, while QuickStart trains,
 * the longest main-thread task and the share of frames over 50 ms (PerformanceObserver and
 * requestAnimationFrame in the page).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { markdownTable, median, type Benchmark } from './types';

const PORT = 4179;
const FLAGS = [
  '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run',
  '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader',
];

interface PageFigures {
  interactiveMs: number;
  firstPaintMs: number;
  jsBeforePaintKiB: number;
  jsFilesBeforePaint: number;
  tfjsBeforePaint: boolean;
}

interface TrainingFigures {
  seconds: number;
  longestTaskMs: number;
  longTasks: number;
  frames: number;
  shareOver50: number;
  envSteps: number;
}

// Installed before any page script: long tasks and frame intervals, kept on window.
const OBSERVERS = `
  window.__bench = { longTasks: [], frames: [], recording: false };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (window.__bench.recording) window.__bench.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  let last = 0;
  const tick = (t) => {
    if (window.__bench.recording && last) window.__bench.frames.push(t - last);
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
`;

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

export const uiBenchmark: Benchmark = {
  name: 'ui',
  description: 'Playground page in headless Chromium: time to interactive, JS before first paint, main-thread long tasks and slow frames while training',
  async run({ flags }) {
    const loads = Number(flags.loads ?? 3);
    const trainSeconds = Number(flags.seconds ?? 15);
    if (!existsSync('dist/index.html') || flags.build === 'true') {
      const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
      if (b.status !== 0) throw new Error('vite build failed');
    }
    const server: ChildProcess = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'], { stdio: 'ignore', detached: true });
    const base = `http://127.0.0.1:${PORT}/`;
    // Imported here so the other benchmarks do not need Playwright.
    const { chromium } = await import('@playwright/test');
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: FLAGS, headless: true });
    try {
      await waitForServer(base, 30_000);
      const pages: PageFigures[] = [];
      for (let i = 0; i < loads; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(base, { waitUntil: 'commit' });
        await page.locator('[data-testid="start"]:not([disabled])').waitFor();
        await page.getByTestId('backend-name').filter({ hasNotText: 'probing' }).waitFor();
        // Interactive: the Start button is there and enabled and the backend is known.
        const figures = await page.evaluate(() => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
          const js = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
            (r) => r.startTime <= fcp && (r.initiatorType === 'script' || r.name.endsWith('.js')),
          );
          return {
            interactiveMs: performance.now(),
            firstPaintMs: fcp,
            jsBeforePaintKiB: js.reduce((a, r) => a + (r.transferSize || r.encodedBodySize), 0) / 1024,
            jsFilesBeforePaint: js.length,
            tfjsBeforePaint: js.some((r) => /worker|tfjs/.test(r.name)),
          };
        });
        pages.push(figures);
        await context.close();
      }

      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(OBSERVERS);
      const page = await context.newPage();
      await page.goto(base);
      await page.getByTestId('backend-name').filter({ hasNotText: 'probing' }).waitFor();
      await page.getByLabel('Budget (env steps)', { exact: true }).fill('1000000');
      await page.getByLabel('Budget (env steps)', { exact: true }).press('Enter');
      await page.getByTestId('start').click();
      await page.getByTestId('status').filter({ hasText: 'running' }).waitFor({ timeout: 120_000 });
      await page.evaluate(() => ((window as unknown as { __bench: { recording: boolean } }).__bench.recording = true));
      await page.waitForTimeout(trainSeconds * 1000);
      const raw = await page.evaluate(() => {
        const b = (window as unknown as { __bench: { longTasks: number[]; frames: number[]; recording: boolean } }).__bench;
        b.recording = false;
        return { longTasks: b.longTasks, frames: b.frames };
      });
      const envSteps = Number(await page.getByTestId('progress').getAttribute('aria-valuenow'));
      await page.getByTestId('stop').click();
      await context.close();
      const training: TrainingFigures = {
        seconds: trainSeconds,
        longestTaskMs: raw.longTasks.length ? Math.max(...raw.longTasks) : 0,
        longTasks: raw.longTasks.length,
        frames: raw.frames.length,
        shareOver50: raw.frames.length ? raw.frames.filter((f) => f > 50).length / raw.frames.length : 0,
        envSteps,
      };

      const m = (f: (p: PageFigures) => number) => median(pages.map(f));
      const rows: (string | number)[][] = [
        ['time to interactive (Start enabled, backend known)', `${m((p) => p.interactiveMs).toFixed(0)} ms`, `median of ${loads} cold loads`],
        ['first contentful paint', `${m((p) => p.firstPaintMs).toFixed(0)} ms`, ''],
        ['JS transferred before first paint', `${m((p) => p.jsBeforePaintKiB).toFixed(0)} KiB`, `${m((p) => p.jsFilesBeforePaint)} file(s); tfjs/worker code before paint: ${pages.some((p) => p.tfjsBeforePaint) ? 'yes' : 'no'}`],
        ['longest main-thread task while training', `${training.longestTaskMs.toFixed(0)} ms`, `${training.longTasks} long task(s) (> 50 ms) in ${trainSeconds} s; target: none over 100 ms`],
        ['frames over 50 ms while training', `${(training.shareOver50 * 100).toFixed(1)} %`, `${training.frames} frames; ${training.envSteps.toLocaleString('en-US')} env steps trained meanwhile`],
      ];
      return { table: markdownTable(['measure', 'value', 'notes'], rows), figures: { pages, training } };
    } finally {
      await browser.close();
      if (server.pid) process.kill(-server.pid);
    }
  },
};
