/**
 * Live changes end to end: change the learning rate while QuickStart trains, see it marked on the
 * chart and listed, copy the link, and check that `npm run train -- --url LINK` replays the change at
 * the same update and the whole run with it: every update's returns, episode lengths and losses
 * equal the page's (issue 14: both on wasm, in two different V8s).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const root = new URL('../../', import.meta.url).pathname;

// On wasm in both places, one actor and a fixed seed. The budget is one no machine spends before the
// test pauses the run: the test stops it after more than 100 updates (page and CLI once parted at
// update 55 of this run), and the CLI replays it to the same number of steps.
const config = resolveExperiment('quickstart', { backend: 'wasm', actors: 1, envsPerActor: 2, seed: 2, 'run.envSteps': 5_000_000 });
const UPDATES = 110;

interface UpdateLine {
  type: 'update';
  update: number;
  envSteps: number;
  returns: number[];
  lengths: number[];
  metrics: Record<string, number>;
}
interface ChangeLine {
  type: 'change';
  update: number;
  key: string;
  to: number;
}

test('a learning rate changed while QuickStart trains is marked, carried by the link and replayed by the CLI', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto(`/#x=${encodeExperiment(config)}`);
  await page.getByTestId('start').click();
  // Pause as soon as it runs (the click waits for the button to be enabled).
  await page.getByTestId('pause').click({ timeout: 60_000 });
  await expectStatus(page, 'paused', 30_000);

  // Paused mid-run: the learning rate is live, the network size is not.
  const lr = page.locator('[data-setting="reinforce.lr"] input');
  await expect(lr).toBeEnabled();
  await expect(page.locator('[data-setting="model.hidden"] input')).toBeDisabled();
  await lr.fill('0.03');
  await lr.press('Enter');
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('live-changes')).toContainText('Learning rate = 0.03', { timeout: 30_000 });
  await expect(page.getByTestId('return-chart').locator('.change-marker').first()).toBeAttached();
  await expect
    .poll(async () => Number(((await page.getByTestId('updates').textContent()) ?? '0').replace(/\D/g, '')), { timeout: 180_000 })
    .toBeGreaterThan(UPDATES);
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done', 60_000);
  await page.screenshot({ path: `${shots}live-change.png`, fullPage: true });

  // The page's own records of the run, from its export.
  const download = page.waitForEvent('download');
  await page.getByTestId('run').first().getByTestId('export-run').click();
  const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as { run: { records: (UpdateLine | ChangeLine | { type: string })[] } };
  const pageUpdates = exported.run.records.filter((r): r is UpdateLine => r.type === 'update');
  const pageChanges = exported.run.records.filter((r): r is ChangeLine => r.type === 'change');
  expect(pageChanges).toHaveLength(1);
  expect(pageChanges[0]).toMatchObject({ key: 'reinforce.lr', to: 0.03 });
  expect(pageChanges[0].update).toBeGreaterThanOrEqual(1);
  expect(pageUpdates.length).toBeGreaterThan(pageChanges[0].update);

  // The page's link (the address bar follows the experiment, changes included; Share copies the same link).
  const link = page.url();
  expect(link).toContain('#x=');

  // The CLI runs the link to the page's last update: its budget ends at the steps the page reached.
  const steps = pageUpdates[pageUpdates.length - 1].envSteps;
  const out = join(mkdtempSync(join(tmpdir(), 'live-')), 'run.jsonl');
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/train.ts', '--url', link, '--steps', String(steps), '--quiet', '--out', out], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
  const cliUpdates = lines.filter((r): r is UpdateLine => r.type === 'update');
  const cliChanges = lines.filter((r): r is ChangeLine => r.type === 'change');

  // The CLI applies the link's change at the same update as the page did.
  expect(cliChanges.map((c) => [c.update, c.key, c.to])).toEqual(pageChanges.map((c) => [c.update, c.key, c.to]));
  // The same episodes for the whole run: every update's returns and lengths, and the learner's
  // losses (the same weights), to the last bit. Only the clock-based figures may differ.
  const run = (updates: UpdateLine[]) => updates.map((u) => ({ update: u.update, envSteps: u.envSteps, returns: u.returns, lengths: u.lengths, metrics: u.metrics }));
  const pageRun = run(pageUpdates);
  const cliRun = run(cliUpdates);
  const firstDiff = pageRun.findIndex((u, i) => JSON.stringify(u) !== JSON.stringify(cliRun[i]));
  expect(firstDiff, `page and CLI differ from update ${firstDiff + 1} on`).toBe(-1);
  expect(cliRun).toEqual(pageRun);
  expect(pageRun.length).toBeGreaterThan(UPDATES);
});
