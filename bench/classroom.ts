/**
 * `npm run bench -- classroom [--students N] [--actors A] [--close C] [--seconds S] [--after S] [--port P] [--server dev|preview]`:
 * a classroom on loopback, as the README and docs/cluster.md run it. The teacher's two commands
 * (`npm run cluster`, with its origin and join link pointed at the page server's port, and the dev
 * server, `vite`; or `vite preview` of the build), then headless Chromium (Debian's): the teacher's tab connects its learner to the
 * cluster, N student tabs (one browser context each, as N browsers would be) open the join link and
 * contribute one actor each (Web Workers in their page), and the teacher trains impala-cartpole with A
 * of them (a run takes at most 16 actors). Measures the joins accepted, the actors running, the
 * segments per second the teacher's learner takes from the stream (its panel's counter), the longest
 * main-thread task of the teacher's page (PerformanceObserver 'longtask') while the class joins,
 * while it trains and while tabs close, and what C tabs closing at once do: whether the others keep
 * contributing, how soon the teacher's panel marks the closed tabs gone and places their actors
 * elsewhere, and how long until the learner's rate is back to 90 % of what it was.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { resolveExperiment } from '../src/config/config';
import { encodeExperiment } from '../src/config/urlState';
import { buildApp } from './previewServer';
import { markdownTable, median, type Benchmark } from './types';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run', '--disable-gpu'];
/** The most actors one run takes (the `actors` setting's range). */
const MAX_RUN_ACTORS = 16;
/** Student tabs loading the page at once (a 2-core machine serves the dev server's modules slowly). */
const JOINS_AT_ONCE = 5;
/** How long the teacher's run may take from Start to its first segment (every actor a new Web Worker in a tab). */
const START_TIMEOUT_MS = 420_000;
/** How long a student's tab may take from opening the join link to contributing. */
const JOIN_TIMEOUT_MS = 240_000;
/** The learner's rate counts as back once a window of this length after the close reaches 90 % of it. */
const RECOVERY_WINDOW_MS = 5_000;

/** Counts every long task of the teacher's page, with its start and duration (ms since navigation). */
const LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([performance.timeOrigin + e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

interface HostRow {
  name: string;
  state: string;
  /** "this run's / running / slots". */
  actors: string;
  respawns: number;
}

interface ActorRow {
  state: string;
  host: string;
  respawns: number;
}

/** What the teacher's page shows at one moment. */
interface TeacherSample {
  /** Date.now() on this side. */
  at: number;
  taken: number;
  hosts: HostRow[];
  actors: ActorRow[];
  lost: number;
}

/**
 * Reads the teacher's Cluster and Actors panels (nothing clicked). A string, not a function: tsx
 * wraps named functions in a helper the page does not have.
 */
const READ_TEACHER = `(() => {
  const text = (el) => (el && el.textContent ? el.textContent.trim() : '');
  const num = (el) => Number(text(el).replace(/,/g, '')) || 0;
  const hosts = [...document.querySelectorAll('[data-testid="cluster-hosts"] tbody tr')].map((tr) => ({
    name: tr.dataset.host || '',
    state: tr.dataset.state || '',
    actors: text(tr.querySelector('[data-testid="cluster-host-row-actors"]')),
    respawns: num(tr.querySelector('[data-testid="cluster-host-row-respawns"]')),
  }));
  const actors = [...document.querySelectorAll('[data-testid="actors"] tbody tr')].map((tr) => ({
    state: tr.dataset.state || '',
    host: text(tr.querySelector('[data-testid^="actor-host-"]')).replace(/^on /, ''),
    respawns: num(tr.querySelector('[data-testid^="respawns-"]')),
  }));
  return { taken: num(document.querySelector('[data-testid="cluster-stream-taken"]')), hosts, actors, lost: num(document.querySelector('[data-testid="lost-segments"]')) };
})()`;

async function sampleTeacher(page: Page): Promise<TeacherSample> {
  const s = (await page.evaluate(READ_TEACHER)) as Omit<TeacherSample, 'at'>;
  return { at: Date.now(), ...s };
}

/** Segments per second between the first sample at or after `from` and the last at or before `to`. */
function rateBetween(samples: TeacherSample[], from: number, to: number): number {
  const inside = samples.filter((s) => s.at >= from && s.at <= to);
  if (inside.length < 2) return NaN;
  const a = inside[0];
  const b = inside[inside.length - 1];
  return ((b.taken - a.taken) * 1000) / (b.at - a.at);
}

/**
 * The longest stretch within [from, to] over which the learner's count did not move, in seconds: the
 * pause after a close, beside the steady window's own (the panel's counter moves once a second).
 */
function longestStall(samples: TeacherSample[], from: number, to: number): number {
  const inside = samples.filter((s) => s.at >= from && s.at <= to);
  if (inside.length < 2) return NaN;
  let movedAt = from;
  let longest = 0;
  for (let k = 1; k < inside.length; k++) {
    if (inside[k].taken === inside[k - 1].taken) continue;
    longest = Math.max(longest, inside[k].at - movedAt);
    movedAt = inside[k].at;
  }
  return Math.max(longest, inside[inside.length - 1].at - movedAt) / 1000;
}

/** The teacher's long tasks that started in [from, to] (Date.now() times). */
async function longTasks(page: Page, from: number, to: number): Promise<number[]> {
  const all = (await page.evaluate('window.__longTasks')) as [number, number][];
  return all.filter(([start]) => start >= from && start <= to).map(([, d]) => d);
}

/** Resolves with the process's stdout once `done` matches it (rejects if it exits first). */
function outputOf(child: ChildProcess, done: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (done.test(out)) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${out}`)));
  });
}

async function servesPage(url: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the dev server did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Memory (MiB, proportional set size: shared pages split between their processes) of this
 * process's Chromium processes: the browser, its renderers (the tabs and their workers) and helpers.
 */
function chromiumMiB(): number {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      comm.set(pid, stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  let kib = 0;
  for (const [pid, name] of comm) {
    if (!/chrom/i.test(name) || !ours(pid)) continue;
    try {
      kib += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kib / 1024;
}

function wholeFlag(value: string | undefined, fallback: number, min: number, max: number, flag: string): number {
  const v = Number(value ?? fallback);
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`classroom: ${flag} must be a whole number from ${min} to ${max}`);
  return v;
}

function positiveSeconds(value: string | undefined, fallback: number, flag: string): number {
  const v = Number(value ?? fallback);
  if (!(v > 0 && v <= 3600)) throw new Error(`classroom: ${flag} must be a number of seconds above 0, at most 3600`);
  return v;
}

interface Student {
  name: string;
  context: BrowserContext;
  page: Page;
  joinMs: number;
  joined: boolean;
  problems: string[];
}

/** One student: a browser context of its own opens the join link and offers one actor. */
async function joinStudent(browser: Browser, joinLink: string, name: string): Promise<Student> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  const started = Date.now();
  let joined = false;
  try {
    const left = (): number => Math.max(1_000, started + JOIN_TIMEOUT_MS - Date.now());
    await page.goto(joinLink, { timeout: left() });
    await page.getByTestId('cluster-join-note').waitFor({ timeout: left() });
    await page.getByTestId('cluster-name').fill(name);
    await page.getByTestId('cluster-offer').fill('1');
    await page.getByTestId('cluster-contribute').click();
    await page.locator('[data-testid="cluster-host-status"][data-phase="on"]').waitFor({ timeout: left() });
    joined = true;
  } catch (err) {
    // Where it stood: still loading, still connecting, or refused (the panel's phase and its message).
    const phase = await page.getByTestId('cluster-host-status').getAttribute('data-phase', { timeout: 1_000 }).catch(() => 'no panel');
    const said = await page.getByTestId('cluster-problem').textContent({ timeout: 1_000 }).catch(() => null);
    problems.push(`did not join within ${JOIN_TIMEOUT_MS / 1000} s (phase ${phase}${said ? `: ${said}` : ''}): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  return { name, context, page, joinMs: Date.now() - started, joined, problems };
}

/** Segments a student's tab says it sent (its Cluster panel). */
async function segmentsSent(s: Student): Promise<number> {
  const t = await s.page.getByTestId('cluster-host-segments').textContent({ timeout: 5_000 }).catch(() => null);
  return t === null ? NaN : Number(t.replace(/,/g, ''));
}

/** Polls the teacher every 500 ms into `samples` until stopped. */
function recorder(page: Page, samples: TeacherSample[]): { stop(): Promise<void> } {
  let on = true;
  const loop = (async () => {
    while (on) {
      // A page that is gone ends the recording; the benchmark says why where it waits.
      const s = await sampleTeacher(page).catch(() => null);
      if (!s) return;
      samples.push(s);
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return {
    async stop() {
      on = false;
      await loop;
    },
  };
}

function stop(child: ChildProcess, group: boolean): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  if (group) process.kill(-child.pid, 'SIGTERM');
  else child.kill('SIGTERM');
  return exited;
}

const ms = (x: number): string => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'never');

export const classroomBenchmark: Benchmark = {
  name: 'classroom',
  description: 'a classroom on loopback: the cluster and the dev server, a teacher tab training impala-cartpole with actors in N student tabs that joined by the link, then C tabs closing at once',
  help: {
    seeds: null,
    flags: [
      { name: 'students', value: 'N', text: 'student tabs (browser contexts) that open the join link, 1 to 60 (default 30)' },
      { name: 'actors', value: 'A', text: `the teacher's run's actors, one per student tab at most, 1 to ${MAX_RUN_ACTORS} (default the smaller of N and ${MAX_RUN_ACTORS})` },
      { name: 'close', value: 'C', text: 'student tabs closed at once, those running actors first, 0 to N-1 (default 10, or N-1 when fewer)' },
      { name: 'seconds', value: 'S', text: 'the steady window before the close, in which the rate is measured (default 30)' },
      { name: 'after', value: 'S', text: 'how long to watch after the close (default 60)' },
      { name: 'port', value: 'P', text: 'the page server\'s port (default 5173, as npm run dev)' },
      { name: 'server', value: 'dev|preview', text: 'serve the page with the dev server (npm run dev, the default) or vite preview of the build in dist/ (built when missing)' },
    ],
  },
  async run(args) {
    const flags = args.flags;
    const students = wholeFlag(flags.students, 30, 1, 60, '--students');
    const actors = wholeFlag(flags.actors, Math.min(students, MAX_RUN_ACTORS), 1, Math.min(students, MAX_RUN_ACTORS), '--actors');
    const closing = wholeFlag(flags.close, Math.min(10, students - 1), 0, students - 1, '--close');
    const seconds = positiveSeconds(flags.seconds, 30, '--seconds');
    const after = positiveSeconds(flags.after, 60, '--after');
    const port = wholeFlag(flags.port, 5173, 1024, 65_535, '--port');
    const server = flags.server ?? 'dev';
    if (server !== 'dev' && server !== 'preview') throw new Error(`classroom: --server is dev or preview, not "${server}"`);
    // vite preview listens on 127.0.0.1 only; the dev server answers on localhost as npm run dev prints it.
    const app = `http://${server === 'dev' ? 'localhost' : '127.0.0.1'}:${port}/`;
    if (server === 'preview') buildApp(undefined, true);
    const load0 = loadavg();

    const tmp = mkdtempSync(join(tmpdir(), 'parl-classroom-'));
    // The teacher's commands: `npm run cluster` (the page's origin and the join link on this port) and `npm run dev`.
    const cluster = spawn(process.execPath, ['--import', 'tsx', 'src/cli/cluster.ts', '--port', '-1', '--ws-port', '-1', '--creds', join(tmp, 'cluster.creds'), '--origin', `http://localhost:${port},http://127.0.0.1:${port}`, '--app', app], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    const dev = spawn('npx', server === 'dev' ? ['vite', '--port', String(port), '--strictPort'] : ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: REPO, stdio: 'ignore', detached: true });
    let browser: Browser | undefined;
    const figures: Record<string, unknown> = { server, students, actors, closing, seconds, after, port, loadAverageBefore: load0 };
    try {
      const printed = await outputOf(cluster, /Ctrl-C stops the cluster/, 'npm run cluster');
      const joinLink = /^\s*(http\S*#join=\S+)$/m.exec(printed)?.[1];
      const wsUrl = /browser tabs: (ws:\/\/\S+) /.exec(printed)?.[1];
      const token = joinLink ? new URLSearchParams(new URL(joinLink).hash.slice(1)).get('token') : null;
      if (!joinLink || !wsUrl || !token) throw new Error(`npm run cluster printed no join link:\n${printed}`);
      await servesPage(app, 120_000);
      if (dev.exitCode !== null) throw new Error(`port ${port} is taken (another server answers there): --port picks another`);

      const { chromium } = await import('@playwright/test');
      browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: FLAGS, headless: true });

      // The teacher: the experiment from a link, then the cluster's address and token in the Cluster panel.
      const teacherContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await teacherContext.addInitScript(LONG_TASKS);
      const teacher = await teacherContext.newPage();
      const teacherProblems: string[] = [];
      teacher.on('pageerror', (err) => teacherProblems.push(err.message));
      teacher.on('crash', () => teacherProblems.push('the page crashed'));
      const config = resolveExperiment('impala-cartpole', { backend: 'wasm', actors, 'run.envSteps': 5_000_000 });
      await teacher.goto(`${app}#x=${encodeExperiment(config)}`, { timeout: 120_000 });
      await teacher.getByTestId('cluster-connect').locator('summary').click({ timeout: 120_000 });
      await teacher.getByTestId('cluster-url').fill(wsUrl);
      await teacher.getByTestId('cluster-token').fill(token);
      await teacher.getByTestId('cluster-use').click();
      await teacher.getByTestId('cluster-learn').click();
      await teacher.getByTestId('cluster-learner-status').getByText('take their actors from the cluster').waitFor({ timeout: 60_000 });

      // The class joins, a few tabs loading at a time.
      const joinStart = Date.now();
      const class_: Student[] = [];
      for (let i = 0; i < students; i += JOINS_AT_ONCE) {
        const batch = Array.from({ length: Math.min(JOINS_AT_ONCE, students - i) }, (_, k) => `student-${String(i + k + 1).padStart(2, '0')}`);
        class_.push(...(await Promise.all(batch.map((name) => joinStudent(browser as Browser, joinLink, name)))));
        process.stderr.write(`classroom: ${class_.filter((s) => s.joined).length} of ${class_.length} tabs joined\n`);
      }
      const joinEnd = Date.now();
      const joined = class_.filter((s) => s.joined);
      // A tab that did not join in time is closed: the class is the tabs that did.
      await Promise.all(class_.filter((s) => !s.joined).map((s) => s.context.close()));
      let live = 0;
      for (let waited = 0; waited < 15_000; waited += 500) {
        live = (await sampleTeacher(teacher)).hosts.filter((h) => h.state === 'live').length;
        if (live >= joined.length) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      Object.assign(figures, {
        joinsAccepted: joined.length,
        liveHostsAtTeacher: live,
        joinSecondsMedian: median(joined.map((s) => s.joinMs)) / 1000,
        joinSecondsMax: Math.max(...joined.map((s) => s.joinMs)) / 1000,
        joiningSeconds: (joinEnd - joinStart) / 1000,
        chromiumMiB: chromiumMiB(),
        teacherLongestTaskWhileJoiningMs: Math.max(0, ...(await longTasks(teacher, joinStart, joinEnd))),
      });
      process.stderr.write(`classroom: ${joined.length} of ${students} joined, ${live} live at the teacher; training\n`);

      // The teacher trains with A of them.
      await teacher.getByTestId('start').click();
      const samples: TeacherSample[] = [];
      const rec = recorder(teacher, samples);
      const placed = (s: TeacherSample, gone: Set<string> = new Set()): number => s.actors.filter((a) => a.host.startsWith('student-') && !gone.has(a.host) && a.state !== 'dead').length;
      const trainStart = Date.now();
      let allPlacedAt = NaN;
      let firstSegmentAt = NaN;
      while (Date.now() - trainStart < START_TIMEOUT_MS && !teacher.isClosed()) {
        const last = samples[samples.length - 1];
        if (last && Number.isNaN(allPlacedAt) && placed(last) === actors) allPlacedAt = last.at;
        if (last && Number.isNaN(firstSegmentAt) && last.taken > 0) firstSegmentAt = last.at;
        if (!Number.isNaN(allPlacedAt) && !Number.isNaN(firstSegmentAt)) break;
        if (last && samples.length % 40 === 0) process.stderr.write(`classroom: ${((Date.now() - trainStart) / 1000).toFixed(0)} s after Start, ${placed(last)} actors placed, ${last.taken} segments learned\n`);
        await new Promise((r) => setTimeout(r, 250));
      }
      if (Number.isNaN(firstSegmentAt)) {
        await rec.stop();
        const last = samples[samples.length - 1];
        throw new Error(`no segment reached the teacher's learner within ${(Date.now() - trainStart) / 1000} s (${last ? placed(last) : 0} actors placed${teacher.isClosed() ? ', the teacher\'s page closed' : ''})`);
      }
      // Warm-up: every actor's first segments (workers compiling, weights fetched) are not counted.
      await new Promise((r) => setTimeout(r, 10_000));
      const steadyFrom = Date.now();
      const sentBefore = await Promise.all(joined.map(segmentsSent));
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const steadyTo = Date.now();
      const rate = rateBetween(samples, steadyFrom, steadyTo);
      const atSteady = samples[samples.length - 1];
      const sentAtSteady = await Promise.all(joined.map(segmentsSent));
      const teacherActorsRunning = placed(atSteady);
      const studentsRunning = joined.filter((_, i) => sentAtSteady[i] > sentBefore[i]).length;
      const steadyTasks = await longTasks(teacher, steadyFrom, steadyTo);
      Object.assign(figures, {
        secondsToAllActorsPlaced: (allPlacedAt - trainStart) / 1000,
        secondsToFirstSegment: (firstSegmentAt - trainStart) / 1000,
        actorsRunning: teacherActorsRunning,
        studentTabsSendingSegments: studentsRunning,
        segmentsPerSecond: rate,
        longestStallSteadySeconds: longestStall(samples, steadyFrom, steadyTo),
        envStepsPerSecond: rate * config.settings.envsPerActor * config.settings['sampling.segmentLength'],
        teacherLongestTaskTrainingMs: Math.max(0, ...steadyTasks),
        teacherLongTasksTraining: steadyTasks.length,
        loadAverageTraining: loadavg(),
        chromiumMiBTraining: chromiumMiB(),
      });
      process.stderr.write(`classroom: ${teacherActorsRunning} actors running, ${rate.toFixed(1)} segments/s at the learner\n`);

      // C tabs close at once: those running the run's actors first.
      const hosting = new Set(atSteady.actors.map((a) => a.host));
      const order = [...joined.filter((s) => hosting.has(s.name)), ...joined.filter((s) => !hosting.has(s.name))];
      const closed = order.slice(0, closing);
      const closedNames = new Set(closed.map((s) => s.name));
      const remaining = joined.filter((s) => !closedNames.has(s.name));
      const actorsOnClosed = atSteady.actors.filter((a) => closedNames.has(a.host)).length;
      const respawns0 = atSteady.actors.reduce((a, x) => a + x.respawns, 0);
      const lost0 = atSteady.lost;
      const remainingSent0 = await Promise.all(remaining.map(segmentsSent));
      const closeAt = Date.now();
      await Promise.all(closed.map((s) => s.context.close()));
      const closeEnd = Date.now();
      let allGoneAt = NaN;
      let replacedAt = NaN;
      while (Date.now() - closeAt < after * 1000) {
        const last = samples[samples.length - 1];
        if (last && last.at > closeEnd) {
          const gone = last.hosts.filter((h) => closedNames.has(h.name) && h.state === 'gone').length;
          if (Number.isNaN(allGoneAt) && gone === closed.length) allGoneAt = last.at;
          if (Number.isNaN(replacedAt) && !Number.isNaN(allGoneAt) && placed(last, closedNames) === Math.min(actors, remaining.length)) replacedAt = last.at;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      const end = Date.now();
      await rec.stop();
      const final = samples[samples.length - 1];
      const remainingSent1 = await Promise.all(remaining.map(segmentsSent));
      const remainingOn = await Promise.all(remaining.map((s) => s.page.locator('[data-testid="cluster-host-status"][data-phase="on"]').count()));
      // The first window of RECOVERY_WINDOW_MS after the close whose rate is back to 90 % of the steady rate.
      let recoveredAt = NaN;
      for (const s of samples.filter((x) => x.at >= closeAt && x.at + RECOVERY_WINDOW_MS <= end)) {
        if (rateBetween(samples, s.at, s.at + RECOVERY_WINDOW_MS) >= 0.9 * rate) {
          recoveredAt = s.at;
          break;
        }
      }
      const dip = Math.min(...samples.filter((x) => x.at >= closeAt && x.at + RECOVERY_WINDOW_MS <= end).map((s) => rateBetween(samples, s.at, s.at + RECOVERY_WINDOW_MS)));
      const closeTasks = await longTasks(teacher, closeAt, end);
      const remainingProblems = remaining.flatMap((s) => s.problems.map((p) => `${s.name}: ${p}`));
      Object.assign(figures, {
        tabsClosed: closed.length,
        actorsOnClosedTabs: actorsOnClosed,
        remainingTabsStillOn: remainingOn.filter((n) => n > 0).length,
        remainingTabs: remaining.length,
        remainingTabsHostingAtClose: remaining.filter((s) => hosting.has(s.name)).length,
        remainingTabsHostingAtCloseStillSending: remaining.filter((s, i) => hosting.has(s.name) && remainingSent1[i] > remainingSent0[i]).length,
        tabsGivenReplacements: remaining.filter((s) => !hosting.has(s.name) && final.actors.some((a) => a.host === s.name)).length,
        tabsGivenReplacementsSending: remaining.filter((s, i) => !hosting.has(s.name) && final.actors.some((a) => a.host === s.name) && remainingSent1[i] > remainingSent0[i]).length,
        timeline: samples.filter((x) => x.at >= closeAt - 10_000).map((x) => ({ t: (x.at - closeAt) / 1000, taken: x.taken, placed: placed(x, closedNames), gone: x.hosts.filter((h) => h.state === 'gone').length })),
        secondsUntilClosedTabsGone: (allGoneAt - closeAt) / 1000,
        secondsUntilActorsReplaced: (replacedAt - closeAt) / 1000,
        actorsRunningAtEnd: placed(final, closedNames),
        respawnsReported: final.actors.reduce((a, x) => a + x.respawns, 0) - respawns0,
        lostSegmentsReported: final.lost - lost0,
        secondsUntilRateRecovered: (recoveredAt - closeAt) / 1000,
        lowestRateAfterClose: dip,
        longestStallAfterCloseSeconds: longestStall(samples, closeAt, end),
        segmentsPerSecondAfter: rateBetween(samples, end - 15_000, end),
        teacherLongestTaskAfterCloseMs: Math.max(0, ...closeTasks),
        problemsOnRemainingTabs: remainingProblems,
        problemsOnTeacher: teacherProblems,
        joinProblems: class_.filter((s) => !s.joined).map((s) => `${s.name}: ${s.problems.join('; ')}`),
        loadAverageAfter: loadavg(),
      });
      await teacher.getByTestId('stop').click().catch(() => undefined);
    } finally {
      await browser?.close().catch(() => undefined);
      await stop(cluster, false);
      await stop(dev, true);
      rmSync(tmp, { recursive: true, force: true });
    }

    const g = figures as Record<string, number>;
    const la = (x: unknown): string => (Array.isArray(x) ? x.map((v: number) => v.toFixed(2)).join(' / ') : '–');
    const rows: (string | number)[][] = [
      ['joins accepted', `${g.joinsAccepted} of ${students} (${g.liveHostsAtTeacher} live in the teacher's hosts table); join median ${g.joinSecondsMedian.toFixed(1)} s, slowest ${g.joinSecondsMax.toFixed(1)} s, ${JOINS_AT_ONCE} tabs loading at a time, ${g.joiningSeconds.toFixed(0)} s for the class`],
      ['Chromium memory (PSS)', `${Math.round(g.chromiumMiB)} MiB with ${g.joinsAccepted} students and the teacher loaded, ${Math.round(g.chromiumMiBTraining)} MiB while training (${Math.round(g.chromiumMiBTraining / (g.joinsAccepted + 1))} MiB a tab)`],
      ['actors running', `${g.actorsRunning} of the run's ${actors} (on ${g.studentTabsSendingSegments} student tabs sending segments); all placed ${g.secondsToAllActorsPlaced.toFixed(1)} s after Start, first segment at ${g.secondsToFirstSegment.toFixed(1)} s`],
      ['segments/s at the learner', `${g.segmentsPerSecond.toFixed(1)} (${Math.round(g.envStepsPerSecond)} env steps/s) over ${seconds} s`],
      ["teacher's longest task", `joining ${ms(g.teacherLongestTaskWhileJoiningMs)}, training ${ms(g.teacherLongestTaskTrainingMs)} (${g.teacherLongTasksTraining} tasks over 50 ms in ${seconds} s), after the close ${ms(g.teacherLongestTaskAfterCloseMs)}`],
      [`${g.tabsClosed} tabs closed at once`, `${g.actorsOnClosedTabs} of them ran actors; ${g.remainingTabsStillOn} of ${g.remainingTabs} others still contributing; of the ${g.remainingTabsHostingAtClose} that ran actors at the close, ${g.remainingTabsHostingAtCloseStillSending} sent segments after it; ${g.tabsGivenReplacements} tabs got the replacements, ${g.tabsGivenReplacementsSending} of them sent segments within ${after} s`],
      ['closed tabs reported', `all ${g.tabsClosed} marked gone after ${Number.isFinite(g.secondsUntilClosedTabsGone) ? `${g.secondsUntilClosedTabsGone.toFixed(1)} s` : 'never'}; ${g.respawnsReported} actor restarts and ${g.lostSegmentsReported} lost batches in the Actors panel`],
      ['actors replaced', `${g.actorsRunningAtEnd} of ${actors} running on open tabs at the end; all placed again ${Number.isFinite(g.secondsUntilActorsReplaced) ? `${g.secondsUntilActorsReplaced.toFixed(1)} s` : 'never'} after the close`],
      ["learner's rate after the close", `lowest ${g.lowestRateAfterClose.toFixed(1)}/s (${RECOVERY_WINDOW_MS / 1000} s windows), back to 90 % of ${g.segmentsPerSecond.toFixed(1)}/s ${Number.isFinite(g.secondsUntilRateRecovered) ? `${g.secondsUntilRateRecovered.toFixed(1)} s after the close` : `not within ${after} s`}; last 15 s: ${g.segmentsPerSecondAfter.toFixed(1)}/s; longest stretch without a segment learned ${g.longestStallAfterCloseSeconds.toFixed(1)} s after the close, ${g.longestStallSteadySeconds.toFixed(1)} s in the steady window`],
      ['page errors', `teacher ${(figures.problemsOnTeacher as string[]).length}, remaining students ${(figures.problemsOnRemainingTabs as string[]).length}, failed joins ${(figures.joinProblems as string[]).length}`],
      ['load average (1/5/15 min)', `before ${la(figures.loadAverageBefore)}, training ${la(figures.loadAverageTraining)}, after ${la(figures.loadAverageAfter)}`],
    ];
    const table = markdownTable(['classroom', 'measured'], rows);
    const problems = [...(figures.problemsOnTeacher as string[]), ...(figures.problemsOnRemainingTabs as string[]), ...(figures.joinProblems as string[])];
    process.stdout.write(`${table}\n${problems.length ? `\nproblems:\n${problems.slice(0, 20).map((p) => `  ${p}`).join('\n')}\n` : ''}`);
    return { table, figures };
  },
};
