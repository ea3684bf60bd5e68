/**
 * Issue 15, item 2: what a saved or imported run can make the renderers draw. The charts' data
 * helpers are pure, so their caps are checked here without a browser.
 */
import { describe, expect, it } from 'vitest';
import { lagBins, MAX_LAG_BARS } from '../../../src/ui/components/charts/LagHistogram';
import { chartedMetrics, MAX_LOSS_CHARTS } from '../../../src/ui/components/charts/LossCharts';
import { laneStages, MAX_SUBAGENT_BARS } from '../../../src/ui/components/SwarmTimeline';
import type { EpisodeTrace } from '../../../src/swarm/trace';

describe('what the renderers draw', () => {
  it('bins policy lags into at most 40 bars, whatever the largest lag', () => {
    expect(lagBins({ 0: 3, 2: 1 })).toEqual([
      { lag: '0', lo: 0, hi: 0, batches: 3 },
      { lag: '1', lo: 1, hi: 1, batches: 0 },
      { lag: '2', lo: 2, hi: 2, batches: 1 },
    ]);
    // One lag of 2^32 once allocated 2^32 + 1 bars. Bins are ceil(2^32 / 40) = 107374183 lags wide.
    const bins = lagBins({ 0: 5, 4294967296: 1 });
    expect(bins.length).toBeLessThanOrEqual(MAX_LAG_BARS);
    expect(bins[0]).toEqual({ lag: '0–107374182', lo: 0, hi: 107374182, batches: 5 });
    expect(bins[bins.length - 1].batches).toBe(1);
    expect(bins.reduce((n, b) => n + b.batches, 0)).toBe(6);
    expect(lagBins({})).toEqual([]);
  });

  it('draws at most 24 metric charts, the named losses first, and says how many are left out', () => {
    const keys = [...Array.from({ length: 2_000 }, (_, i) => `m${i}`), 'loss', 'entropy', 'lambda1'];
    const { shown, left } = chartedMetrics(keys);
    expect(shown).toHaveLength(MAX_LOSS_CHARTS);
    expect(shown.slice(0, 2)).toEqual(['loss', 'entropy']);
    expect(left).toBe(2_002 - MAX_LOSS_CHARTS);
    expect(chartedMetrics(['loss', 'toString'])).toEqual({ shown: ['loss', 'toString'], left: 0 });
  });

  it('draws at most 2,000 subagent bars per lane, keeping each stage\'s critical one', () => {
    const outcome = (subtaskId: number, steps: number) => ({ subtaskId, steps, outcome: 'done' as const, answer: null });
    const stages = Array.from({ length: 2_000 }, (_, index) => ({
      index, action: 'assign' as const, subagents: Array.from({ length: 100 }, (_, j) => outcome(j, j === 7 ? 50 : 1 + (j % 5))), direct: null, mainSteps: 1, criticalStepsSoFar: 51 * (index + 1),
    }));
    const trace = { stages, criticalPath: stages.map((s) => ({ stage: s.index, action: s.action, setBy: 'subagent' as const, subtaskId: 7, steps: 51 })) } as unknown as EpisodeTrace;
    const lanes = laneStages(trace);
    const drawn = lanes.reduce((n, s) => n + s.bars.length, 0);
    expect(drawn).toBeLessThanOrEqual(MAX_SUBAGENT_BARS);
    expect(lanes.every((s) => s.bars.length === 1 && s.bars[0].critical && s.bars[0].sub.subtaskId === 7 && s.hidden === 99)).toBe(true);
    // Stage i starts where the one before it ended: criticalStepsSoFar − its own width.
    expect(lanes[3]).toMatchObject({ width: 51, start: 153 });
    // A small trace is drawn whole.
    const small = laneStages({ stages: trace.stages.slice(0, 3), criticalPath: trace.criticalPath.slice(0, 3) });
    expect(small.map((s) => s.bars.length)).toEqual([100, 100, 100]);
  });
});
