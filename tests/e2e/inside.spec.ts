/**
 * Looking inside the agent: during a QuickStart run the policy heatmap and the network view
 * appear, and the heatmap changes as the policy learns (two snapshots, updates apart); a SAC run
 * shows its actor network and its twin critics' Q over the torque range; QMIX and MADDPG runs
 * show every agent's values on a fixed first state.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { test, expect, expectStatus } from './fixtures';

const shots = new URL('./artifacts/screenshots/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

// The largest budget (about 20 s of training here, 1M steps took 4 s): the test stops the run once it has two
// snapshots (the learner sends one every 2 s).
const config = resolveExperiment('quickstart', { backend: 'wasm', actors: 1, seed: 3, 'run.envSteps': 5_000_000 });

/** Serious or critical axe violations inside the panel (contrast of the values over their bars, names of the state choices). */
async function panelViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('[data-testid="agent-inside"]').analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help}`);
}

/** The numbers in `text` (minus signs as − or -, thousands with commas): at least `least`, every one finite. */
function expectFiniteNumbers(text: string, least: number): number[] {
  expect(text).not.toMatch(/NaN|Infinity|∞/);
  const numbers = (text.match(/[−-]?\d[\d,]*(\.\d+)?/g) ?? []).map((t) => Number(t.replace('−', '-').replace(/,/g, '')));
  expect(numbers.length).toBeGreaterThanOrEqual(least);
  for (const n of numbers) expect(Number.isFinite(n)).toBe(true);
  return numbers;
}

async function snapshot(page: Page): Promise<{ update: number; pixels: string }> {
  const heatmap = page.getByTestId('policy-heatmap');
  const update = Number(await heatmap.getAttribute('data-update'));
  const pixels = await heatmap.locator('canvas').evaluate((c: HTMLCanvasElement) => c.toDataURL());
  return { update, pixels };
}

test('the policy heatmap and the network view follow the policy as it learns', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`/#x=${encodeExperiment(config)}`);
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  const inside = page.getByTestId('agent-inside');
  await expect(inside).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('network-view')).toContainText('4 → 64 → 2');
  await expect(page.getByTestId('policy-heatmap')).toContainText('pole angle');

  const first = await snapshot(page);
  await expect.poll(async () => (await snapshot(page)).update, { timeout: 90_000 }).toBeGreaterThan(first.update + 10);
  const later = await snapshot(page);
  expect(later.pixels).not.toBe(first.pixels);
  await inside.screenshot({ path: `${shots}inside-the-agent.png` });
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done', 60_000);
});

test('continuous control: SAC shows its actor network, in Pendulum’s words', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`/#x=${encodeExperiment(resolveExperiment('sac-pendulum', { backend: 'wasm', seed: 3 }))}`);
  await page.getByTestId('start').click();
  await expectStatus(page, 'running', 60_000);
  const inside = page.getByTestId('agent-inside');
  await expect(inside).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('actor-note')).toContainText('The actor at update');
  await expect(page.getByTestId('network-view')).toContainText('The actor network');
  await expect(page.getByTestId('network-view')).toContainText('3 → 64 → 64 → 1');
  await expect(page.getByTestId('shown-state')).toContainText('cos θ = -1, sin θ = 0, angular velocity = 0');
  const curve = page.getByTestId('critic-curve');
  await expect(curve.locator('figcaption')).toContainText('hanging straight down, at rest');
  await expect(curve.locator('polyline')).toHaveCount(2);
  const readout = await page.getByTestId('critic-readout').innerText();
  expect(readout).toMatch(/Q1 .*Q2 .*the actor’s torque/);
  expectFiniteNumbers(readout, 4);
  const states = page.getByTestId('critic-states').getByRole('radio');
  await expect(states).toHaveCount(3);
  await states.nth(1).check();
  await expect(curve.locator('figcaption')).toContainText('just off upright (θ = +0.3)');
  expectFiniteNumbers(await page.getByTestId('critic-readout').innerText(), 4);
  await expect(page.getByTestId('explain-agent-inside')).toHaveAttribute('data-family', 'continuous');
  expect(await panelViolations(page)).toEqual([]);
  await inside.screenshot({ path: `${shots}inside-the-sac-actor.png` });
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done', 60_000);
});

for (const { preset, mixer, team } of [
  { preset: 'qmix-spread', mixer: 'qmix', team: true },
  { preset: 'maddpg-spread', mixer: 'maddpg', team: false },
]) {
  test(`multi-agent: ${preset} shows every agent’s values on the first state of an episode`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`/#x=${encodeExperiment(resolveExperiment(preset, { backend: 'wasm', seed: 3 }))}`);
    await page.getByTestId('start').click();
    await expectStatus(page, 'running', 60_000);
    const values = page.getByTestId('team-values');
    await expect(values).toBeVisible({ timeout: 90_000 });
    await expect(values).toHaveAttribute('data-mixer', mixer);
    // simple_spread: three agents, five moves each, one chosen move per agent.
    await expect(values.locator('tbody tr')).toHaveCount(3);
    await expect(values.locator('thead th')).toHaveText(['agent', 'stay', 'left', 'right', 'down', 'up']);
    await expect(values.locator('td.chosen')).toHaveCount(3);
    for (const cell of await values.locator('tbody td').allInnerTexts()) expectFiniteNumbers(cell, mixer === 'maddpg' ? 2 : 1);
    await expect(page.getByTestId('explain-agent-inside')).toHaveAttribute('data-family', 'marl');
    if (team) expectFiniteNumbers(await page.getByTestId('team-q').innerText(), 1);
    else await expect(page.getByTestId('team-q')).toHaveCount(0);
    expect(await panelViolations(page)).toEqual([]);
    await page.getByTestId('agent-inside').screenshot({ path: `${shots}inside-${preset}.png` });
    await page.getByTestId('stop').click();
    await expectStatus(page, 'done', 60_000);
  });
}

test('multi-agent: mappo-spread draws its shared actor on agent 1 at the first state of an episode, in simple_spread’s words', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`/#x=${encodeExperiment(resolveExperiment('mappo-spread', { backend: 'wasm', seed: 3 }))}`);
  await page.getByTestId('start').click();
  const shown = page.getByTestId('shown-state');
  await expect(shown).toBeVisible({ timeout: 90_000 });
  await expect(shown).toContainText('Activations for agent 1 at the first step of an episode');
  await expect(shown).toContainText('own velocity x = 0');
  await expect(shown).toContainText('is agent 1 = 1, is agent 2 = 0, is agent 3 = 0');
  await page.getByTestId('stop').click();
  await expectStatus(page, 'done', 60_000);
});
