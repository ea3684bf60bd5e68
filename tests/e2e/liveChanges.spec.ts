/**
 * Live changes end to end: change the learning rate while QuickStart trains, see it marked on the
 * chart and listed, copy the link, and check that `npm run train -- --url LINK` replays the change at
 * the same update. (That the whole run's returns match the page's is issue 14's open part: see below.)
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

// On wasm in both places, one actor, a fixed seed. QuickStart runs thousands of steps a second on
// wasm, so the budget is large and the test stops the run itself; the CLI replays it to the same
// number of steps (--steps), which ends it after the same update.
const config = resolveExperiment('quickstart', { backend: 'wasm', actors: 1, envsPerActor: 2, seed: 2, 'run.envSteps': 1_000_000 });

interface UpdateLine {
  type: 'update';
  update: number;
  envSteps: number;
  returns: number[];
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

  const out = join(mkdtempSync(join(tmpdir(), 'live-')), 'run.jsonl');
  const steps = pageUpdates[pageUpdates.length - 1].envSteps;
  execFileSync('npx', ['tsx', 'src/cli/train.ts', '--url', link, '--steps', String(steps), '--quiet', '--out', out], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
  const cliUpdates = lines.filter((r): r is UpdateLine => r.type === 'update');
  const cliChanges = lines.filter((r): r is ChangeLine => r.type === 'change');

  // The CLI applies the link's change at the same update as the page did.
  expect(cliChanges.map((c) => [c.update, c.key, c.to])).toEqual(pageChanges.map((c) => [c.update, c.key, c.to]));
  expect(cliUpdates.length).toBeGreaterThan(pageChanges[0].update);
  // Not yet true, so reported rather than asserted (issue 14): page and CLI on wasm drift apart after
  // a few dozen updates even without a change, so their returns are compared and the first
  // difference is printed for the issue note.
  const firstDiff = pageUpdates.findIndex((u, i) => JSON.stringify(u.returns) !== JSON.stringify(cliUpdates[i]?.returns));
  console.log(`page vs CLI returns: ${firstDiff < 0 ? 'identical for every update' : `first differ at update ${firstDiff + 1} of ${pageUpdates.length}`} (change at update ${pageChanges[0].update})`);
});
