/**
 * ui: the playground page in headless Chromium (Debian's, with the SwiftShader WebGPU flags of
 * the e2e tests), served by `vite preview` from dist/ (built first when missing). Measures time
 * to an interactive page, JS transferred before the first paint, and, while QuickStart trains,
 * the longest main-thread task and the share of frames over 50 ms (PerformanceObserver and
 * requestAnimationFrame in the page). A Chromium trace of the same window gives each main-thread
 * task's CPU time beside its wall time: on a machine whose cores are busy (the learner, the actors
 * and SwiftShader share them with the page), a task's wall time is mostly time the main thread
 * waited for a core, and only the CPU time is the page's own work.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { buildApp, startPreview } from './previewServer';
import { resolveExperiment } from '../src/config/config';
import { presetSettingChanges } from '../src/cli/args';
import { getPreset } from '../src/config/presets';
import { encodeExperiment } from '../src/config/urlState';
import { budgetKey, isSwarm } from '../src/config/watchable';
import { budgetMax, budgetOf } from '../src/config/budget';
import type { SummaryRecord, SwarmUpdateRecord } from '../src/runs/records';
import { SWARM_FIGURES, stated } from '../src/config/swarmStoryFigures';
import { markdownTable, median, type Benchmark } from './types';

const PORT = 4179;

/** The port a mode serves the app on: `--port N`, else its own default beside the other modes'. */
export function portOf(flags: Record<string, string>, fallback: number): number {
  if (flags.port === undefined) return fallback;
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 1024 || port > 65_535) throw new Error(`ui: --port takes a port number from 1024 to 65535, not "${flags.port}"`);
  return port;
}
const FLAGS = [
  '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run',
  '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader',
];

interface PageFigures {
  /** Start enabled (a click then waits for the backend). */
  startEnabledMs: number;
  /** Start enabled and the backend named in the badge (no longer 'measuring…'). */
  interactiveMs: number;
  firstPaintMs: number;
  jsBeforePaintKiB: number;
  jsFilesBeforePaint: number;
  /** File names (without the hash) of the JS transferred before the first paint. */
  jsNamesBeforePaint: string[];
  tfjsBeforePaint: boolean;
}

interface TrainingFigures {
  seconds: number;
  longestTaskMs: number;
  longTasks: number;
  frames: number;
  shareOver50: number;
  envSteps: number;
  /** From the trace: the most CPU time any main-thread task took. */
  longestTaskCpuMs: number;
  /** From the trace: the longest main-thread task's wall time (compare with `longestTaskMs`). */
  traceLongestTaskMs: number;
  /** From the trace: the CPU time of the task with the longest wall time. */
  longestTaskOwnCpuMs: number;
  /** From the trace: main-thread tasks over 50 ms of CPU time. */
  tasksOver50Cpu: number;
  /** 1-minute load average before and after the training window. */
  loadAverage: [number, number];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Wall and CPU time (ms) of each task of the page's main thread in a trace. */
function mainThreadTasks(events: TraceEvent[]): { wall: number; cpu: number }[] {
  const renderers = new Set<string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') renderers.add(`${e.pid}:${e.tid}`);
  const byThread = new Map<string, { wall: number; cpu: number }[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'RunTask' || !renderers.has(key)) continue;
    const list = byThread.get(key) ?? [];
    list.push({ wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000 });
    byThread.set(key, list);
  }
  // The page's main thread is the renderer main thread that ran the most tasks.
  return [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
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

/** The modes besides the default (cold loads and a training window). */
const UI_MODES = ['time-to-target', 'quickstart-start'] as const;

export const uiBenchmark: Benchmark = {
  name: 'ui',
  description: 'Playground page in headless Chromium: time to interactive, JS before first paint, main-thread long tasks and slow frames while training (--mode time-to-target: a preset trained in the page until it reaches its target; --mode quickstart-start: QuickStart from the Start click to its first record and to a mean return of 195, per seed)',
  help: {
    seeds: 'time-to-target: one page run per seed (default 1); quickstart-start: one per seed (default 1,2,3,4,5); the default mode uses none',
    flags: [
      { name: 'mode', value: UI_MODES.join('|'), text: 'without it: cold loads, then a training window; time-to-target: a preset trained in the page until it reaches its target (a swarm preset: until its budget ends, judged by the story a class is shown: λ1 = λ2 = 0, r_perf above what working alone earns, critical ≤ serial/3); quickstart-start: QuickStart from the Start click to its first record and to a mean return of 195' },
      { name: 'loads', value: 'N', text: 'default mode: cold page loads (default 3)' },
      { name: 'seconds', value: 'S', text: 'default mode: seconds of the training window (default 15)' },
      { name: 'preset', value: 'NAME', text: 'default mode: the preset trained in the window (default QuickStart); time-to-target: the preset (default sac-pendulum)' },
      { name: 'backend', value: 'NAME', text: "the learner backend: default mode and quickstart-start default auto, time-to-target default wasm" },
      { name: 'timeout', value: 'S', text: 'seconds to wait for each run: time-to-target default 900, quickstart-start default 60' },
      { name: 'set', value: 'KEY=VALUE[,KEY=VALUE...]', text: "time-to-target: settings changed from the preset's, as `npm run train -- --set` takes them (checked before the page opens)" },
      { name: 'dist', value: 'DIR', text: "time-to-target and quickstart-start: a build folder of its own (default vite's dist/)" },
      { name: 'build', value: 'false', text: 'reuse the build there, when there is one, instead of running vite build first' },
      { name: 'click', value: 'backend|enabled', text: 'quickstart-start: Start clicked from inside the page once the badge names the backend (default), or by Playwright once Start is enabled' },
      { name: 'pause', value: 'MS', text: 'quickstart-start: milliseconds between the page being ready and the click (default 0)' },
      { name: 'port', value: 'N', text: `the port the app is served on (default ${PORT}; time-to-target ${PORT + 1}, quickstart-start ${PORT + 2}), so that two checkouts can run side by side` },
    ],
  },
  async run({ flags, seeds }) {
    if (flags.mode !== undefined && !(UI_MODES as readonly string[]).includes(flags.mode)) throw new Error(`ui: --mode is ${UI_MODES.join(' or ')} (or left out), not "${flags.mode}"`);
    if (flags.mode === 'time-to-target') return timeToTargetInPage(flags, seeds);
    if (flags.mode === 'quickstart-start') return quickstartFromStart(flags, seeds);
    const loads = Number(flags.loads ?? 3);
    const trainSeconds = Number(flags.seconds ?? 15);
    // `--preset NAME` trains that preset in the window instead of QuickStart.
    const preset = flags.preset;
    if (preset && !getPreset(preset)) throw new Error(`ui: unknown preset "${preset}"`);
    // `--backend NAME` sets the learner backend of the training window (default: auto).
    const backend = flags.backend;
    const { server, browser } = await servedInChromium(portOf(flags, PORT), flags, undefined);
    const base = server.base;
    try {
      const pages: PageFigures[] = [];
      for (let i = 0; i < loads; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(base, { waitUntil: 'commit' });
        await page.locator('[data-testid="start"]:not([disabled])').waitFor();
        const startEnabledMs = await page.evaluate(() => performance.now());
        await page.getByTestId('backend-name').filter({ hasNotText: 'measuring' }).waitFor();
        // Interactive: the Start button is there and enabled and the backend is known.
        const figures = await page.evaluate(() => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
          const js = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
            // Transferred before the paint: fetches that ended by then (a worker script whose fetch
            // merely started before the paint races it and does not hold it up).
            (r) => r.responseEnd <= fcp && (r.initiatorType === 'script' || r.name.endsWith('.js')),
          );
          return {
            interactiveMs: performance.now(),
            firstPaintMs: fcp,
            jsBeforePaintKiB: js.reduce((a, r) => a + (r.transferSize || r.encodedBodySize), 0) / 1024,
            jsFilesBeforePaint: js.length,
            jsNamesBeforePaint: js.map((r) => r.name.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '.js')),
            tfjsBeforePaint: js.some((r) => /worker|tfjs/.test(r.name)),
          };
        });
        pages.push({ ...figures, startEnabledMs });
        await context.close();
      }

      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(OBSERVERS);
      const page = await context.newPage();
      if (preset || backend) {
        // The preset opened from a link that starts it, with a budget that outlasts the window.
        const name = preset ?? 'quickstart';
        const { algorithm } = resolveExperiment(name).settings;
        const overrides: Record<string, unknown> = { [budgetKey(algorithm)]: Math.min(budgetMax(algorithm), isSwarm(algorithm) ? 5_000 : 5_000_000) };
        if (backend) overrides.backend = backend;
        const config = resolveExperiment(name, overrides);
        await page.goto(`${base}#x=${encodeExperiment(config, { autostart: true })}`);
      } else {
        await page.goto(base);
        await page.getByTestId('backend-name').filter({ hasNotText: 'measuring' }).waitFor();
        await page.getByLabel('Budget (env steps)', { exact: true }).fill('1000000');
        await page.getByLabel('Budget (env steps)', { exact: true }).press('Enter');
        await page.getByTestId('start').click();
      }
      await page.getByTestId('status').filter({ hasText: 'running' }).waitFor({ timeout: 120_000 });
      const cdp = await context.newCDPSession(page);
      const events: TraceEvent[] = [];
      // The protocol types say string values; trace events carry numbers too.
      cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
      const traced = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      // RunTask events (with thread CPU time) are in this category.
      await cdp.send('Tracing.start', { categories: 'disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
      const loadBefore = loadavg()[0];
      await page.evaluate(() => ((window as unknown as { __bench: { recording: boolean } }).__bench.recording = true));
      await page.waitForTimeout(trainSeconds * 1000);
      const raw = await page.evaluate(() => {
        const b = (window as unknown as { __bench: { longTasks: number[]; frames: number[]; recording: boolean } }).__bench;
        b.recording = false;
        return { longTasks: b.longTasks, frames: b.frames };
      });
      const loadAfter = loadavg()[0];
      await cdp.send('Tracing.end');
      await traced;
      const tasks = mainThreadTasks(events);
      const longestWall = tasks.reduce((a, t) => (t.wall > a.wall ? t : a), { wall: 0, cpu: 0 });
      const envSteps = Number(await page.getByTestId('progress').getAttribute('aria-valuenow'));
      // On a quiet machine QuickStart can reach its target inside the window and end by itself.
      const stop = page.getByTestId('stop');
      if (await stop.isEnabled()) await stop.click();
      await context.close();
      const training: TrainingFigures = {
        seconds: trainSeconds,
        longestTaskMs: raw.longTasks.length ? Math.max(...raw.longTasks) : 0,
        longTasks: raw.longTasks.length,
        frames: raw.frames.length,
        shareOver50: raw.frames.length ? raw.frames.filter((f) => f > 50).length / raw.frames.length : 0,
        envSteps,
        longestTaskCpuMs: Math.max(0, ...tasks.map((t) => t.cpu)),
        traceLongestTaskMs: longestWall.wall,
        longestTaskOwnCpuMs: longestWall.cpu,
        tasksOver50Cpu: tasks.filter((t) => t.cpu > 50).length,
        loadAverage: [loadBefore, loadAfter],
      };

      const cpus = availableParallelism();
      const m = (f: (p: PageFigures) => number) => median(pages.map(f));
      const rows: (string | number)[][] = [
        ['Start enabled', `${m((p) => p.startEnabledMs).toFixed(0)} ms`, `median of ${loads} cold loads`],
        ['time to interactive (Start enabled, backend known)', `${m((p) => p.interactiveMs).toFixed(0)} ms`, `median of ${loads} cold loads`],
        ['first contentful paint', `${m((p) => p.firstPaintMs).toFixed(0)} ms`, ''],
        ['JS transferred before first paint', `${m((p) => p.jsBeforePaintKiB).toFixed(0)} KiB`, `${m((p) => p.jsFilesBeforePaint)} file(s) (${[...new Set(pages.flatMap((p) => p.jsNamesBeforePaint))].join(', ')}); tfjs/worker code before paint: ${pages.some((p) => p.tfjsBeforePaint) ? 'yes' : 'no'}`],
        ['longest main-thread task while training', `${training.longestTaskMs.toFixed(0)} ms`, `${training.longTasks} long task(s) (> 50 ms) in ${trainSeconds} s; target: none over 100 ms`],
        [
          'CPU time of main-thread tasks while training (trace)',
          `longest ${training.longestTaskCpuMs.toFixed(0)} ms`,
          `the longest task in the trace (${training.traceLongestTaskMs.toFixed(0)} ms) used ${training.longestTaskOwnCpuMs.toFixed(0)} ms of CPU; ${training.tasksOver50Cpu} task(s) over 50 ms of CPU; load average ${training.loadAverage.map((l) => l.toFixed(2)).join(' → ')} on ${cpus} core(s)`,
        ],
        ['frames over 50 ms while training', `${(training.shareOver50 * 100).toFixed(1)} %`, `${training.frames} frames; ${training.envSteps.toLocaleString('en-US')} ${(preset ?? '').startsWith('swarm') ? 'orchestrator updates' : 'env steps'} of ${preset ?? 'quickstart'} trained meanwhile (backend ${backend ?? 'auto'})`],
      ];
      return { table: markdownTable(['measure', 'value', 'notes'], rows), figures: { pages, training } };
    } finally {
      await browser.close();
      server.stop();
    }
  },
};

/** "1 min 5 s" or "8.2 s" (the progress panel's formatSeconds) in seconds. */
export function parseShownSeconds(text: string): number {
  const m = /^(?:(\d+) min )?(\d+(?:\.\d+)?) s$/.exec(text.trim());
  if (!m) return NaN;
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

/** The progress panel's "reached the target (T) after W, N steps" as figures. */
export function parseTargetLine(text: string): { seconds: number; envSteps: number } | null {
  // An offline run counts gradient steps (its budget): "..., 2,000 gradient steps".
  const m = /after (.+), ([\d,]+) (?:gradient )?steps$/.exec(text.trim());
  return m ? { seconds: parseShownSeconds(m[1]), envSteps: Number(m[2].replace(/,/g, '')) } : null;
}

/**
 * The time-to-target table's steps column: env steps, or an offline run's gradient steps (its budget; the target is
 * judged on the mean of its last 20 greedy evaluation episodes, the points of the page's return chart).
 */
export function stepsToTargetHeader(preset: string): string {
  const { algorithm } = resolveExperiment(preset).settings;
  return budgetOf(algorithm).unit === 'gradientSteps'
    ? `gradient steps to ${preset}'s target (mean of the last 20 greedy evaluation episodes)`
    : `env steps to ${preset}'s target (mean of last 20)`;
}

/**
 * `--mode time-to-target [--preset sac-pendulum] [--set k=v,...] [--backend wasm] [--timeout 900] [--seeds 1] [--dist DIR]`:
 * the preset opened from an autostart link in the page (its own budget, its own target, here the
 * mean return of the last 20 episodes), and the page's own account of when it first reached the
 * target: seconds and env steps since the run started, beside the seconds from page load.
 *
 * A swarm preset has no return target and its progress counts orchestrator updates: it trains until
 * its budget ends (or --timeout), then the saved run gives its curve, the run's own seconds (its
 * summary), whether and when it showed the story (swarmStory) and where its last update ended.
 */
async function timeToTargetInPage(flags: Record<string, string>, seeds: number[]) {
  const preset = flags.preset ?? 'sac-pendulum';
  if (!getPreset(preset)) throw new Error(`ui: unknown preset "${preset}"`);
  const backend = flags.backend ?? 'wasm';
  const changed = presetSettingChanges(preset, flags.set);
  const timeoutS = Number(flags.timeout ?? 900);
  const runSeeds = flags.seeds === undefined ? [1] : seeds;
  const { server, browser } = await servedInChromium(portOf(flags, PORT + 1), flags, flags.dist);
  const base = server.base;
  try {
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown>[] = [];
    // Progress in orchestrator updates and no return target (the page's own test, ProgressPanel).
    const { algorithm } = resolveExperiment(preset, { ...changed, backend }).settings;
    const swarm = isSwarm(algorithm);
    // What the progress bar and the target line count: env steps, or an offline run's gradient steps.
    const stepWords = budgetOf(algorithm).label;
    for (const seed of runSeeds) {
      const config = resolveExperiment(preset, { ...changed, seed, backend });
      const target = config.settings['run.targetReturn'];
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const loadBefore = loadavg()[0];
      const opened = Date.now();
      await page.goto(`${base}#x=${encodeExperiment(config, { autostart: true })}`);
      const reached = page.getByTestId('time-to-target');
      const ended = page.getByTestId('status').filter({ hasText: /done|error/ });
      await reached.or(ended).first().waitFor({ timeout: timeoutS * 1000 }).catch(() => undefined);
      const fromLoad = (Date.now() - opened) / 1000;
      const hit = (await reached.count()) ? parseTargetLine(await reached.innerText()) : null;
      const backendShown = await page.getByTestId('backend-name').innerText();
      const status = await page.getByTestId('status').innerText();
      // The progress bar: env steps, or a swarm run's orchestrator updates.
      const progress = Number(await page.getByTestId('progress').getAttribute('aria-valuenow'));
      const loadAfter = loadavg()[0];
      // A swarm run has no return target in the page: its curve comes from the saved run's records.
      const saved = swarm ? await swarmRunFromPage(page) : null;
      if (saved) process.stderr.write(`${preset} seed ${seed}: ${saved.curve.length} updates in the saved run\n${swarmCurveTable(saved.curve)}\n`);
      await context.close();
      const load = `${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`;
      if (swarm) {
        const judged = saved ? swarmStory(saved.curve) : null;
        const runSeconds = saved?.runSeconds ?? null;
        const ownSeconds = runSeconds === null ? "the run's own seconds unknown" : `${runSeconds.toFixed(0)} s in the run`;
        process.stderr.write(`${preset} seed ${seed}: ${progress} updates, ${ownSeconds} (${fromLoad.toFixed(0)} s from page load); ${swarmStoryWords(judged)}; status "${status}"; load ${load}\n`);
        rows.push([seed, progress.toLocaleString('en-US'), judged === null ? '–' : shownWords(judged), judged?.bestRPerf?.toFixed(3) ?? '–', judged?.start ? updateWords(judged.start) : '–', judged?.last ? updateWords(judged.last) : '–', runSeconds === null ? '–' : runSeconds.toFixed(0), fromLoad.toFixed(0), backendShown, load]);
        figures.push({ seed, swarmStory: judged, runSeconds, status, secondsFromLoad: fromLoad, updatesAtEnd: progress, backend: backendShown, loadAverage: [loadBefore, loadAfter], ...(saved ? { swarmCurve: saved.curve } : {}) });
        continue;
      }
      process.stderr.write(`${preset} seed ${seed}: ${hit ? `${hit.envSteps} ${stepWords}, ${hit.seconds} s in the run (${fromLoad.toFixed(0)} s from page load)` : `not reached (${progress} ${stepWords} in ${fromLoad.toFixed(0)} s)`}; ${backendShown}; status "${status}"; load ${load}\n`);
      rows.push([seed, hit ? hit.envSteps.toLocaleString('en-US') : '–', hit ? hit.seconds.toFixed(0) : '–', fromLoad.toFixed(0), backendShown, load]);
      figures.push({ seed, target, reached: hit, stepsCounted: stepWords, status, secondsFromLoad: fromLoad, stepsAtEnd: progress, backend: backendShown, loadAverage: [loadBefore, loadAfter] });
    }
    const header = swarm
      ? ['seed', 'updates', `story (${SWARM_STORY_WORDS})`, 'best r_perf (median of an update)', 'first update', 'last update', 'run seconds', 'seconds from page load', 'backend', 'load average']
      : ['seed', stepsToTargetHeader(preset), 'run seconds', 'seconds from page load', 'backend', 'load average'];
    return { table: markdownTable(header, rows), figures: { preset, runs: figures } };
  } finally {
    await browser.close();
    server.stop();
  }
}

/** One orchestrator update of a swarm run in the page: medians over its episodes. */
interface SwarmPoint {
  update: number;
  episodes: number;
  rPerf: number;
  criticalOverSerial: number;
  maxParallelism: number;
  finishRate: number;
  /** Every episode of the update had λ1 = λ2 = 0 (the bonuses have annealed away). */
  lambdasZero: boolean;
  /** Seconds into the run when the update ended (its update record's wallSeconds; null when the file has none). */
  seconds: number | null;
}

/** The swarm records of a run file (`{ format, version, run: { records } }`, see runs/runFile.ts) as one point per update. */
export function swarmCurve(runFile: unknown): SwarmPoint[] {
  const records = (runFile as { run?: { records?: unknown[] } } | null)?.run?.records ?? [];
  const secondsAt = new Map<number, number>();
  for (const r of records) {
    const rec = r as { type?: unknown; update?: unknown; wallSeconds?: unknown } | null;
    if (rec?.type === 'update' && typeof rec.update === 'number' && typeof rec.wallSeconds === 'number') secondsAt.set(rec.update, rec.wallSeconds);
  }
  const out: SwarmPoint[] = [];
  for (const r of records) {
    const rec = r as Partial<SwarmUpdateRecord>;
    if (rec.type !== 'swarm' || !Array.isArray(rec.episodes) || rec.episodes.length === 0) continue;
    const eps = rec.episodes;
    out.push({
      update: Number(rec.update),
      episodes: eps.length,
      rPerf: median(eps.map((e) => e.rPerf)),
      criticalOverSerial: median(eps.map((e) => e.criticalSteps / Math.max(1, e.serialBaseline))),
      maxParallelism: Math.max(...eps.map((e) => e.maxParallelism)),
      finishRate: median(eps.map((e) => e.finishRate)),
      lambdasZero: eps.every((e) => e.lambda1 === 0 && e.lambda2 === 0),
      seconds: secondsAt.get(Number(rec.update)) ?? null,
    });
  }
  return out;
}

/** What working alone earns: the serial orchestrator's median r_perf on the held-out tasks (swarm-story, committed). */
export const WORKING_ALONE_R_PERF = SWARM_FIGURES.storySerialRPerf.value;

/** The story a class is shown, as the page's run is judged (item by item in swarmStoryWords). */
const SWARM_STORY_WORDS = `λ1 = λ2 = 0, median r_perf above working alone's ${stated(SWARM_FIGURES.storySerialRPerf)}, critical ≤ serial/3`;

/**
 * Whether one update of the curve shows the story: the bonuses have annealed to zero (every
 * episode's λ1 and λ2 are 0), the task score is above what working alone earns, and the critical
 * steps are at most a third of serial.
 */
export function showsSwarmStory(p: Pick<SwarmPoint, 'rPerf' | 'criticalOverSerial' | 'lambdasZero'>): boolean {
  return p.lambdasZero && p.rPerf > WORKING_ALONE_R_PERF && p.criticalOverSerial <= 1 / 3;
}

/**
 * A swarm run's curve judged: the first update that showed the story (null: none did), the seconds into the run when it
 * ended (null: none did, or the file has no time), the best median r_perf of an update (null: no updates), and the first
 * and last updates (what the untrained policy did, and where learning ended): median r_perf, critical ÷ serial, the most
 * subagents at once (0: every episode worked alone), and finish rate.
 */
export function swarmStory(curve: readonly SwarmPoint[]): { firstUpdate: number | null; firstSeconds: number | null; bestRPerf: number | null; start: SwarmPoint | null; last: SwarmPoint | null } {
  const first = curve.find(showsSwarmStory);
  return {
    firstUpdate: first?.update ?? null,
    firstSeconds: first?.seconds ?? null,
    bestRPerf: curve.length ? Math.max(...curve.map((p) => p.rPerf)) : null,
    start: curve[0] ?? null,
    last: curve.at(-1) ?? null,
  };
}

/** "story (…) shown at update 31 (40 s into the run), best r_perf 0.650; last update: …", for the stderr line; null: the run's records could not be read. */
export function swarmStoryWords(judged: ReturnType<typeof swarmStory> | null): string {
  if (judged === null) return `story (${SWARM_STORY_WORDS}) unknown: the saved run could not be read`;
  const best = judged.bestRPerf === null ? 'no updates in the saved run' : `best r_perf ${judged.bestRPerf.toFixed(3)}`;
  const ends = judged.start && judged.last ? `; first update: ${updateWords(judged.start)}; last update: ${updateWords(judged.last)}` : '';
  return `story (${SWARM_STORY_WORDS}) ${shownWords(judged)}, ${best}${ends}`;
}

/** "not shown", "shown at update 31", or "shown at update 31 (40 s into the run)". */
function shownWords(judged: ReturnType<typeof swarmStory>): string {
  if (judged.firstUpdate === null) return 'not shown';
  return `shown at update ${judged.firstUpdate}${judged.firstSeconds === null ? '' : ` (${judged.firstSeconds.toFixed(0)} s into the run)`}`;
}

/** An update in words: "r_perf 0.640, critical 0.15 × serial, up to 9 subagents at once, finish 0.55" (or "working alone"). */
function updateWords(p: SwarmPoint): string {
  const team = p.maxParallelism === 0 ? 'working alone (no subagent in any episode)' : `up to ${p.maxParallelism} subagents at once`;
  return `r_perf ${p.rPerf.toFixed(3)}, critical ${p.criticalOverSerial.toFixed(2)} × serial, ${team}, finish ${p.finishRate.toFixed(2)}`;
}

/** The run's own seconds: its summary record's (null when the run file has none). */
export function runSecondsOf(runFile: unknown): number | null {
  const records = (runFile as { run?: { records?: unknown[] } } | null)?.run?.records ?? [];
  const summary = records.findLast((r) => (r as Partial<SummaryRecord> | null)?.type === 'summary') as Partial<SummaryRecord> | undefined;
  return typeof summary?.wallSeconds === 'number' ? summary.wallSeconds : null;
}

function swarmCurveTable(curve: SwarmPoint[]): string {
  return markdownTable(
    ['update', 'episodes', 'r_perf (median)', 'critical ÷ serial (median)', 'most subagents at once', 'finish rate (median)', 'λ1 = λ2 = 0', 'story shown'],
    curve.map((p) => [p.update, p.episodes, p.rPerf.toFixed(3), p.criticalOverSerial.toFixed(3), p.maxParallelism, p.finishRate.toFixed(2), p.lambdasZero ? 'yes' : '', showsSwarmStory(p) ? 'yes' : '']),
  );
}

/** Stops the page's run if it still runs, then downloads the newest saved run (JSON): its swarm curve and its own seconds. */
async function swarmRunFromPage(page: import('@playwright/test').Page): Promise<{ curve: SwarmPoint[]; runSeconds: number | null } | null> {
  try {
    const stop = page.getByTestId('stop');
    if (await stop.isEnabled()) await stop.click();
    await page.getByTestId('status').filter({ hasText: /done|error|idle/ }).waitFor({ timeout: 30_000 });
    const exportButton = page.getByTestId('export-run').first();
    await exportButton.waitFor({ timeout: 10_000 });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), exportButton.click()]);
    const path = await download.path();
    const file: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return { curve: swarmCurve(file), runSeconds: runSecondsOf(file) };
  } catch (err) {
    process.stderr.write(`ui: could not read the swarm run's records from the page: ${err instanceof Error ? err.message : String(err)}\n`);
    return null;
  }
}

// Installed before any page script: the Start click and the first DOM changes that show the run's
// first records, each stamped with performance.now() by a MutationObserver (it runs right after
// React commits the change).
const START_WATCH = `
  window.__start = { click: -1, running: -1, firstSteps: -1, target: -1 };
  document.addEventListener('click', (e) => {
    const s = window.__start;
    if (s.click < 0 && e.target instanceof Element && e.target.closest('[data-testid="start"]')) s.click = performance.now();
  }, true);
  new MutationObserver(() => {
    const s = window.__start;
    if (s.click < 0) return;
    const now = performance.now();
    if (s.running < 0 && /running/.test(document.querySelector('[data-testid="status"]')?.textContent ?? '')) s.running = now;
    if (s.firstSteps < 0 && Number(document.querySelector('[data-testid="progress"]')?.getAttribute('aria-valuenow')) > 0) s.firstSteps = now;
    if (s.target < 0 && document.querySelector('[data-testid="time-to-target"]')) s.target = now;
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

/**
 * Clicks Start from inside the page `pauseMs` after the badge first names the backend (it reads
 * 'measuring…' until the learner has answered the page's probe): Playwright's polling would add up
 * to a second of its own between the two, and what runs after a probe depends on that gap.
 */
function clickOnceBackendKnown(pauseMs: number): string {
  return `
  new MutationObserver((_, observer) => {
    const name = document.querySelector('[data-testid="backend-name"]')?.textContent ?? '';
    const start = document.querySelector('[data-testid="start"]');
    if (!name || name.startsWith('measuring') || !(start instanceof HTMLButtonElement) || start.disabled) return;
    observer.disconnect();
    setTimeout(() => start.click(), ${pauseMs});
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;
}

/** Milliseconds from the Start click, as the page saw them (-1 when it never happened). */
interface StartMarks {
  click: number;
  running: number;
  firstSteps: number;
  target: number;
}

const QUICKSTART_TARGET = 195;

/**
 * The app built (every time unless `--build false`: a stale build would measure old code), served on
 * `port`, and a headless Chromium to drive it; the server is stopped if the browser fails to start.
 */
async function servedInChromium(port: number, flags: Record<string, string>, dist: string | undefined) {
  buildApp(dist, flags.build === 'false');
  const server = await startPreview(port, dist);
  // Imported here so the other benchmarks do not need Playwright.
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: FLAGS, headless: true }).catch((err: unknown) => {
    server.stop();
    throw err;
  });
  return { server, browser };
}

/**
 * `--mode quickstart-start [--seeds 1,2,3,4,5] [--backend NAME] [--timeout 60] [--dist DIR] [--click backend|enabled] [--pause MS]`:
 * QuickStart opened from a link with its seed (target 195, stop at the target), Start clicked from
 * inside the page as soon as the badge names the backend (`--pause MS` later; `--click enabled`: by
 * Playwright once Start is enabled, which is before the learner worker is up, so the times include
 * its start-up and probe). Times from the click, in the page's clock: the status
 * turning "running" (the first update or actors record), the first env steps on the progress bar
 * (the first update record), and the "reached the target" line (the first update whose mean return
 * of the last 20 episodes is at least 195); beside them the run's own seconds to the target (the
 * learner's clock, from the start of the training run in the worker).
 */
async function quickstartFromStart(flags: Record<string, string>, seeds: number[]) {
  const timeoutS = Number(flags.timeout ?? 60);
  const clickWhen = flags.click ?? 'backend';
  if (clickWhen !== 'backend' && clickWhen !== 'enabled') throw new Error(`ui: --click is 'backend' or 'enabled', not "${clickWhen}"`);
  // `--pause MS`: a user's moment between the page being ready and the click.
  const pauseMs = Number(flags.pause ?? 0);
  if (!(pauseMs >= 0)) throw new Error(`ui: --pause takes milliseconds, not "${flags.pause}"`);
  // `--dist DIR`: a build of its own (vite's default dist/ is rebuilt by the other page benchmarks).
  const { server, browser } = await servedInChromium(portOf(flags, PORT + 2), flags, flags.dist);
  try {
    const rows: (string | number)[][] = [];
    const runs: Record<string, unknown>[] = [];
    for (const seed of seeds) {
      const overrides: Record<string, unknown> = { seed, 'run.targetReturn': QUICKSTART_TARGET, 'run.stopAtTarget': true };
      if (flags.backend) overrides.backend = flags.backend;
      const config = resolveExperiment('quickstart', overrides);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(START_WATCH);
      if (clickWhen === 'backend') await context.addInitScript(clickOnceBackendKnown(pauseMs));
      const page = await context.newPage();
      const loadBefore = loadavg()[0];
      await page.goto(`${server.base}#x=${encodeExperiment(config)}`);
      if (clickWhen === 'backend') {
        // Polled from here: the page's CSP forbids the string evaluation waitForFunction uses.
        const until = Date.now() + timeoutS * 1000;
        while ((await page.evaluate<StartMarks>('window.__start')).click < 0 && Date.now() < until) await page.waitForTimeout(50);
      } else {
        await page.locator('[data-testid="start"]:not([disabled])').waitFor();
        if (pauseMs > 0) await page.waitForTimeout(pauseMs);
        await page.getByTestId('start').click();
      }
      const reached = page.getByTestId('time-to-target');
      const ended = page.getByTestId('status').filter({ hasText: /done|error/ });
      await reached.or(ended).first().waitFor({ timeout: timeoutS * 1000 }).catch(() => undefined);
      const raw = await page.evaluate<StartMarks>('window.__start');
      const since = (t: number) => (t >= 0 && raw.click >= 0 ? t - raw.click : NaN);
      const marks = { running: since(raw.running), firstSteps: since(raw.firstSteps), target: since(raw.target) };
      const hit = (await reached.count()) ? parseTargetLine(await reached.innerText()) : null;
      const backendShown = await page.getByTestId('backend-name').innerText();
      const loadAfter = loadavg()[0];
      await context.close();
      const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
      const load = `${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`;
      process.stderr.write(`quickstart seed ${seed}: first record ${ms(marks.running)} ms, first steps ${ms(marks.firstSteps)} ms, target ${ms(marks.target)} ms after Start (run's own ${hit ? `${hit.seconds} s, ${hit.envSteps} steps` : 'not reached'}); ${backendShown}; load ${load}\n`);
      rows.push([seed, ms(marks.running), ms(marks.firstSteps), ms(marks.target), ms(marks.target - marks.firstSteps), hit ? hit.seconds.toFixed(1) : '–', hit ? hit.envSteps.toLocaleString('en-US') : '–', backendShown, load]);
      runs.push({ seed, ...marks, reached: hit, backend: backendShown, loadAverage: [loadBefore, loadAfter] });
    }
    const med = (key: 'running' | 'firstSteps' | 'target') => median(runs.map((r) => r[key] as number).filter(Number.isFinite));
    const medians = { running: med('running'), firstSteps: med('firstSteps'), target: med('target'), training: median(runs.map((r) => (r.target as number) - (r.firstSteps as number)).filter(Number.isFinite)) };
    rows.push(['median', medians.running.toFixed(0), medians.firstSteps.toFixed(0), medians.target.toFixed(0), medians.training.toFixed(0), '', '', `${runs.filter((r) => r.reached).length}/${runs.length} reached`, '']);
    const header = ['seed', 'first record (running), ms', 'first env steps shown, ms', `mean return ${QUICKSTART_TARGET} shown, ms`, 'from first steps to target, ms', "run's own s to target", 'env steps to target', 'backend', 'load average'];
    return { table: markdownTable(header, rows), figures: { target: QUICKSTART_TARGET, medians, runs } };
  } finally {
    await browser.close();
    server.stop();
  }
}
