import { describe, expect, it } from 'vitest';
import { CallDeadlines } from '../../../../src/core/remote/callDeadlines';

describe('CallDeadlines', () => {
  it('gives the first calls of a method the generous start deadline, then a multiple of its measured times', () => {
    const d = new CallDeadlines({ factor: 10, floorMs: 100, firstCallsMs: 60_000, minSamples: 3 });
    expect(d.deadlineMs('rollout')).toBe(60_000);
    d.record('rollout', 40);
    d.record('rollout', 50);
    expect(d.deadlineMs('rollout')).toBe(60_000);
    d.record('rollout', 45);
    expect(d.deadlineMs('rollout')).toBe(500);
    // Methods are measured apart: a quick one does not shorten a slow one's deadline.
    expect(d.deadlineMs('evaluate')).toBe(60_000);
  });

  it('follows a high quantile, so one slow call among many raises the deadline', () => {
    const d = new CallDeadlines({ factor: 10, floorMs: 0, minSamples: 3, window: 50 });
    for (let i = 0; i < 49; i++) d.record('m', 10);
    expect(d.deadlineMs('m')).toBe(100);
    d.record('m', 80);
    expect(d.deadlineMs('m')).toBe(800);
  });

  it('never goes under the floor, and doubles its multiple after each missed deadline', () => {
    const d = new CallDeadlines({ factor: 10, floorMs: 1_000, minSamples: 1 });
    d.record('m', 5);
    expect(d.deadlineMs('m')).toBe(1_000);
    for (let i = 0; i < 5; i++) d.record('m', 200);
    expect(d.deadlineMs('m')).toBe(2_000);
    d.missed('m');
    expect(d.deadlineMs('m')).toBe(4_000);
  });
});
