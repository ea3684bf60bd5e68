/**
 * The page as a teacher and a researcher meet it: the tour outlines what each card names, Copy
 * link and Start are on screen without scrolling at every width (on a phone, Start and the presets
 * before the charts), one field per setting, the backend's reason whole, the notes and chart
 * explanations of the open preset's family, charts current when printed, and Delete undone.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const open = (page: Page, preset: string, settings: Parameters<typeof resolveExperiment>[1] = {}) => page.goto(`/#x=${encodeExperiment(resolveExperiment(preset, settings))}`);

async function top(page: Page, selector: string): Promise<number> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return box.y;
}

test('every tour card outlines the part that holds what it names', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/');
  await page.getByTestId('tour-button').click();
  const tour = page.getByTestId('tour');
  const seen: string[] = [];
  for (;;) {
    const target = await tour.getAttribute('data-target');
    const names = await tour.getAttribute('data-names');
    if (!target || !names) throw new Error('a tour card without a target');
    seen.push(target);
    const lit = page.locator('.tour-target');
    await expect(lit).toHaveCount(1);
    await expect(lit).toHaveAttribute('id', target);
    await expect(lit).toContainText(names);
    const next = tour.getByRole('button', { name: 'Next' });
    if ((await next.count()) === 0) break;
    await next.click();
  }
  expect(seen).toContain('share');
  expect(seen.length).toBeGreaterThanOrEqual(7);
});

for (const size of [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${size.width}x${size.height} Start and Copy link are on screen without scrolling, before the charts`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByTestId('start')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('copy-link')).toBeInViewport({ ratio: 1 });
    if (size.width < 820) {
      // On a phone, one column: Start, then the presets, and only then anything tall.
      const chartsAt = await top(page, '#charts');
      expect(await top(page, '[data-testid="start"]')).toBeLessThan(chartsAt);
      expect(await top(page, '#presets')).toBeLessThan(chartsAt);
      expect(await top(page, '#presets')).toBeLessThan(await top(page, '#env-view'));
    }
    await context.close();
  });
}

test('the swarm settings draw each field once; the backend badge gives its reason whole', async ({ page }) => {
  await open(page, 'swarm-annealed');
  await page.reload();
  await expect(page.getByLabel('Anneal horizon (updates)', { exact: true })).toHaveCount(1);
  const reason = page.getByTestId('backend-reason');
  await expect(reason).toBeVisible({ timeout: 60_000 });
  const cut = await reason.evaluate((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
  expect(cut).toBe(false);
  expect(await page.locator('.backend').getAttribute('title')).toContain((await reason.textContent()) ?? '');
});

test('the notes and chart explanations follow the open preset’s family', async ({ page }) => {
  for (const [preset, family, scale] of [
    ['sac-pendulum', 'continuous', /−150 to −200/],
    ['cql-pendulum', 'offline', /test episodes/],
    ['qmix-spread', 'marl', /team/],
  ] as const) {
    await open(page, preset);
    await page.reload();
    await expect(page.locator('#teaching')).toHaveAttribute('data-family', family);
    const own = page.locator('#teaching > details[data-topic]');
    expect(await own.count()).toBeGreaterThanOrEqual(2);
    for (const f of await own.evaluateAll((els) => els.map((e) => e.getAttribute('data-family')))) expect(f).toBe(family);
    await expect(page.locator('[data-topic="serial-collapse"]')).toBeHidden();
    const explain = page.getByTestId('explain-return-chart');
    await explain.locator('summary').click();
    await expect(explain).toContainText(scale);
  }
});

test('a chart scrolled out of view is current when the page is printed; Delete can be undone', async ({ page }) => {
  test.setTimeout(180_000);
  // Two columns and a short window: the page is tall enough to scroll the return chart far out of view.
  await page.setViewportSize({ width: 1000, height: 400 });
  await open(page, 'quickstart', { backend: 'wasm', actors: 1, seed: 2, 'run.envSteps': 5_000_000 });
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  // The return chart far above the screen while the run goes on.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // Further off screen than the margin within which charts keep following the store.
  expect((await page.getByTestId('return-chart').boundingBox())?.y ?? 0).toBeLessThan(-600);
  const episodes = async () => Number(((await page.getByTestId('episodes').textContent()) ?? '').replace(/\D/g, ''));
  const before = await episodes();
  await expect.poll(episodes, { timeout: 60_000 }).toBeGreaterThan(before + 30);
  // Stopped from the page, without scrolling the controls (and the chart) back into view.
  await page.evaluate(() => document.querySelector<HTMLButtonElement>('[data-testid="stop"]')?.click());
  await expectStatus(page, 'done', 60_000);
  const final = await episodes();
  expect(final).toBeGreaterThan(0);
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  expect(Number(await page.getByTestId('return-chart').getAttribute('data-points'))).toBe(final);
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));

  const run = page.getByTestId('run');
  await expect(run).toHaveCount(1);
  await expect(run).not.toHaveAttribute('data-status', 'running');
  const name = await run.getByTestId('run-name').textContent();
  const status = await run.getAttribute('data-status');
  await run.getByTestId('delete-run').click();
  await expect(page.getByTestId('run')).toHaveCount(0);
  await page.getByTestId('notice-action').click();
  await expect(page.getByTestId('run')).toHaveCount(1);
  await expect(page.getByTestId('run-name')).toHaveText(name ?? '');
  await expect(page.getByTestId('run')).toHaveAttribute('data-status', status ?? '');
  await page.screenshot({ path: `${shots}undo-delete.png` });
});
