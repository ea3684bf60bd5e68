import { describe, expect, it } from 'vitest';
import { countTicks, formatCount } from '../../../src/ui/components/charts/axis';

describe('countTicks', () => {
  it('puts round ticks inside the range and not the data end next to one (the "451477" collision)', () => {
    // 0..477 in about 5 steps: 477 / 5 = 95.4 -> step 100.
    expect(countTicks(0, 477)).toEqual([0, 100, 200, 300, 400]);
    expect(countTicks(1, 477)).not.toContain(477);
  });

  it('keeps whole numbers on short ranges and one tick for a single point', () => {
    expect(countTicks(1, 3)).toEqual([1, 2, 3]);
    expect(countTicks(5, 5)).toEqual([5]);
  });

  it('uses steps of 1, 2, 2.5 or 5 times a power of ten', () => {
    // 0..10,000: 2,000 per step.
    expect(countTicks(0, 10_000)).toEqual([0, 2_000, 4_000, 6_000, 8_000, 10_000]);
    // 0..1,200: 240 -> 250.
    expect(countTicks(0, 1_200)).toEqual([0, 250, 500, 750, 1_000]);
  });

  it('ticks are at least one step apart, whatever the range', () => {
    for (const [a, b] of [[3, 451_477], [17, 93], [0, 7], [1_000, 1_013]]) {
      const t = countTicks(a, b);
      for (let i = 1; i < t.length; i++) expect(t[i] - t[i - 1]).toBe(t[1] - t[0]);
      expect(t.every((v) => v >= a && v <= b)).toBe(true);
    }
  });
});

describe('formatCount', () => {
  it('shortens large counts', () => {
    expect(formatCount(950)).toBe('950');
    expect(formatCount(4_000)).toBe('4,000');
    expect(formatCount(450_000)).toBe('450k');
    expect(formatCount(1_250_000)).toBe('1.25M');
  });
});
