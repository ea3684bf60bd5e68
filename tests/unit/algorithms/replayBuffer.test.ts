import { describe, expect, it } from 'vitest';
import { ReplayBuffer } from '../../../src/algorithms/replayBuffer';

/** Transition k: obs = [k, k], action k % 3, reward 10k, nextObs = [k+1, k+1], done on even k. */
function fill(buf: ReplayBuffer, count: number): void {
  for (let k = 0; k < count; k++) buf.add([k, k], k % 3, 10 * k, [k + 1, k + 1], k % 2 === 0);
}

describe('ReplayBuffer', () => {
  it('wraps around, overwriting the oldest transition first', () => {
    const buf = new ReplayBuffer(3, 2, 1);
    fill(buf, 2);
    expect(buf.size).toBe(2);
    fill(buf, 0);
    for (let k = 2; k < 5; k++) buf.add([k, k], k % 3, 10 * k, [k + 1, k + 1], k % 2 === 0);
    // 5 adds into 3 slots: slot 0 ← k=3, slot 1 ← k=4, slot 2 ← k=2; next write at slot 2
    expect(buf.size).toBe(3);
    expect(buf.position).toBe(2);
    expect(Array.from(buf.rewards)).toEqual([30, 40, 20]);
    expect(Array.from(buf.obs)).toEqual([3, 3, 4, 4, 2, 2]);
    expect(Array.from(buf.dones)).toEqual([0, 1, 1]);
  });

  it('samples deterministically for a seed, and each row is one whole transition', () => {
    const a = new ReplayBuffer(50, 2, 7);
    const b = new ReplayBuffer(50, 2, 7);
    const c = new ReplayBuffer(50, 2, 8);
    for (const buf of [a, b, c]) fill(buf, 80);
    const sa = a.sample(16);
    const sb = b.sample(16);
    expect(sb).toEqual(sa);
    expect(c.sample(16).rewards).not.toEqual(sa.rewards);
    for (let i = 0; i < 16; i++) {
      const k = sa.rewards[i] / 10;
      expect(k).toBeGreaterThanOrEqual(30); // only the newest 50 of 80 remain
      expect(sa.obs[2 * i]).toBe(k);
      expect(sa.nextObs[2 * i + 1]).toBe(k + 1);
      expect(sa.actions[i]).toBe(k % 3);
      expect(sa.dones[i]).toBe(k % 2 === 0 ? 1 : 0);
    }
    // the next draw continues the stream (differs), identically for both
    expect(a.sample(16)).toEqual(b.sample(16));
  });

  it('addBatch stores rows in order; checks its inputs', () => {
    const buf = new ReplayBuffer(4, 2, 1);
    buf.addBatch({
      obs: new Float32Array([1, 1, 2, 2]),
      nextObs: new Float32Array([2, 2, 3, 3]),
      actions: new Int32Array([0, 1]),
      rewards: new Float32Array([5, 6]),
      dones: new Uint8Array([0, 1]),
      batchSize: 2,
    });
    expect(buf.size).toBe(2);
    expect(Array.from(buf.rewards.subarray(0, 2))).toEqual([5, 6]);
    expect(() => new ReplayBuffer(4, 2, 1).sample(1)).toThrow(/empty/);
    expect(() => buf.add([1], 0, 0, [1, 1], false)).toThrow(/obsDim = 2/);
    expect(() => new ReplayBuffer(0, 2, 1)).toThrow(/capacity/);
  });
});
