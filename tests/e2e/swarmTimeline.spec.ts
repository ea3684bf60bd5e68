/**
 * The swarm timeline read as a class reads it: on a 1366 × 900 screen, after a short swarm run
 * (opened from a link: 24-subtask tasks, 2 updates, a trace at every update), every label the
 * timeline renders is at least 11 px high as drawn, the serial baseline is named once with one
 * number, each subagent kind has its colour in the legend, the run's λ phase is stated, and axe
 * finds no serious violation in it (contrast included).
 * Screenshots go to .scratch/ (ignored by git), to look at.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { resolveExperiment } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import { MIN_LABEL_PX } from '../../src/ui/components/SwarmTimeline';
import { test, expect, expectStatus } from './fixtures';

const shots = new URL('../../.scratch/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

test.use({ viewport: { width: 1366, height: 900 } });

interface Measured {
  text: string;
  tag: string;
  /** The font size as drawn: CSS size times the SVG's scale on screen. */
  px: number;
  height: number;
}

test('the swarm timeline is legible at 1366 px: every label at least 11 px, one serial figure, kinds in colour, the λ phase', async ({ page }) => {
  test.setTimeout(300_000);
  const config = resolveExperiment('swarm-annealed', {
    actors: 2,
    envsPerActor: 2,
    'swarm.subtasks': 24,
    'swarm.updates': 2,
    'swarm.annealUpdates': 4,
    'swarm.traceEvery': 1,
  });
  await page.goto(`/#x=${encodeExperiment(config, { autostart: true })}`);
  const timeline = page.getByTestId('swarm-timeline');
  await expect(timeline).toBeVisible({ timeout: 240_000 });
  await expectStatus(page, 'done', 240_000);
  await timeline.scrollIntoViewIfNeeded();

  const measured = await timeline.evaluate((root): Measured[] => {
    const out: Measured[] = [];
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (el.closest('title')) continue;
      const own = Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (own.length === 0 || el.getClientRects().length === 0) continue;
      const css = parseFloat(getComputedStyle(el).fontSize);
      const scale = el instanceof SVGGraphicsElement ? (el.getScreenCTM()?.a ?? 1) : 1;
      out.push({ text: (el.textContent ?? '').trim().slice(0, 40), tag: el.tagName, px: css * scale, height: el.getBoundingClientRect().height });
    }
    return out;
  });
  const svgTexts = measured.filter((m) => m.tag === 'text');
  // The orchestrator's row, at least one subagent's, the axis and the stage numbers.
  expect(svgTexts.length).toBeGreaterThan(4);
  const small = measured.filter((m) => m.px < MIN_LABEL_PX || m.height < MIN_LABEL_PX);
  expect(small, `labels under ${MIN_LABEL_PX} px: ${JSON.stringify(small)}`).toEqual([]);

  // One serial figure: named once, and its number is the trace's own.
  const figures = page.getByTestId('timeline-figures');
  await expect(figures.locator('[data-figure="serial baseline"]')).toHaveCount(1);
  const serial = (await figures.locator('[data-figure="serial baseline"] dd').textContent())?.trim() ?? '';
  expect(serial).toMatch(/^\d+$/);
  const whole = (await timeline.innerText()).toLowerCase();
  expect(whole.split('serial baseline').length - 1, whole).toBe(1);

  // Every subagent kind in the legend, each in its own colour; each drawn row in its kind's colour.
  const kinds = page.getByTestId('timeline-kinds').locator('[data-kind]');
  const colours = await kinds.evaluateAll((els) => els.map((e) => getComputedStyle(e.querySelector('.swatch') as Element).backgroundColor));
  expect(colours.length).toBeGreaterThanOrEqual(2);
  expect(new Set(colours).size).toBe(colours.length);

  // Where the run is: the updates and the λ phase (2 of 4 anneal updates: still annealing).
  const phase = page.getByTestId('timeline-phase');
  await expect(phase).toHaveAttribute('data-phase', 'annealing');
  await expect(phase).toContainText('update 2 of 2');
  await expect(phase).toContainText(/λ1\s0\.[1-9]\d, λ2\s0\.[1-9]\d/);

  // Its colours on the panel pass axe's contrast rule, like the rest of the page.
  const axe = await new AxeBuilder({ page }).include('[data-testid="swarm-timeline"]').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);

  await timeline.screenshot({ path: `${shots}swarm-timeline-1366.png` });
  await page.screenshot({ path: `${shots}swarm-page-1366.png` });
});
