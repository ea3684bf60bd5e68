/**
 * Names every plain object inherits (`toString`, `constructor`, `__proto__`) in a link's settings
 * or hidden panels, and in a run file's settings: the page loads what it can and says what it left out.
 */
import LZString from 'lz-string';
import { resolveExperiment } from '../../src/config/config';
import { test, expect } from './fixtures';

test('a link with settings named toString, constructor or __proto__ loads the rest and names them, after a reload too', async ({ page }) => {
  const text = '{"v":1,"p":"ppo-cartpole","s":{"toString":1,"__proto__":{"seed":9},"seed":4},"ui":{"h":["constructor","config"]}}';
  await page.goto(`/#x=${LZString.compressToEncodedURIComponent(text)}`);
  const notices = page.getByTestId('notices');
  await expect(notices).toContainText('Parts of this link could not be used');
  for (const part of ['toString', '__proto__', 'hide.constructor']) await expect(notices).toContainText(part);
  await expect(page.getByRole('radio', { name: /^PPO on CartPole \(synchronous/ })).toBeChecked();
  await page.reload();
  await expect(page.getByRole('radio', { name: /^PPO on CartPole \(synchronous/ })).toBeChecked();
  await expect(page.getByTestId('start')).toBeVisible();
});

test('a run file whose settings hold toString or __proto__ is imported, the keys named as ignored', async ({ page }) => {
  await page.goto('/');
  const settings = JSON.stringify(resolveExperiment('quickstart', { seed: 5 }).settings).replace('{', '{"toString":1,"__proto__":{"x":1},');
  const text = `{"format":"parl-playground-run","version":1,"run":{"id":"proto-1","name":"proto run","createdAt":1700000000000,"status":"done","config":{"preset":"quickstart","settings":${settings}},"records":[]}}`;
  await page.getByTestId('import-file').setInputFiles({ name: 'proto.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  const notices = page.getByTestId('notices');
  await expect(notices).toContainText('Imported "proto run"');
  await expect(notices).toContainText('run.config.settings.toString');
  await expect(notices).toContainText('run.config.settings.__proto__');
  await expect(page.getByTestId('run')).toHaveCount(1);
});
