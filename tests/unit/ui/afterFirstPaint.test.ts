import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from '../../../src/ui/afterFirstPaint';

// Node reports no paint entries, so these take the fallback timer path.
describe('afterFirstPaint', () => {
  afterEach(() => vi.useRealTimers());

  it('runs once, in a task of its own, when no paint is ever reported', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    afterFirstPaint(run, 100);
    vi.advanceTimersByTime(99);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('a cancel after the paint but before the run still cancels it (an effect torn down at once, as StrictMode does)', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const cancel = afterFirstPaint(run, 100);
    vi.advanceTimersByTime(100);
    cancel();
    vi.advanceTimersByTime(1_000);
    expect(run).not.toHaveBeenCalled();
  });
});
