/**
 * What a saved or imported run can make the renderers draw. The charts' data
 * helpers are pure, so their caps are checked here without a browser.
 */
import { describe, expect, it } from 'vitest';
import { lagBins, MAX_LAG_BARS } from '../../../src/ui/components/charts/LagHistogram';
import { chartedMetrics, MAX_LOSS_CHARTS } from '../../../src/ui/components/charts/LossCharts';

describe('what the renderers draw', () => {
  it('bins policy lags into at most 40 bars, whatever the largest lag', () => {
    expect(lagBins({ 0: 3, 2: 1 })).toEqual([
      { lag: '0', lo: 0, hi: 0, batches: 3 },
      { lag: '1', lo: 1, hi: 1, batches: 0 },
      { lag: '2', lo: 2, hi: 2, batches: 1 },
    ]);
    // One lag of 2^32 once allocated 2^32 + 1 bars. Bins are ceil(2^32 / 40) = 107374183 lags wide.
    const started = performance.now();
    const bins = lagBins({ 0: 5, 4294967296: 1 });
    expect(performance.now() - started).toBeLessThan(50);
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
});
