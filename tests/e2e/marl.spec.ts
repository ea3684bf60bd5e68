import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

// QMIX on simple_spread, scaled down to train a few updates quickly on wasm.
const link = `/#x=${encodeExperiment(
  resolveExperiment('qmix-spread', { backend: 'wasm', actors: 1, envsPerActor: 2, 'run.envSteps': 400, 'qmix.batchSize': 2, 'qmix.hidden': 16 }),
)}`;

test('QMIX on simple_spread trains in the page: per-agent and mixer charts, the particle-world view', async ({ page }) => {
  await page.goto(link);
  await expect(page.getByTestId('mpe-canvas')).toBeVisible();
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 180_000);
  await expect(page.getByTestId('env-steps')).toHaveText(/^400\b/);
  const losses = page.getByTestId('loss-chart');
  // The chart titles are the metric names in words ('Q agent_0' is drawn as 'q agent 0').
  for (const metric of [/^loss/i, /q agent.0/i, /mixer \|w1\| mean/i, /return agent.2/i, /collisions/i, /occupied.?landmarks/i]) {
    await expect(losses.locator('.mini-title', { hasText: metric }).first()).toBeVisible();
  }
  // The view replays a greedy episode of the trained agents.
  await expect(page.getByTestId('env-caption')).toHaveAttribute('data-source', 'greedy-episode', { timeout: 30_000 });
  await expect(page.getByTestId('env-caption')).toContainText(/Greedy episode after update \d+: team return -?\d/);
  const painted = await page.getByTestId('mpe-canvas').evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let coloured = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[i + 1]) > 30 || Math.abs(d[i + 1] - d[i + 2]) > 30) coloured += 1;
    return coloured;
  });
  expect(painted).toBeGreaterThan(50);
  // The heading names the task in words, and the picture sits on the dark panel like the other views.
  await expect(page.locator('#env-view h2')).toContainText('cooperative navigation (simple_spread)');
  const corner = await page.getByTestId('mpe-canvas').evaluate((c: HTMLCanvasElement) => Array.from(c.getContext('2d')!.getImageData(1, 1, 1, 1).data.slice(0, 3)));
  expect(Math.max(...corner)).toBeLessThan(64);
  await page.locator('#env-view').screenshot({ path: 'tests/e2e/artifacts/screenshots/mpe-view.png' });
});

test("MAPPO on simple_spread trains in the page, its return chart drawn against the family's scale", async ({ page }) => {
  const mappo = resolveExperiment('mappo-spread', { backend: 'wasm', actors: 1, envsPerActor: 2, 'run.envSteps': 400, 'mappo.episodesPerUpdate': 2, 'mappo.hidden': 16 });
  await page.goto(`/#x=${encodeExperiment(mappo)}`);
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 180_000);
  await expect(page.getByTestId('env-steps')).toHaveText(/^400\b/);
  // The random and scripted teams' returns and the family's target, beside the curve.
  const legend = page.getByTestId('return-chart').locator('.chart-legend').first();
  await expect(legend).toContainText(/target -60/);
  await expect(legend).toContainText(/random -79\.1/);
  await expect(legend).toContainText(/scripted -24/);
  for (const metric of [/policy.?loss/i, /value.?loss/i, /entropy/i]) {
    await expect(page.getByTestId('loss-chart').locator('.mini-title', { hasText: metric }).first()).toBeVisible();
  }
});
