import { describe, expect, it } from 'vitest';
import { BoundedQueue } from '../../../src/engine/boundedQueue';
import { policyLags } from '../../../src/engine/loops/async';

describe('BoundedQueue', () => {
  it('applies backpressure: a push into a full queue waits until the learner takes', async () => {
    const q = new BoundedQueue<number>(2);
    await q.push(1);
    await q.push(2);
    let pushed = false;
    const third = q.push(3).then(() => (pushed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(pushed).toBe(false);
    expect(q.blockedPushes).toBe(1);
    expect(await q.take(1)).toEqual([1]);
    await third;
    expect(pushed).toBe(true);
    expect(await q.take(2)).toEqual([2, 3]);
  });

  it('loses no item with many producers racing a slow consumer', async () => {
    const q = new BoundedQueue<string>(3);
    const producers = Array.from({ length: 5 }, (_, p) =>
      (async () => {
        for (let i = 0; i < 40; i++) await q.push(`${p}:${i}`);
      })(),
    );
    const seen: string[] = [];
    while (seen.length < 200) {
      const batch = await q.take(2);
      seen.push(...batch!);
      if (seen.length % 20 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(producers);
    expect(new Set(seen).size).toBe(200);
    for (let p = 0; p < 5; p++) {
      const mine = seen.filter((x) => x.startsWith(`${p}:`)).map((x) => Number(x.split(':')[1]));
      expect(mine).toEqual([...mine].sort((a, b) => a - b)); // each producer's order is kept
    }
  });

  it('close() releases blocked producers and consumers', async () => {
    const q = new BoundedQueue<number>(1);
    await q.push(1);
    const blocked = q.push(2);
    const empty = new BoundedQueue<number>(1);
    const waiting = empty.take(1);
    q.close();
    empty.close();
    await expect(blocked).rejects.toThrow(/closed/);
    expect(await waiting).toBeNull();
  });
});

describe('policy lag bookkeeping', () => {
  it('is the learner version minus the version that produced each segment', () => {
    expect(policyLags(7, [{ policyVersion: 7 }, { policyVersion: 5 }, { policyVersion: 0 }])).toEqual([0, 2, 7]);
  });
});
