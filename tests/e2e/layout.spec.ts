/**
 * One screen: at 1366x768 and 1920x1080 the run controls, the main chart and the live view are
 * on screen without scrolling; hidden panels give their space to the charts; on a phone one
 * column, nothing wider than the screen. Screenshots of every case land in artifacts/screenshots.
 */
import { mkdirSync } from 'node:fs';
import LZString from 'lz-string';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect, expectStatus } from './fixtures';

const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));

const VIEWS = {
  default: '/',
  teaching: `/#x=${token({ v: 1, p: 'quickstart', ui: { h: ['config', 'presets', 'runs', 'actors'] } })}`,
  swarm: `/#x=${token({ v: 4, p: 'swarm-annealed' })}`,
} as const;
const SIZES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);
}

/** Elements (buttons, inputs, selects) that stick out past the right edge of the screen. */
async function offScreenControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, input:not(.sr-only), select, summary, a')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1);
      })
      .map((el) => `${el.tagName} ${(el.textContent || el.getAttribute('aria-label') || '').slice(0, 30)}`),
  );
}

/** The element is inside the first screen: its top and bottom within the viewport, no scrolling. */
async function onFirstScreen(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  expect(box, selector).not.toBeNull();
  expect(box!.y, `${selector} top`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${selector} bottom (${Math.round(box!.y + box!.height)} of ${height})`).toBeLessThanOrEqual(height);
}

for (const [name, url] of Object.entries(VIEWS)) {
  test(`layout of the ${name} view at every width: no horizontal overflow, key panels there`, async ({ browser }) => {
    test.setTimeout(180_000);
    // Each width is a fresh page load at that size. The narrow widths share one profile, as one
    // person's phone and tablet: after the first, the backend probe's result is kept (a second
    // visit, whose longer backend note is the harder case for overflow) and the page loads
    // seconds sooner. The one-screen widths are first visits in a profile of their own.
    let narrow: BrowserContext | null = null;
    for (const size of SIZES) {
      const oneScreen = size.width >= 1366;
      const context = oneScreen ? await browser.newContext({ deviceScaleFactor: 1 }) : (narrow ??= await browser.newContext({ deviceScaleFactor: 1 }));
      const page = await context.newPage();
      await page.setViewportSize(size);
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(url);
      await expect(page.getByTestId('backend-name')).not.toHaveText('measuring…', { timeout: 60_000 });
      await expect(page.getByTestId('return-chart')).toBeVisible();
      expect(await overflow(page), `${name} at ${size.width}: horizontal overflow`).toBeLessThanOrEqual(0);
      expect(await offScreenControls(page), `${name} at ${size.width}`).toEqual([]);
      await expect(page.locator('#run-controls')).toBeVisible();
      if (name !== 'swarm') await expect(page.getByTestId('env-canvas')).toBeVisible();
      if (name === 'teaching') {
        await expect(page.locator('#presets')).toHaveCount(0);
        await expect(page.locator('#runs')).toHaveCount(0);
        // Hiding the actors hides where they come from too: no cluster form in a teaching view.
        await expect(page.locator('#cluster')).toHaveCount(0);
      } else {
        await expect(page.locator('#presets')).toBeAttached();
        await expect(page.locator('#cluster')).toBeAttached();
        // The open preset is in view inside the preset list, even one far down it (swarm-annealed).
        const list = await page.locator('.preset-list').boundingBox();
        const chosen = await page.locator('.preset-current').boundingBox();
        expect(chosen!.y, 'the open preset is not above the list').toBeGreaterThanOrEqual(list!.y - 1);
        expect(chosen!.y + chosen!.height, 'the open preset is not below the list').toBeLessThanOrEqual(list!.y + list!.height + 1);
      }
      // "What am I looking at?" starts with what the open preset shows: the basics, or the swarm's ideas.
      if (name !== 'teaching') {
        const first = await page.locator('#teaching details').first().getAttribute('data-topic');
        expect(name === 'swarm' ? ['serial-collapse', 'spurious-parallelism', 'annealing', 'critical-steps'] : ['how-it-learns']).toContain(first);
      }
      if (size.width >= 1366) {
        // One screen: run controls, the main chart and the live view without scrolling.
        await onFirstScreen(page, '#run-controls');
        await onFirstScreen(page, name === 'swarm' ? '[data-testid="reward-chart"]' : '[data-testid="return-chart"]');
        if (name !== 'swarm') await onFirstScreen(page, '[data-testid="env-canvas"]');
      }
      if (size.width === 1366) {
        // A second visit keeps the probe's result and says so in a longer backend note: the header keeps its height.
        await page.reload();
        await expect(page.getByTestId('backend-reason')).toContainText('kept from an earlier probe');
        await onFirstScreen(page, '#run-controls');
        await onFirstScreen(page, name === 'swarm' ? '[data-testid="reward-chart"]' : '[data-testid="return-chart"]');
      }
      if (name === 'teaching' && size.width >= 1366) {
        // The settings column is hidden: the charts take its width (they once kept to a 290 px column).
        const chart = await page.getByTestId('return-chart').boundingBox();
        expect(chart!.width).toBeGreaterThan(size.width * 0.5);
      }
      if (size.width <= 820) {
        // One column: the run controls come first, above the live view and the charts.
        const controls = await page.locator('#run-controls').boundingBox();
        const charts = await page.getByTestId('return-chart').boundingBox();
        expect(controls!.y).toBeLessThan(charts!.y);
      }
      await page.screenshot({ path: `${shots}layout-${name}-${size.width}.png` });
      expect(errors).toEqual([]);
      await (oneScreen ? context.close() : page.close());
    }
    await narrow?.close();
  });
}

test('phone: the actors table fits at 390 px, with every actor’s restarts, error and Crash button on screen', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`/#x=${token({ v: 1, p: 'quickstart', s: { 'run.envSteps': 2_000_000, actors: 3 } })}`);
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  await expect(page.getByTestId('actors').locator('tbody tr')).toHaveCount(3);
  await page.locator('#actors').scrollIntoViewIfNeeded();
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  for (const id of ['respawns-2', 'crash-2']) {
    const box = await page.getByTestId(id).boundingBox();
    expect(box!.x + box!.width, id).toBeLessThanOrEqual(390);
  }
  // Radios and checkboxes are big enough to tap.
  const radio = await page.locator('input[type="radio"]').first().boundingBox();
  expect(radio!.width).toBeGreaterThanOrEqual(20);
  await page.screenshot({ path: `${shots}layout-phone-actors.png` });
  // Back to the top: Stop is in the run controls, first on a phone.
  await page.getByTestId('stop').click({ timeout: 60_000 });
  await expectStatus(page, 'done', 60_000);
  await context.close();
});
