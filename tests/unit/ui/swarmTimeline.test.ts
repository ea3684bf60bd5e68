import { describe, expect, it } from 'vitest';
import { buildSwarmTrace } from '../../../src/swarm/swarmTrace';
import { swarmCaption, swarmFigures, swarmRows, kindColor, lambdaPhase, tickStep, type ShapingSettings } from '../../../src/ui/components/SwarmTimeline';
import { handEpisode, NO_CAPS } from '../swarm/fixtures/swarmTraceEpisode';

describe('swarm timeline layout', () => {
  const trace = buildSwarmTrace(handEpisode(), NO_CAPS);

  it('draws the orchestrator, then one row per subagent labelled with its kind', () => {
    const { rows, hidden } = swarmRows(trace);
    expect(rows.map((r) => r.label)).toEqual(['orchestrator', 'large #0', 'small #1', 'small #2', 'searcher #3']);
    expect(hidden).toBe(0);
    // The orchestrator's own steps in each stage: launch 0-1, checks 7-9 and 9-11, launch 11-12, direct 17-21, finish 21-22.
    expect(rows[0].bars.map((b) => [b.start, b.end])).toEqual([[0, 1], [7, 9], [9, 11], [11, 12], [17, 21], [21, 22]]);
    expect(rows[1].bars).toMatchObject([{ start: 1, end: 7, done: 2, items: 2, color: kindColor(trace, 'large') }]);
    expect(rows[2].bars).toMatchObject([{ start: 1, end: 5, done: 0, items: 1 }]);
    expect(kindColor(trace, 'small')).not.toBe(kindColor(trace, 'large'));
  });

  it('marks checks on the row of the subagent whose claim was checked, and retries where the work was given again', () => {
    const { rows } = swarmRows(trace);
    expect(rows[1].marks.map((m) => [m.type, m.at])).toEqual([['fail', 9], ['pass', 11]]);
    expect(rows[3].marks.map((m) => [m.type, m.at])).toEqual([['retry', 12], ['retry', 12]]);
    // The direct retry of subtask 3 is the orchestrator's own: a second opinion on the searcher's unchecked claim.
    expect(rows[0].marks.map((m) => [m.type, m.at])).toEqual([['second', 17]]);
    expect(rows[0].marks[0].title).toBe('subtask 3 given again as a second opinion on an unchecked claim');
    expect(rows[2].marks).toEqual([]);
    expect(rows[4].marks).toEqual([]);
  });

  it('leaves rows past the cap out and counts them', () => {
    const { rows, hidden } = swarmRows(trace, 2);
    expect(rows.map((r) => r.label)).toEqual(['orchestrator', 'large #0', 'small #1']);
    expect(hidden).toBe(2);
    // Marks of subagents not drawn are not moved elsewhere.
    expect(rows[0].marks.map((m) => m.at)).toEqual([17]);
  });

  it('numbers stages from 1 in every tooltip', () => {
    const { rows } = swarmRows(trace);
    expect(rows[0].bars[0].title).toBe('stage 1: launch, 1 steps');
    expect(rows[4].bars[0].title).toContain('searcher #3, stage 4:');
  });

  it('says what happened in plain words, leaving the figures to the figure line', () => {
    const text = swarmCaption(trace);
    expect(text).toContain('created 4 subagents (1 large, 2 small, 1 searcher) over 6 stages');
    expect(text).toContain('worked on 1 subtask itself');
    expect(text).toContain('checked 2 claims: 1 right, 1 wrong');
    expect(text).toContain('3 subtasks were given again (1 after a check found its claim wrong; 1 after a run that brought no claim; 1 as a second opinion on an unchecked claim)');
    expect(text).toContain('finished within the hard budget');
    // The serial baseline is named once, in the figure line, not again in the caption.
    expect(text).not.toMatch(/serial|\b80\b/);
  });

  it('names each figure once: critical steps (with its share of serial), the hard budget, the serial baseline, r_perf', () => {
    const figures = swarmFigures(trace);
    expect(figures.map((f) => [f.name, f.value])).toEqual([
      ['critical steps', '22 (0.28 × serial)'],
      ['hard budget', '30'],
      ['serial baseline', '80'],
      ['r_perf', '0.75'],
    ]);
    expect(new Set(figures.map((f) => f.name)).size).toBe(figures.length);
  });
});

describe('where the run is in its λ annealing', () => {
  // The page keeps a λ and its value on one line (a no-break space); read here with plain spaces.
  const phase = (...args: Parameters<typeof lambdaPhase>) => {
    const p = lambdaPhase(...args);
    return { ...p, text: p.text.replace(/\u00a0/g, ' ') };
  };
  const annealed: ShapingSettings = { lambda1Start: 0.3, lambda2Start: 0.3, lambda1Schedule: 'linear', lambda2Schedule: 'linear', annealUpdates: 60 };

  it('is annealing while either λ is above zero and falls', () => {
    const p = phase({ lambda1: 0.15, lambda2: 0.15 }, annealed);
    expect(p.kind).toBe('annealing');
    expect(p.text).toBe('annealing: λ1 0.15, λ2 0.15, both 0 from update 60');
  });

  it('is annealed once both have reached zero', () => {
    expect(phase({ lambda1: 0, lambda2: 0 }, annealed)).toEqual({ kind: 'annealed', text: 'annealed: λ1 = λ2 = 0 (from update 60), only r_perf counts' });
  });

  it('says a constant λ is held, and never calls a run without shaping annealed', () => {
    const held = phase({ lambda1: 0.3, lambda2: 0.1 }, { ...annealed, lambda1Schedule: 'constant' });
    expect(held.kind).toBe('held');
    expect(held.text).toBe('λ1 held at 0.30 (constant: never annealed); λ2 0.10 annealing to 0 by update 60');
    expect(lambdaPhase({ lambda1: 0, lambda2: 0 }, { ...annealed, lambda1Start: 0, lambda2Start: 0 }).kind).toBe('unshaped');
  });

  it('before the first report, reads the start values', () => {
    expect(lambdaPhase(null, annealed).kind).toBe('annealing');
  });
});

describe('the step axis', () => {
  it('spaces ticks a round number of steps at least 36 px apart', () => {
    expect(tickStep(30, 10)).toBe(5);
    expect(tickStep(400, 0.5)).toBe(100);
    expect(tickStep(12, 40)).toBe(1);
  });
});
