/**
 * The playground UI end to end: links (shared, tampered, teaching), a QuickStart run with live
 * charts, pause/resume, a crashed actor, reload mid-run, saved runs (overlay, export, import into
 * a fresh profile). Budgets are small: SwiftShader WebGPU is slow.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import LZString from 'lz-string';
import type { Page } from '@playwright/test';
import { test, expect, expectStatus } from './fixtures';

const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));

async function setNumber(page: Page, label: string, value: number) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(String(value));
  await input.press('Enter');
  await expect(input).toHaveValue(String(value));
}

async function exportedRun(page: Page, runIndex = 0): Promise<{ run: { records: unknown[]; config: unknown; name: string; weights?: { update: number; base64: string } } }> {
  const download = page.waitForEvent('download');
  await page.getByTestId('run').nth(runIndex).getByTestId('export-run').click();
  const file = await (await download).path();
  return JSON.parse(readFileSync(file, 'utf8'));
}

test('a tampered link loads what it can, lists what it ignored, and the app keeps working', async ({ page }) => {
  await page.goto(`/#x=${token({ v: 1, p: 'quickstart', s: { seed: 5, actors: 1000, 'no.such': 1 }, ui: { h: ['bogus'] } })}`);
  const notice = page.getByTestId('notices').locator('.notice-warning');
  await expect(notice).toContainText('could not be used');
  await expect(notice).toContainText('actors: must be an integer in [1, 16], got 1000');
  await expect(notice).toContainText('no.such');
  await expect(notice).toContainText('hide.bogus');
  await expect(page.getByLabel('Seed', { exact: true })).toHaveValue('5');
  await expect(page.getByLabel('Actors (workers)', { exact: true })).toHaveValue('2');
  await page.screenshot({ path: `${shots}tampered-link.png` });

  await page.goto('/?again#x=definitely-not-a-link');
  await expect(page.getByTestId('notices')).toContainText('not a PARL Playground link');
  await setNumber(page, 'Seed', 42);
  await expect(page.getByTestId('backend-name')).toHaveText('wasm');

  // A bad run file is refused with the reason and the run list is untouched.
  await page.getByTestId('import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"parl-playground-run","version":1,"run":{}}') });
  await expect(page.getByTestId('notices')).toContainText('Refused bad.json: run.id');
  await expect(page.getByTestId('run')).toHaveCount(0);
});

test('the URL follows the settings; a copied link opens the same experiment; teaching links hide and autostart', async ({ page, context }) => {
  await page.goto('/');
  await setNumber(page, 'Seed', 1234);
  await setNumber(page, 'Budget (env steps)', 2000);
  await expect.poll(() => page.url()).toContain('#x=');
  await page.getByText('Share this experiment').click();
  await page.getByLabel('Start training when the link opens').check();
  await page.getByRole('checkbox', { name: 'settings' }).check();
  await page.getByRole('checkbox', { name: 'teaching notes' }).check();
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-link').inputValue();

  const plain = await context.newPage();
  await plain.goto(page.url());
  await expect(plain.getByLabel('Seed', { exact: true })).toHaveValue('1234');
  await expect(plain.getByLabel('Budget (env steps)', { exact: true })).toHaveValue('2000');
  await plain.close();

  const teaching = await context.newPage();
  await teaching.goto(link);
  await expect(teaching.getByText('A simplified view for teaching')).toBeVisible();
  await expect(teaching.locator('#teaching')).toHaveCount(0);
  await expect(teaching.getByLabel('Seed', { exact: true })).toHaveCount(0);
  await expect(teaching.getByTestId('status')).toHaveText(/starting|running|done/, { timeout: 60_000 });
  await expectStatus(teaching, 'done', 90_000);
  await expect(teaching.getByTestId('env-steps')).toContainText('/ 2,000 steps');
  await teaching.screenshot({ path: `${shots}teaching-link.png` });
  await teaching.close();
});

test('train, crash an actor, pause and resume, reload mid-run, overlay runs, export and import into a fresh profile', async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm');
  // Pick a preset: its settings group appears; then back to QuickStart for a short run.
  await page.getByRole('radio', { name: /^PPO on CartPole \(synchronous/ }).check();
  await expect(page.getByText('PPO hyperparameters')).toBeVisible();
  await expect.poll(() => page.url()).toContain('#x=');
  await page.getByRole('radio', { name: /^QuickStart/ }).check();
  await expect(page.getByText('PPO hyperparameters')).toHaveCount(0);
  // On wasm (what auto picks here) QuickStart does tens of thousands of steps a second: a budget that lasts.
  await setNumber(page, 'Budget (env steps)', 2000000);
  await page.getByTestId('start').click();
  await expect(page.getByTestId('status')).toHaveText('running', { timeout: 60_000 });
  const chart = page.getByTestId('return-chart');
  await expect.poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 60_000 }).toBeGreaterThan(8);
  await expect(page.getByTestId('loss-chart')).toBeVisible();
  await expect(page.getByTestId('throughput-chart')).toBeVisible();
  const progress = page.getByTestId('progress');
  const before = Number(await progress.getAttribute('aria-valuenow'));
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(before);

  await page.getByTestId('crash-0').click();
  await expect(page.getByTestId('respawns-0')).toHaveText('1', { timeout: 60_000 });
  // The notice names the slot and the new worker as the one that started in place of the dead one.
  await expect(page.getByTestId('notices')).toContainText(/actor 0 replaced: RolloutActor#\d+ started in place of the one that died/);
  await expect(page.getByTestId('status')).toHaveText('running');
  await page.screenshot({ path: `${shots}desktop-running.png` });

  await page.getByTestId('pause').click();
  await expect(page.getByTestId('status')).toHaveText('paused');
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('status')).toHaveText('running');

  // Reload mid-run: the run is in the list, marked interrupted, with what was saved.
  await page.waitForTimeout(1_500);
  await page.reload();
  const interrupted = page.locator('[data-testid="run"][data-status="interrupted"]');
  await expect(interrupted).toHaveCount(1);

  // A second, short run to the end, then both overlaid on the return chart.
  await setNumber(page, 'Budget (env steps)', 3000);
  await setNumber(page, 'Seed', 2);
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 90_000);
  await expect(page.locator('[data-testid="run"][data-status="done"]')).toHaveCount(1);
  // The box is checked once the run's curve is read from IndexedDB, so click, then wait.
  for (const box of await page.getByTestId('overlay').all()) {
    await box.click();
    await expect(box).toBeChecked();
  }
  // Charts scrolled out of view hold still until they are back on screen (notices now sit in the page flow, so the runs list is lower).
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator('.recharts-line')).toHaveCount(1 + 1 + 2);
  // Each overlay is named with what differs from the current settings.
  // The average plot's legend (the episodes plot has its own: each episode, target).
  const overlayLegend = chart.locator('.chart-legend', { hasText: 'this run' });
  await expect(overlayLegend).toContainText('(seed 1, Budget (env steps) 2,000,000)');
  await expect(overlayLegend).toContainText('(same settings as now)');
  await page.screenshot({ path: `${shots}desktop-overlay.png`, fullPage: true });

  // Rename, then export; import into a fresh profile and export again: the same metrics.
  await page.getByTestId('run').first().getByTestId('rename-run').click();
  await page.getByLabel('Run name').fill('short run');
  await page.getByLabel('Run name').press('Enter');
  await expect(page.getByTestId('run').first().getByTestId('run-name')).toHaveText('short run');
  const original = await exportedRun(page);
  expect(original.run.name).toBe('short run');
  // The run kept the learner's final weights: listed, downloadable, and in the exported file.
  const finalUpdate = (original.run.records as { type: string; updates?: number }[]).find((r) => r.type === 'summary')?.updates;
  await expect(page.getByTestId('run').first()).toContainText(`weights at update ${finalUpdate}`);
  const weightsDownload = page.waitForEvent('download');
  await page.getByTestId('run').first().getByTestId('export-weights').click();
  const weightsFile = readFileSync(await (await weightsDownload).path());
  expect(weightsFile.subarray(0, 8).toString('latin1')).toBe('PARLCKPT');
  expect(Buffer.from(original.run.weights!.base64, 'base64').equals(weightsFile)).toBe(true);
  // Watch: the saved weights play a greedy episode in the live view.
  await page.getByTestId('run').first().getByTestId('watch-run').click();
  await expect(page.getByTestId('env-caption')).toHaveAttribute('data-source', 'greedy-episode');
  await expect(page.getByTestId('env-caption')).toContainText(`Saved weights from update ${finalUpdate}`);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const errors: string[] = [];
  other.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await other.goto('/');
  await expect(other.getByTestId('run')).toHaveCount(0);
  await other.getByTestId('import-file').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(original)) });
  await expect(other.getByTestId('run')).toHaveCount(1);
  const roundTrip = await exportedRun(other);
  expect(roundTrip.run.records).toEqual(original.run.records);
  expect(roundTrip.run.config).toEqual(original.run.config);
  expect(roundTrip.run.weights).toEqual(original.run.weights);
  await other.getByTestId('open-run').click();
  await expect.poll(async () => Number(await other.getByTestId('return-chart').getAttribute('data-points'))).toBeGreaterThan(0);
  expect(errors).toEqual([]);
  await fresh.close();
});

test('phone width: one column, every panel reachable', async ({ browser }) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await phone.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${shots}phone.png` });
  await page.screenshot({ path: `${shots}phone-full.png`, fullPage: true });
  expect(errors).toEqual([]);
  await phone.close();
});

test('desktop at rest, and the guided tour', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm');
  await page.screenshot({ path: `${shots}desktop-idle.png` });
  await page.getByTestId('tour-button').click();
  await expect(page.getByTestId('tour')).toContainText('Pick an experiment');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('tour')).toContainText('Run it');
  await page.screenshot({ path: `${shots}desktop-tour.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);

  // "What am I looking at?": CartPole's notes first, the swarm's folded; a topic opens the preset (and the settings) that show it.
  await expect(page.locator('#teaching > details[data-topic]').first()).toHaveAttribute('data-family', 'classic');
  await expect(page.locator('[data-topic="serial-collapse"]')).toBeHidden();
  await page.getByTestId('other-topics').locator('> summary').click();
  await page.locator('[data-topic="serial-collapse"] summary').click();
  await page.getByRole('link', { name: /Agent swarm: no shaping/ }).click();
  await expect(page.getByLabel('λ1 start (parallel)', { exact: true })).toHaveValue('0');
  await expect(page.getByLabel('λ2 start (finish)', { exact: true })).toHaveValue('0');
  await expect(page.getByLabel('Algorithm', { exact: true })).toHaveValue('swarm');
  // Spurious parallelism: λ1 that never anneals. A swarm is open now, so its notes come first.
  await expect(page.locator('#teaching > details[data-topic]').first()).toHaveAttribute('data-family', 'swarm');
  await page.locator('[data-topic="spurious-parallelism"] summary').click();
  await page.getByRole('link', { name: /Agent swarm: λ1 never anneals/ }).click();
  await expect(page.getByLabel('λ1 schedule', { exact: true })).toHaveValue('constant');
});
