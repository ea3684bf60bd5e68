/**
 * "auto" measures the run's own network on each backend and picks the fastest: under the
 * SwiftShader flags (a software WebGPU adapter) that is wasm, and the badge says why, with the
 * measured ratio. A person can still force WebGPU.
 */
import { test, expect, expectStatus } from './fixtures';

test('auto picks wasm over the SwiftShader WebGPU adapter and says by how much', async ({ page }) => {
  const t0 = Date.now();
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm', { timeout: 60_000 });
  test.info().annotations.push({ type: 'probe', description: `badge settled ${Date.now() - t0} ms after navigation` });
  const reason = page.getByTestId('backend-reason');
  await expect(reason).toHaveText(/^wasm: (at least )?[\d.]+x faster than (webgpu|webgl) here/);
  await expect(reason).toContainText('software adapter');
  // WebGL on a software renderer is not set up at all: opening it blocked the worker for 7-13 s.
  await expect(reason).toContainText(/webgl( \(software adapter\))?: not timed/);
  const text = (await reason.textContent()) ?? '';
  const ratio = Number(/([\d.]+)x faster/.exec(text)?.[1]);
  expect(ratio).toBeGreaterThan(1);
  test.info().annotations.push({ type: 'reason', description: text });

  // A run measures its own learner (DQN's Q-network at its batch here), and keeps wasm.
  await page.locator('input[name="preset"][value="dqn-cartpole"]').check();
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  await expect(reason).toContainText(/measured on a batch of \d+/);
  await expect(page.getByTestId('backend-name')).toHaveText('wasm');
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done');

  // Measurements are kept per device and network: a reload answers from the cache.
  await page.reload();
  await expect(page.getByTestId('backend-reason')).toContainText('kept from an earlier probe on this device', { timeout: 30_000 });
});

test('a person can still force WebGPU, and the badge says it was chosen by hand', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('backend-name')).toHaveText('wasm', { timeout: 60_000 });
  await page.getByLabel('Learner backend', { exact: true }).selectOption('webgpu');
  await page.reload();
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu', { timeout: 60_000 });
  await expect(page.getByTestId('backend-reason')).toContainText('chosen by hand');
});
