import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { connectCluster } from '../../src/cluster/connect';
import { readCreds } from '../../src/cluster/creds';
import { NatsActorSpawner } from '../../src/cluster/natsSpawner';
import { resolveExperiment } from '../../src/config/config';
import { modelSpecFor } from '../../src/config/modelSpec';
import { remoteClass } from '../../src/core/remote/remoteClass';
import { RolloutActor } from '../../src/engine/rolloutActor';
import { encodeExperiment } from '../../src/config/urlState';
import { startNatsServer, type RunningNatsServer } from '../../src/cluster/natsServer';
import { generateToken } from '../../src/cluster/serverConfig';
import { test, expect, expectStatus } from './fixtures';

/**
 * Classroom mode on loopback: a real nats-server (WebSocket listener, token, JetStream) on random
 * ports; tab A (the teacher) trains with the cluster's actors and offers none of its own, tab B
 * (a student, another browser context) opens A's join link and contributes actors. Everything A's
 * run learns can only come from B. A second test follows the README as a teacher would: the
 * join link `npm run cluster` prints opens on the dev server (`npm run dev`, port 5173), and the
 * tab's actor, a Web Worker the dev server serves, answers a learner with segments.
 */
// The preview server this run's tests use (playwright.config.ts: E2E_PORT, default 4173).
const APP_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT) || 4173}`;
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

let server: RunningNatsServer;
let token: string;

test.beforeAll(async () => {
  token = generateToken();
  server = await startNatsServer({ host: '127.0.0.1', port: -1, wsPort: -1, token, allowedOrigins: [APP_ORIGIN] });
});

test.afterAll(async () => {
  await server?.stop();
});

function failOnErrors(page: Page, problems: string[]): void {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`tab B console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`tab B page error: ${err.message}`));
}

async function numberIn(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).first().textContent())?.replace(/,/g, '') ?? NaN);
}

test('a tab that opens the join link contributes actors to another tab\'s run', async ({ page: a, browser }) => {
  test.setTimeout(240_000);
  expect(server.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  const config = resolveExperiment('impala-cartpole', { backend: 'wasm', actors: 2, 'run.envSteps': 1_000_000 });
  await a.goto(`/#x=${encodeExperiment(config)}`);

  // A: the teacher connects its learner to the cluster.
  await a.getByTestId('cluster-connect').locator('summary').click(); // closed until someone wants it
  await a.getByTestId('cluster-url').fill(server.wsUrl ?? '');
  await a.getByTestId('cluster-token').fill(token);
  await a.getByTestId('cluster-use').click();
  await a.getByTestId('cluster-learn').click();
  await expect(a.getByTestId('cluster-learner-status')).toContainText('take their actors from the cluster', { timeout: 30_000 });
  const joinLink = await a.getByTestId('cluster-join-link').inputValue();
  expect(joinLink).toContain('#join=');
  // The experiment's share link never carries the token.
  await a.getByText('Share this experiment').click();
  await a.getByTestId('copy-link').click();
  expect(await a.getByTestId('share-link').inputValue()).not.toContain(token);

  // B: a student opens the join link in another browser context.
  const contextB = await browser.newContext();
  const problemsB: string[] = [];
  try {
    const b = await contextB.newPage();
    failOnErrors(b, problemsB);
    await b.goto(joinLink);
    await expect(b.getByTestId('cluster-join-note')).toContainText('grants access');
    // The token left the address bar as the page loaded.
    await expect.poll(() => b.url()).not.toContain(token);
    await b.getByTestId('cluster-name').fill('student-b');
    await b.getByTestId('cluster-offer').fill('2');
    await b.getByTestId('cluster-contribute').click();
    await expect(b.getByTestId('cluster-host-status')).toHaveAttribute('data-phase', 'on', { timeout: 30_000 });

    // A sees B's tab as a live host before it starts.
    const rowB = a.locator('[data-testid="cluster-hosts"] tr[data-host="student-b"]');
    await expect(rowB).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
    await expect(a.locator('[data-testid="cluster-hosts"] tbody tr')).toHaveCount(1);

    await a.getByTestId('start').click();
    await expectStatus(a, 'running', 90_000);
    // Both of A's actors run in B's tab, and B says it runs them.
    await expect(a.getByTestId('actors').locator('tbody tr')).toHaveCount(2);
    await expect(a.getByTestId('actor-host-0')).toHaveText(/on student-b/, { timeout: 30_000 });
    await expect(a.getByTestId('actor-host-1')).toHaveText(/on student-b/);
    await expect(b.getByTestId('cluster-host-actors')).toHaveText('2', { timeout: 30_000 });

    // Segments flow from B's actors through the stream into A's learner.
    await expect.poll(() => numberIn(a, 'cluster-stream-taken'), { timeout: 90_000 }).toBeGreaterThan(4);
    await expect.poll(() => numberIn(a, 'cluster-host-row-segments'), { timeout: 30_000 }).toBeGreaterThan(4);
    await expect(a.getByTestId('env-steps')).not.toHaveText(/^0 /, { timeout: 30_000 });
    const learned = await numberIn(a, 'cluster-stream-taken');
    await expect.poll(() => numberIn(b, 'cluster-host-segments'), { timeout: 10_000 }).toBeGreaterThanOrEqual(learned);
    // The teacher crashes one of B's actors: B's tab reports the death, the pool starts a replacement there.
    await a.getByTestId('crash-0').click();
    await expect(a.getByTestId('respawns-0')).toHaveText('1', { timeout: 30_000 });
    await expect(a.getByTestId('cluster-host-row-respawns')).toHaveText('1', { timeout: 10_000 });
    await expect(a.getByTestId('actor-host-0')).toHaveText(/on student-b/, { timeout: 30_000 });
    await a.getByTestId('cluster-panel').screenshot({ path: `${shots}cluster-teacher.png` });
    await b.getByTestId('cluster-panel').screenshot({ path: `${shots}cluster-student.png` });

    await a.getByTestId('stop').click();
    await expectStatus(a, 'done', 60_000);
    await b.getByTestId('cluster-stop-contributing').click();
    await expect(b.getByTestId('cluster-host-status')).toHaveAttribute('data-phase', 'off');
  } finally {
    await contextB.close();
  }
  expect(problemsB, problemsB.join('\n')).toEqual([]);
});

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
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

// The dev server's port: npm run dev's 5173 unless E2E_DEV_PORT picks another (two checkouts side by
// side); on another port the cluster is told the page's origin and address, as a teacher would.
const DEV_PORT = Number(process.env.E2E_DEV_PORT) || 5173;
const DEV_FLAGS = DEV_PORT === 5173 ? [] : ['--origin', `http://localhost:${DEV_PORT}`, '--app', `http://localhost:${DEV_PORT}/`];

test("the join link npm run cluster prints opens on the dev server (npm run dev, port 5173), and the tab's actor sends segments", async ({ browser }) => {
  test.setTimeout(300_000);
  const tmp = mkdtempSync(join(tmpdir(), 'parl-e2e-dev-'));
  const creds = join(tmp, 'cluster.creds');
  // The README's two commands: the cluster (its defaults: the page at http://localhost:5173/), and the dev server.
  const cluster = spawn(process.execPath, ['--import', 'tsx', 'src/cli/cluster.ts', '--port', '-1', '--ws-port', '-1', '--creds', creds, ...DEV_FLAGS], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const dev = spawn('npx', ['vite', '--port', String(DEV_PORT), '--strictPort'], { cwd: REPO, stdio: 'ignore', detached: true });
  const contextB = await browser.newContext();
  const problemsB: string[] = [];
  let spawner: NatsActorSpawner | undefined;
  try {
    const printed = await outputOf(cluster, /Ctrl-C stops the cluster/, 'npm run cluster');
    const joinLink = /^\s*(http\S*#join=\S+)$/m.exec(printed)?.[1] ?? '';
    expect(joinLink.startsWith(`http://localhost:${DEV_PORT}/#join=`)).toBe(true);
    await servesPage(`http://localhost:${DEV_PORT}/`, 120_000);
    expect(dev.exitCode, `port ${DEV_PORT} was taken: another dev server answers there`).toBeNull();

    // The teacher's side: a learner with the printed credentials, watching for the tab's beat.
    const c = readCreds(creds);
    const nc = await connectCluster({ servers: c.servers, token: c.token, name: 'teacher' });
    spawner = new NatsActorSpawner(nc);

    const b = await contextB.newPage();
    failOnErrors(b, problemsB);
    await b.goto(joinLink);
    await expect(b.getByTestId('cluster-join-note')).toContainText('grants access', { timeout: 120_000 });
    await b.getByTestId('cluster-name').fill('student-dev');
    await b.getByTestId('cluster-offer').fill('1');
    await b.getByTestId('cluster-contribute').click();
    // Its WebSocket opened from the dev server's origin (refused before: only the preview's port was allowed).
    await expect(b.getByTestId('cluster-host-status')).toHaveAttribute('data-phase', 'on', { timeout: 60_000 });
    const learner = spawner;
    await expect.poll(() => learner.liveHosts().filter((h) => h.hostName === 'student-dev').map((h) => h.capacity), { timeout: 15_000 }).toEqual([1]);

    // The learner builds an actor in the tab's only slot and asks it for segments: the tab's Web
    // Worker (its module and the tfjs wasm binary from the dev server) steps the envs and answers.
    const config = resolveExperiment('impala-cartpole', { seed: 1, backend: 'wasm' });
    const s = config.settings;
    const actor = await remoteClass(RolloutActor, { spawner: learner }).create({ envId: s['env.id'], numEnvs: s.envsPerActor, seed: 1, actorIndex: 0, model: modelSpecFor(config, 'actorCritic'), backend: 'wasm' });
    await actor.init();
    await expect(b.getByTestId('cluster-host-actors')).toHaveText('1', { timeout: 30_000 });
    const T = 16;
    for (let k = 0; k < 3; k++) {
      const seg = await actor.sampleSegment(null, 0, T, 0);
      expect([seg.T, seg.numEnvs, seg.rewards.length]).toEqual([T, s.envsPerActor, T * s.envsPerActor]);
      expect(seg.obs.every(Number.isFinite)).toBe(true);
    }
    expect(learner.placements().map((p) => p.hostName)).toEqual(['student-dev']);
    // init and the three segments: four calls the tab says it answered.
    await expect.poll(() => numberIn(b, 'cluster-host-answered'), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    await actor.terminate();
    await b.getByTestId('cluster-stop-contributing').click();
    await expect(b.getByTestId('cluster-host-status')).toHaveAttribute('data-phase', 'off');
    await spawner.close();
    await nc.close();
  } finally {
    await contextB.close();
    await spawner?.close().catch(() => undefined);
    if (cluster.exitCode === null) {
      const exited = new Promise((r) => cluster.once('exit', r));
      cluster.kill('SIGTERM');
      await exited;
    }
    if (dev.pid !== undefined) process.kill(-dev.pid, 'SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
  expect(problemsB, problemsB.join('\n')).toEqual([]);
});
