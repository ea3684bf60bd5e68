/**
 * The live view follows training: it replays greedy episodes of recent weights, and the update
 * it names moves on as the run goes (it once stayed on update 1 for the whole run).
 */
import { test, expect, expectStatus } from './fixtures';

const updateShown = async (caption: import('@playwright/test').Locator) => Number(/at update (\d+)/.exec((await caption.textContent()) ?? '')?.[1] ?? 0);

test('the live view moves on with the run, past its first demo episode', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm', { timeout: 60_000 });
  // A long budget: QuickStart on wasm runs through its default budget in seconds.
  await page.getByLabel('Budget (env steps)', { exact: true }).fill('5000000');
  await page.getByLabel('Budget (env steps)', { exact: true }).press('Enter');
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  const caption = page.getByTestId('env-caption');
  await expect(caption).toHaveAttribute('data-source', 'demo', { timeout: 60_000 });
  const first = await updateShown(caption);
  // Demos come every few seconds; an episode is replayed to its end (up to 500 frames, 17 s).
  await expect.poll(() => updateShown(caption), { timeout: 60_000, intervals: [1_000] }).toBeGreaterThan(first);
  const second = await updateShown(caption);
  await expect.poll(() => updateShown(caption), { timeout: 60_000, intervals: [1_000] }).toBeGreaterThan(second);
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done');
});
