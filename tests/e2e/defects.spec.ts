/**
 * The rough edges users hit: invalid input, notices that stayed and covered panels, the tour's
 * first step and focus, shown defaults against their help, raw keys on screen.
 */
import LZString from 'lz-string';
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));

test('an invalid learning rate stays in the field with one inline error in words; the setting keeps its value', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('radio', { name: /^PPO on CartPole \(synchronous/ }).check();
  const lr = page.getByLabel('Learning rate', { exact: true });
  const before = await lr.inputValue();
  await lr.fill('5');
  await lr.press('Enter');
  await lr.blur();
  await expect(lr).toHaveValue('5');
  await expect(lr).toHaveAttribute('aria-invalid', 'true');
  const error = page.getByTestId('error-ppo.lr');
  await expect(error).toHaveCount(1);
  await expect(error).toHaveText(/^Learning rate must be from 0\.00001 to 0\.05; 5 is out of range/);
  // No toast, and no internal key anywhere.
  await expect(page.getByTestId('notices')).toHaveCount(0);
  expect(await page.locator('body').innerText()).not.toContain('ppo.lr');
  // The link still carries the old value; a good value clears the error.
  expect(page.url()).not.toContain('lr=5');
  await lr.fill(before);
  await lr.press('Enter');
  await expect(error).toHaveCount(0);
});

test('a link pasted into the address bar of the open tab loads without a reload, and waits while a run goes on', async ({ page }) => {
  await page.goto('/');
  const ppo = page.getByRole('radio', { name: /^PPO on CartPole \(synchronous/ });
  await expect(ppo).not.toBeChecked();
  await page.evaluate((t) => { window.location.hash = `x=${t}`; }, token({ v: 1, p: 'ppo-cartpole' }));
  await expect(ppo).toBeChecked();

  // During a run the running experiment stays, the address goes back to it, and a notice says why.
  await page.getByRole('radio', { name: /^QuickStart/ }).check();
  await page.getByLabel('Budget (env steps)').fill('5000000');
  await page.getByLabel('Budget (env steps)').press('Enter');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('status')).toHaveText('running', { timeout: 60_000 });
  const running = page.url();
  await page.evaluate((t) => { window.location.hash = `x=${t}`; }, token({ v: 1, p: 'ppo-cartpole' }));
  await expect(page.getByTestId('notices')).toContainText('not loaded because a run is going on');
  await expect(page.getByRole('radio', { name: /^QuickStart/ })).toBeChecked();
  expect(page.url()).toBe(running);
  await page.getByTestId('stop').click();
});

test('notices sit in the page flow, never over the runs panel, and dismiss themselves', async ({ page }) => {
  await page.goto('/');
  await page.getByText('Share this experiment').click();
  await page.getByTestId('copy-link').click();
  const notices = page.getByTestId('notices');
  await expect(notices).toBeVisible();
  const n = await notices.boundingBox();
  const runs = await page.locator('#runs').boundingBox();
  // No overlap with the runs panel.
  expect(n!.y + n!.height <= runs!.y || runs!.y + runs!.height <= n!.y || n!.x + n!.width <= runs!.x || runs!.x + runs!.width <= n!.x).toBe(true);
  await expect(notices).toHaveCount(0, { timeout: 15_000 });
});

test('the tour starts on the presets, skips what a link hides, and gives focus back when closed', async ({ page }) => {
  await page.goto('/');
  const opener = page.getByTestId('tour-button');
  await opener.click();
  await expect(page.getByTestId('tour')).toHaveAttribute('data-target', 'presets');
  await expect(page.locator('#presets')).toHaveClass(/tour-target/);
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect(opener).toBeFocused();

  // A new link in the open tab loads without a reload (and again after one).
  await page.goto(`/#x=${token({ v: 1, p: 'quickstart', ui: { h: ['presets', 'config', 'charts.losses'] } })}`);
  await expect(page.getByRole('note')).toContainText('(presets, settings, loss charts hidden)');
  await page.reload();
  await expect(page.getByRole('note')).toContainText('(presets, settings, loss charts hidden)');
  await page.getByTestId('tour-button').click();
  await expect(page.getByTestId('tour')).toHaveAttribute('data-target', 'run-controls');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour-button')).toBeFocused();
});

test('on a phone the tour card never covers what it points at', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByTestId('tour-button').click();
  for (;;) {
    const target = await page.getByTestId('tour').getAttribute('data-target');
    await page.waitForTimeout(150);
    const card = await page.getByTestId('tour').boundingBox();
    const el = await page.locator(`#${target}`).boundingBox();
    // The part of the target on screen is not under the card: some of it shows above or below it.
    const visibleTop = Math.max(0, el!.y);
    const visibleBottom = Math.min(844, el!.y + el!.height);
    const clearAbove = card!.y - visibleTop;
    const clearBelow = visibleBottom - (card!.y + card!.height);
    expect(Math.max(clearAbove, clearBelow), `tour step on #${target}`).toBeGreaterThan(80);
    const next = page.getByRole('button', { name: 'Next' });
    if ((await next.count()) === 0) break;
    await next.click();
  }
  await context.close();
});

test('shown defaults agree with the fields, and no raw keys or jargon are on screen', async ({ page }) => {
  await page.goto('/');
  const budget = page.getByLabel('Budget (env steps)', { exact: true });
  const shown = Number(await budget.inputValue());
  await expect(page.locator('#setting-run\\.envSteps-help')).toContainText(`Default for this preset ${shown.toLocaleString('en-US')}`);
  const actors = page.getByLabel('Actors (workers)', { exact: true });
  const help = (await page.locator('#setting-actors-help').textContent()) ?? '';
  expect(help).toMatch(new RegExp(`Default (for this preset |in this browser )?${await actors.inputValue()}\\b`));

  // A PPO run reports its diagnostics: all under human labels.
  await page.getByRole('radio', { name: /^PPO on CartPole \(synchronous/ }).check();
  await page.getByTestId('start').click();
  await expect(page.getByTestId('loss-chart')).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => page.getByTestId('loss-chart').locator('.mini-title').count()).toBeGreaterThan(3);
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done');
  const text = await page.locator('main').innerText();
  for (const raw of ['explainedVariance', 'meanRho', 'approxKl', 'clipFrac', 'envsPerActor', 'charts.losses', 'training steps', 'crit.']) expect(text, raw).not.toContain(raw);
});

test('opening another preset or pasting a link after a run ends clears that run from the charts; it stays in Runs', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Budget (env steps)').fill('20000');
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 120_000);
  await expect(page.getByTestId('env-steps')).not.toHaveText(/^0 /);
  await page.getByTestId('presets').getByText('Agent swarm: λ1, λ2 annealed to zero').click();
  await expectStatus(page, 'idle');
  // The swarm preset's own budget, and nothing of the CartPole run (183 / 120 updates before this fix).
  const swarmBudget = new RegExp(`^0 / ${resolveExperiment('swarm-annealed').settings['swarm.updates']} updates`);
  await expect(page.getByTestId('env-steps')).toHaveText(swarmBudget);
  await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', '0');
  await expect(page.getByTestId('runs').getByTestId('run')).toHaveCount(1);
  await expect(page.getByTestId('runs').getByTestId('run')).toHaveAttribute('data-status', 'done');
  // The same for a link pasted into the address bar after a run has ended.
  await page.getByTestId('presets').getByText('QuickStart: REINFORCE on CartPole').click();
  await page.getByLabel('Budget (env steps)').fill('20000');
  await page.getByTestId('start').click();
  await expectStatus(page, 'done', 120_000);
  await page.evaluate((hash) => (window.location.hash = hash), `x=${encodeExperiment(resolveExperiment('swarm-annealed'))}`);
  await expectStatus(page, 'idle');
  await expect(page.getByTestId('env-steps')).toHaveText(swarmBudget);
  await expect(page.getByTestId('runs').getByTestId('run')).toHaveCount(2);
});
