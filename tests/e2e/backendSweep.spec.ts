/**
 * Every algorithm of the registry (its first preset), in turn on one page, with "auto": the learner runs on the backend
 * its probe measured fastest (wasm on a machine whose GPU backends are software ones), the badge
 * says it measured the run's own learner, and the first update arrives. Once with the SwiftShader
 * WebGPU flags, once without WebGPU (@no-webgpu).
 */
import type { Page } from '@playwright/test';
import { PRESETS } from '../../src/config/presets';
import { ALGORITHM_DESCRIPTORS } from '../../src/config/registry';
import { budgetOf } from '../../src/config/budget';
import { resolveExperiment } from '../../src/config/config';
import { test, expect, expectStatus } from './fixtures';

/**
 * How far the run is: updates for a run that counts env steps (its progress line shows them apart), else the
 * first number of the progress line (a swarm's updates, an offline run's gradient steps).
 */
async function progressShown(page: Page, countsEnvSteps: boolean): Promise<number> {
  const text = (await page.getByTestId(countsEnvSteps ? 'updates' : 'env-steps').textContent()) ?? '';
  return Number(/^([\d,]+)/.exec(text)?.[1]?.replace(/,/g, '') ?? 0);
}

async function setField(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Enter');
  await expect(field).toHaveValue(value);
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
}

/** The first preset of each algorithm: every learner the probe can meet, once (the presets of one algorithm share its learner). */
const SWEPT = ALGORITHM_DESCRIPTORS.map((d) => PRESETS.find((p) => resolveExperiment(p.name).settings.algorithm === d.id)).filter((p) => p !== undefined);

async function sweep(page: Page): Promise<void> {
  test.setTimeout(20 * 60_000);
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm', { timeout: 60_000 });
  expect(SWEPT).toHaveLength(ALGORITHM_DESCRIPTORS.length);
  for (const preset of SWEPT) {
    await test.step(preset.name, async () => {
      const t0 = Date.now();
      const unit = budgetOf(resolveExperiment(preset.name).settings.algorithm).unit;
      const countsEnvSteps = unit === 'envSteps';
      await page.locator(`input[name="preset"][value="${preset.name}"]`).check();
      // An offline run's first update is its first evaluation: 1,000 gradient steps in, 20 s of CQL here.
      // Sooner changes nothing the probe measures (one update of the learner's network on its batch).
      if (unit === 'gradientSteps') await setField(page, 'Evaluate every', '100');
      await page.getByTestId('start').click();
      await expect.poll(() => progressShown(page, countsEnvSteps), { timeout: 300_000, intervals: [250] }).toBeGreaterThan(0);
      const name = (await page.getByTestId('backend-name').textContent()) ?? '';
      const reason = (await page.getByTestId('backend-reason').textContent()) ?? '';
      const line = `${preset.name}: ${name}, first update ${Date.now() - t0} ms after Start; ${reason}`;
      test.info().annotations.push({ type: preset.name, description: line });
      console.log(line);
      // The choice is the fastest measured backend (a software adapter only by a margin), from a probe of this run's learner.
      expect(reason, preset.name).toMatch(new RegExp(`^${name}: ((at least )?[\\d.]+x faster than \\w+ here|the only backend measured here|chosen over \\w+ \\(software adapter\\), which measured only)`));
      expect(reason, preset.name).toMatch(/measured on a batch of \d+/);
      expect(name, preset.name).toBe('wasm');
      await page.getByTestId('stop').click();
      await expectStatus(page, 'done', 60_000);
    });
  }
}

test('every algorithm runs on the backend its probe measured fastest, and learns', async ({ page }) => sweep(page));
test('every algorithm runs on the backend its probe measured fastest, without WebGPU @no-webgpu', async ({ page }) => sweep(page));
