/**
 * The live view follows training: it replays greedy episodes of recent weights, and the update
 * it names moves on as the run goes. It once stayed on update 1 ("return 9") long after the run
 * reached 475: a run of a few seconds got one greedy episode, and a view scrolled away and back could miss
 * that it was on screen again.
 */
import type { Locator } from '@playwright/test';
import LZString from 'lz-string';
import { test, expect, expectStatus } from './fixtures';

const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));
const updateShown = async (caption: Locator) => Number(/at update (\d+)/.exec((await caption.textContent()) ?? '')?.[1] ?? 0);

test('after a short run the live view shows the agent from near the end of it', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm', { timeout: 60_000 });
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 100_000);
  const total = Number(((await page.getByTestId('updates').textContent()) ?? '').replace(/\D/g, ''));
  expect(total).toBeGreaterThan(20);
  const caption = page.getByTestId('env-caption');
  // The newest greedy episode starts once the one on screen has played to its end (500 frames at most).
  await expect.poll(() => updateShown(caption), { timeout: 30_000, intervals: [1_000] }).toBeGreaterThanOrEqual(Math.floor(total * 0.75));
  await expect(caption).not.toContainText('at update 1:');
  // The time the run took to reach its target is on screen.
  await expect(page.getByTestId('time-to-target')).toContainText(/reached the target \(475\) after [\d.]+ s/);
  await expect(page.getByTestId('run-end')).toContainText(/finished: used its whole budget after/);
});

test('the live view moves on while the run trains, also after being scrolled away and back', async ({ page }) => {
  // A learning rate too small to learn: greedy episodes stay a few dozen frames long, so the view
  // is ready for a newer one within a second (a policy that balances plays 500 frames, ~10 s, first).
  await page.goto(`/#x=${token({ v: 1, p: 'quickstart', s: { 'run.envSteps': 5_000_000, 'reinforce.lr': 0.00001 } })}`);
  await expect(page.getByTestId('backend-name')).toHaveText('wasm', { timeout: 60_000 });
  await expect(page.getByLabel('Learning rate', { exact: true })).toHaveValue('0.00001');
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  const caption = page.getByTestId('env-caption');
  await expect(caption).toHaveAttribute('data-source', 'greedy-episode', { timeout: 60_000 });
  const first = await updateShown(caption);
  await expect.poll(() => updateShown(caption), { timeout: 60_000, intervals: [1_000] }).toBeGreaterThan(first);
  // Away and straight back (the observer may report both in one callback).
  await page.locator('#runs').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.evaluate(() => window.scrollTo(0, 0));
  const second = await updateShown(caption);
  await expect.poll(() => updateShown(caption), { timeout: 60_000, intervals: [1_000] }).toBeGreaterThan(second);
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done');
});
