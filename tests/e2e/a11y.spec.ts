/**
 * Accessibility: axe-core on the default view and a swarm view, with no serious or critical
 * violations; chart surfaces and the hidden file input are no unlabelled tab stops.
 */
import AxeBuilder from '@axe-core/playwright';
import LZString from 'lz-string';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target.join(' ')})`);
}

test('axe: the default view has no serious or critical violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).not.toHaveText('measuring…', { timeout: 60_000 });
  await expect(page.getByTestId('return-chart').locator('svg').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe: a swarm view has no serious or critical violations', async ({ page }) => {
  await page.goto(`/#x=${token({ v: 4, p: 'swarm-annealed' })}`);
  await expect(page.getByTestId('backend-name')).not.toHaveText('measuring…', { timeout: 60_000 });
  await expect(page.getByTestId('lambda-chart')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe: a teaching link with hidden panels, and a finished short run, have no serious or critical violations', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`/#x=${token({ v: 1, p: 'quickstart', ui: { h: ['config', 'presets', 'runs', 'actors'] } })}`);
  await expect(page.getByTestId('backend-name')).not.toHaveText('measuring…', { timeout: 60_000 });
  await expect(page.getByTestId('return-chart')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // A run's charts, actors, "inside the agent" and the saved run appear only once it trains.
  await page.goto(`/#x=${token({ v: 1, p: 'quickstart', s: { 'run.envSteps': 3000 } })}`);
  await page.reload();
  await expect(page.getByTestId('backend-name')).not.toHaveText('measuring…', { timeout: 60_000 });
  await page.getByTestId('start').click();
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 120_000 });
  await expect(page.getByTestId('run')).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
});

test('every tab stop has a name, and the hidden file input is not one', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).not.toHaveText('measuring…', { timeout: 60_000 });
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]')]
      .filter((el) => el.tabIndex >= 0 && !el.hasAttribute('disabled') && el.getClientRects().length > 0)
      .filter((el) => {
        const labelled = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || (el as HTMLInputElement).labels?.length || el.textContent?.trim() || el.querySelector('title')?.textContent;
        return !labelled;
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect(unnamed).toEqual([]);
  expect(await page.getByTestId('import-file').getAttribute('tabindex')).toBe('-1');
});
