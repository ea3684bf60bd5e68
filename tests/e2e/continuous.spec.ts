import { readFileSync } from 'node:fs';
import { resolveExperiment } from '../../src/config/config';
import { readDataset } from '../../src/runs/dataset';
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

test('a finished SAC run saves 100 episodes of its final policy as a dataset file from the runs panel', async ({ page }) => {
  await page.goto(link);
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 180_000);
  const button = page.getByTestId('run').first().getByTestId('save-dataset');
  await expect(button).toBeVisible();
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await button.click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/dataset\.json$/);
  const data = readDataset(readFileSync(await file.path(), 'utf8'), { envId: 'Pendulum-v1', obsDim: 3, actionDim: 1 });
  // 100 episodes cut by Pendulum's 200-step time limit.
  expect(data.size).toBe(20_000);
  expect(data.source).toMatch(/^sac-pendulum \(sac, seed \d+\): 100 episodes/);
});

test('CQL trains in the page from the shipped dataset, then is evaluated in the environment', async ({ page }) => {
  const cql = resolveExperiment('cql-pendulum', { backend: 'wasm', 'model.hidden': 16, 'cql.batchSize': 32, 'cql.numSampledActions': 2, 'cql.gradientSteps': 200, 'cql.evalEvery': 100, 'cql.evalEpisodes': 1 });
  await page.goto(`/#x=${encodeExperiment(cql)}`);
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 180_000);
  // An offline run counts gradient steps, one update per evaluation: 200 gradient steps, evaluated every 100.
  await expect(page.getByTestId('env-steps')).toContainText('200 / 200 gradient steps · 2 evaluations');
  await expect(page.getByTestId('loss-chart').locator('.mini-title', { hasText: 'critic loss' }).first()).toBeVisible();
  // Only the offline preset's own run: no dataset button on a CQL run.
  await expect(page.getByTestId('run').first().getByTestId('save-dataset')).toHaveCount(0);
});
