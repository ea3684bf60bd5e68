/**
 * Keeps long chart series short without hiding their peaks: once a series passes `cap` points,
 * every run of four points is replaced by its lowest and highest point (in time order), which
 * halves the series while keeping every extreme visible.
 */
export function decimateKeepingExtremes<T>(points: T[], value: (p: T) => number, cap = 2_000): T[] {
  if (points.length <= cap) return points;
  const out: T[] = [];
  for (let i = 0; i < points.length; i += 4) {
    const chunk = points.slice(i, i + 4);
    if (chunk.length <= 2) {
      out.push(...chunk);
      continue;
    }
    let lo = 0;
    let hi = 0;
    for (let j = 1; j < chunk.length; j++) {
      if (value(chunk[j]) < value(chunk[lo])) lo = j;
      if (value(chunk[j]) > value(chunk[hi])) hi = j;
    }
    if (lo === hi) out.push(chunk[lo]);
    else out.push(chunk[Math.min(lo, hi)], chunk[Math.max(lo, hi)]);
  }
  return out;
}
