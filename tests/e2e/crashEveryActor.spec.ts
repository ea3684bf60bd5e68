/** The actors panel's crash button, on a run whose actor class declares no crash method of its own (swarm's SwarmActor). */
import LZString from 'lz-string';
import { test, expect } from './fixtures';

test('crash an actor on a swarm run: it is replaced and the run goes on', async ({ page }) => {
  test.setTimeout(180_000);
  const link = { v: 4, p: 'swarm-annealed', s: { 'swarm.updates': 2000, 'swarm.subtasks': 8, actors: 2 } };
  await page.goto(`/#x=${LZString.compressToEncodedURIComponent(JSON.stringify(link))}`);
  await page.getByTestId('start').click();
  await expect(page.getByTestId('status')).toHaveText('running', { timeout: 60_000 });
  const progress = page.getByTestId('progress');
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 90_000 }).toBeGreaterThan(0);
  await page.getByTestId('crash-0').click();
  await expect(page.getByTestId('respawns-0')).toHaveText('1', { timeout: 60_000 });
  await expect(page.getByTestId('notices')).toContainText(/actor 0 replaced: SwarmActor#\d+ started in place of the one that died/);
  await expect(page.getByTestId('notices')).not.toContainText('Could not crash');
  await expect(page.getByTestId('status')).toHaveText('running');
  const after = Number(await progress.getAttribute('aria-valuenow'));
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThan(after);
  await page.getByTestId('stop').click();
});
