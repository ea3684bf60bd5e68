/**
 * The progress line tells the truth: an offline run counts and plots gradient steps (it once
 * read "0 / 200,000 steps · 0 steps/s" for ever, its return chart a vertical line at 0), a Start
 * says at once what the run is doing, and the time it took counts from Start to its end.
 */
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

// CQL on the shipped Pendulum dataset, scaled down to a few hundred gradient steps on wasm.
const link = `/#x=${encodeExperiment(
  resolveExperiment('cql-pendulum', { backend: 'wasm', 'model.hidden': 16, 'cql.batchSize': 32, 'cql.numSampledActions': 2, 'cql.gradientSteps': 300, 'cql.evalEvery': 100, 'cql.evalEpisodes': 1 }),
)}`;

test('an offline run counts its gradient steps, plots by them, and says how long it took from Start', async ({ page }) => {
  await page.goto(link);
  await expect(page.getByTestId('env-steps')).toHaveText(/^0 \/ 300 gradient steps/);
  const pressed = Date.now();
  await page.getByTestId('start').click();
  // No silent wait: what the run is doing shows at once, whatever the backend badge says.
  await expect(page.getByTestId('starting-line')).toBeVisible({ timeout: 2_000 });
  await expect(page.getByTestId('starting-line')).toHaveText(/^(Starting|Learning from the dataset)/);
  await expect(page.getByTestId('elapsed')).toContainText(/so far/, { timeout: 5_000 });
  await expectStatus(page, 'done', 180_000);
  const took = (Date.now() - pressed) / 1000;
  await expect(page.getByTestId('starting-line')).toHaveCount(0);
  await expect(page.getByTestId('env-steps')).toHaveText(/^300 \/ 300 gradient steps · 3 evaluations/);
  await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', '300');
  await expect(page.getByTestId('rate')).toContainText('gradient steps/s');
  // The return chart is by gradient steps: three evaluations at 100, 200 and 300.
  const mean = page.getByTestId('return-chart');
  await expect(mean.getByText('gradient steps', { exact: true })).toBeVisible();
  // The whole run, from the press of Start (the learner's own clock starts later).
  const shown = Number(/took ([\d.]+) s/.exec((await page.getByTestId('elapsed').textContent()) ?? '')?.[1] ?? NaN);
  expect(shown).toBeGreaterThan(took * 0.5);
  expect(shown).toBeLessThanOrEqual(took + 1);
  await expect(page.getByTestId('run-end')).toContainText(`finished: used its whole budget after ${shown}`);
  // The live view never claims random actions "until the first update" once there are updates.
  await expect(page.getByTestId('env-caption')).not.toContainText('until the first update');
  await page.locator('.progress-panel').screenshot({ path: 'tests/e2e/artifacts/screenshots/progress-offline.png' });
  await page.getByTestId('return-chart').screenshot({ path: 'tests/e2e/artifacts/screenshots/return-chart-offline.png' });
});
