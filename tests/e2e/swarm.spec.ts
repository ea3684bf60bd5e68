/**
 * The agent swarm in the browser: the swarm-annealed preset, opened from a link with a small
 * budget, trains the orchestrator in the learner worker, fills the swarm charts with real 'swarm'
 * records and draws a real 'swarmTrace' record in the timeline. SwiftShader WebGPU is slow, so the
 * budget is 2 updates on 8-subtask tasks.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import LZString from 'lz-string';
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

// Tall enough that every swarm chart is on screen (charts off screen hold still until scrolled to).
test.use({ viewport: { width: 1280, height: 1800 } });

test('an old link to a retired first-swarm preset opens its replacement and says why', async ({ page }) => {
  const token = LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, p: 'swarm-annealed', s: { 'swarm.items': 16 } }));
  await page.goto(`/#x=${token}`);
  const notices = page.getByTestId('notices');
  await expect(notices).toContainText('preset "swarm-annealed" is retired');
  await expect(notices).toContainText('replacement today\'s "swarm-annealed"');
  await expect(page.getByRole('radio', { name: /λ1, λ2 annealed to zero/ })).toBeChecked();
});

test('swarm-annealed trains in the browser: swarm charts fill and the timeline draws a real trace', async ({ page }) => {
  test.setTimeout(240_000);
  const config = resolveExperiment('swarm-annealed', {
    actors: 2,
    envsPerActor: 2,
    'swarm.subtasks': 8,
    'swarm.updates': 2,
    'swarm.annealUpdates': 2,
    'swarm.traceEvery': 1,
  });
  await page.goto(`/#x=${encodeExperiment(config, { autostart: true })}`);
  // "auto" measures and picks wasm over the SwiftShader WebGPU adapter (backend.spec.ts).
  await expect(page.getByTestId('backend-name')).toHaveText('wasm');
  // The link autostarts; 2 small updates can be done before this looks, so 'done' counts as started.
  await expect(page.getByTestId('status')).toHaveText(/starting|running|done/, { timeout: 60_000 });

  // A real trace: the orchestrator's row and one row per subagent, labels legible.
  const timeline = page.getByTestId('swarm-timeline');
  await expect(timeline).toBeVisible({ timeout: 180_000 });
  await expect(timeline).toContainText('update');
  const drawn = page.getByTestId('timeline-swarm');
  await expect(drawn.locator('rect').first()).toBeVisible();
  await expect(page.getByTestId('timeline-figures')).toContainText('critical steps');
  await expect(page.getByTestId('timeline-caption')).toContainText('subagent');

  for (const id of ['reward-chart', 'critical-chart', 'parallelism-chart']) {
    const chart = page.getByTestId(id);
    await expect.poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 60_000 }).toBeGreaterThan(0);
    // A drawn path of at least two points (a flat line, such as r_perf of a serial start, has an empty box, so not toBeVisible).
    await expect(chart.locator('.recharts-line-curve').first()).toHaveAttribute('d', /^M[-\d.e]+,[-\d.e]+L[-\d.e]+,[-\d.e]+/);
  }
  await expect.poll(async () => Number(await page.getByTestId('lambda-chart').getAttribute('data-points')), { timeout: 60_000 }).toBeGreaterThan(0);
  // The serial baseline is a line of the critical-steps chart.
  await expect(page.getByTestId('critical-chart')).toContainText('serial baseline');
  // An 8-subtask task is not the one swarm-story measured: no working-alone or packer line on the reward chart.
  await expect(page.getByTestId('reward-chart')).toContainText('task score');
  await expect(page.getByTestId('reward-chart').locator('svg')).not.toContainText('working alone');

  await expectStatus(page, 'done', 180_000);
  await expect(page.getByTestId('env-steps')).toContainText('2 / 2 updates');
  // Both updates' λ values arrived, one point each.
  await expect.poll(async () => Number(await page.getByTestId('lambda-chart').getAttribute('data-points'))).toBe(2);
  await page.screenshot({ path: `${shots}swarm-done.png`, fullPage: true });

  // A chart downloads as a PNG image (saved with the screenshots, to look at).
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the Orchestrator reward chart as PNG' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('reward-chart.png');
  const file = `${shots}reward-chart-download.png`;
  await download.saveAs(file);
  const png = readFileSync(file);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // Width and height from the IHDR chunk: the figure at 2x.
  expect(png.readUInt32BE(16)).toBeGreaterThan(400);
  expect(png.readUInt32BE(20)).toBeGreaterThan(300);
});
