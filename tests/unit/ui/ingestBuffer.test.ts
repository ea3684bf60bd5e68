import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIngestBuffer } from '../../../src/ui/session/ingestBuffer';
import type { RunRecord } from '../../../src/runs/records';

const rec = (n: number): RunRecord => ({ type: 'notice', level: 'info', message: `r${n}` }) as RunRecord;

describe('ingest buffer', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('hands on the first batch at once, then at most one batch per delay, nothing lost or reordered', () => {
    const got: string[][] = [];
    const buf = createIngestBuffer(250, (batch) => got.push(batch.map((r) => (r as { message: string }).message)));
    buf.push([rec(1)]);
    expect(got).toEqual([['r1']]); // a quiet buffer delivers right away
    vi.advanceTimersByTime(100);
    buf.push([rec(2)]);
    buf.push([rec(3)]);
    expect(got).toHaveLength(1); // 100 ms after a delivery: waits for the rest of the 250 ms
    vi.advanceTimersByTime(149);
    expect(got).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(got).toEqual([['r1'], ['r2', 'r3']]);
    vi.advanceTimersByTime(1000); // quiet again: the next batch goes at once
    buf.push([rec(4)]);
    expect(got).toEqual([['r1'], ['r2', 'r3'], ['r4']]);
  });

  it('flush hands on what is buffered now, and an empty flush delivers nothing', () => {
    const got: number[] = [];
    const buf = createIngestBuffer(250, (batch) => got.push(batch.length));
    buf.flush();
    expect(got).toEqual([]);
    buf.push([rec(1)]);
    buf.push([rec(2), rec(3)]);
    buf.flush();
    expect(got).toEqual([1, 2]);
    vi.advanceTimersByTime(1000);
    expect(got).toEqual([1, 2]); // the timer was cleared: no empty or repeated delivery
  });

  it('hands on an urgent batch at once, with what was buffered before it, and throttles from there', () => {
    const got: string[][] = [];
    const buf = createIngestBuffer(250, (batch) => got.push(batch.map((r) => (r as { message: string }).message)));
    buf.push([rec(1)]);
    vi.advanceTimersByTime(50);
    buf.push([rec(2)]);
    expect(got).toEqual([['r1']]);
    buf.push([rec(3)], true);
    expect(got).toEqual([['r1'], ['r2', 'r3']]);
    vi.advanceTimersByTime(100);
    buf.push([rec(4)]);
    expect(got).toHaveLength(2); // 100 ms after the urgent delivery: waits
    vi.advanceTimersByTime(150);
    expect(got).toEqual([['r1'], ['r2', 'r3'], ['r4']]);
  });
});
