import { describe, expect, it } from 'vitest';
import { decimateKeepingExtremes } from '../../../src/runs/decimate';
import { Rng } from '../../../src/core/rng';

describe('decimateKeepingExtremes', () => {
  it('leaves short series alone', () => {
    const xs = [3, 1, 2];
    expect(decimateKeepingExtremes(xs, (x) => x, 10)).toBe(xs);
  });

  it('halves a long series, keeps order, and keeps the global and local extremes', () => {
    const rng = new Rng(5);
    const xs = Array.from({ length: 4_000 }, (_, i) => ({ i, v: rng.normal() }));
    xs[1234].v = 50;
    xs[3001].v = -50;
    const out = decimateKeepingExtremes(xs, (p) => p.v, 2_000);
    expect(out.length).toBeLessThanOrEqual(2_000);
    expect(out.length).toBeGreaterThan(1_000);
    for (let k = 1; k < out.length; k++) expect(out[k].i).toBeGreaterThan(out[k - 1].i);
    expect(out.some((p) => p.v === 50)).toBe(true);
    expect(out.some((p) => p.v === -50)).toBe(true);
    expect(Math.max(...out.map((p) => p.v))).toBe(Math.max(...xs.map((p) => p.v)));
  });
});
