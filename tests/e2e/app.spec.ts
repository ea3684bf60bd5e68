import { mkdirSync } from 'node:fs';
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

// "auto" picks wasm under these flags (backend.spec.ts): tests of WebGPU itself force it by link.
const forcedWebgpu = `/#x=${encodeExperiment(resolveExperiment('quickstart', { backend: 'webgpu' }))}`;

const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

test('the app loads with webgpu as the learner backend under the SwiftShader flags when it is chosen by hand', async ({ page }) => {
  await page.goto(forcedWebgpu);
  await expect(page.getByRole('heading', { name: 'PARL Playground' })).toBeVisible();
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  // SwiftShader is a software (fallback) adapter, and the page says so.
  await expect(page.getByTestId('backend-reason')).toContainText(/software adapter \(google swiftshader\) found/);
});

test('Start pressed before the first paint, after a reload mid-run: the run gets WebGPU and trains', async ({ page }) => {
  await page.goto(forcedWebgpu);
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  // The old page's learner is still shutting down while the new one starts; the Start click
  // lands before the page's own backend probe, and the two must not race inside the worker.
  await page.reload({ waitUntil: 'commit' });
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await expect(page.getByTestId('env-steps')).not.toHaveText(/^0 /, { timeout: 30_000 });
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done');
});

test('without WebGPU the learner falls back to wasm or cpu @no-webgpu', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText(/^(wasm|cpu)$/);
  await expect(page.getByTestId('backend-reason')).toContainText(/webgpu/i);
});

test('QuickStart trains in the browser: actors in Web Workers, a live return curve, pause and resume', async ({ page }) => {
  await page.goto(forcedWebgpu);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await page.getByLabel('Budget (env steps)').fill('15000');
  await page.getByLabel('Budget (env steps)').press('Enter');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('status')).toHaveText('running', { timeout: 60_000 });
  // One row per actor the settings ask for (a link carries its own count; the page's default is one per spare core).
  const actors = Number(await page.getByLabel('Actors (workers)', { exact: true }).inputValue());
  await expect(page.getByTestId('actors').locator('tbody tr')).toHaveCount(actors);

  const chart = page.getByTestId('return-chart');
  await expect.poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 60_000 }).toBeGreaterThan(8);
  await expect(chart.locator('.recharts-line-curve').first()).toBeVisible();

  await page.getByTestId('pause').click();
  await expect(page.getByTestId('status')).toHaveText('paused');
  // 'paused' shows once the update in flight has landed; after that nothing moves.
  const pausedAt = await page.getByTestId('env-steps').textContent();
  await page.waitForTimeout(1_500);
  expect(await page.getByTestId('env-steps').textContent()).toBe(pausedAt);
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('status')).toHaveText(/running|done/);
  await expect(page.getByTestId('env-steps')).not.toHaveText(pausedAt ?? '', { timeout: 60_000 });
  // The live view replays greedy episodes that actor 0 plays with recent weights.
  await expect(page.getByTestId('env-caption')).toHaveAttribute('data-source', 'greedy-episode', { timeout: 60_000 });
  await expect(page.getByTestId('env-caption')).toContainText(/The agent at update \d+: a greedy episode/);
  await page.screenshot({ path: `${shots}quickstart-running.png`, fullPage: true });
  await expectStatus(page, 'done', 100_000);
  const progress = page.getByTestId('progress');
  expect(Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(15_000);
  await page.screenshot({ path: `${shots}quickstart-done.png`, fullPage: true });
});
