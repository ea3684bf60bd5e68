import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

// SAC on Pendulum, scaled down to a few gradient steps on wasm.
const link = `/#x=${encodeExperiment(
  resolveExperiment('sac-pendulum', { backend: 'wasm', actors: 1, 'sampling.segmentLength': 16, 'model.hidden': 16, 'sac.learningStarts': 600, 'sac.batchSize': 32, 'run.envSteps': 1_000 }),
)}`;

test('SAC on Pendulum trains in the page: critic and actor losses, α, Q-values and the action spread chart; the pendulum is drawn', async ({ page }) => {
  await page.goto(link);
  await expect(page.getByTestId('env-canvas')).toBeVisible();
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 180_000);
  await expect(page.getByTestId('env-steps')).toHaveText(/^1[,.]?0\d\d\b/);
  const losses = page.getByTestId('loss-chart');
  for (const metric of ['critic loss', 'actor loss', 'alpha', 'q1 mean', 'action mean', 'action std']) {
    await expect(losses.locator('.mini-title', { hasText: metric }).first()).toBeVisible();
  }
  const painted = await page.getByTestId('env-canvas').evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let coloured = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[i + 1]) > 30 || Math.abs(d[i + 1] - d[i + 2]) > 30) coloured += 1;
    return coloured;
  });
  expect(painted).toBeGreaterThan(50);
});
