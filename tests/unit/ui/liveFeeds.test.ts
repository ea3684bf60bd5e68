/**
 * What the throughput chart and the live view are fed: per-actor throughput over the update's
 * wall time, and greedy episodes often enough that a short run's last greedy episode is near its end.
 */
import { describe, expect, it } from 'vitest';
import { actorRates, GreedyEpisodeTicker, MIN_GREEDY_EPISODE_MS } from '../../../src/engine/loops/common';
import type { LoopContext } from '../../../src/engine/loops/types';
import type { RunRecord } from '../../../src/runs/records';

describe('actorRates', () => {
  it('is the steps each actor contributed per second of the update, and adds up to the run rate', () => {
    // Three identical actors, 512 steps each; their own segment times differ (noise), the update took 2 s.
    const segs = [
      { actorIndex: 0, steps: 512, seconds: 0.03 },
      { actorIndex: 1, steps: 512, seconds: 0.2 },
      { actorIndex: 2, T: 128, numEnvs: 4, seconds: 0.15 },
    ];
    const rates = actorRates(3, segs, 2);
    expect(rates).toEqual([256, 256, 256]);
    // The run did 1536 steps in 2 s: 768 steps/s, the sum of the bars.
    expect(rates.reduce((a, b) => a + b, 0)).toBe(768);
  });

  it('gives 0 to an actor with nothing in this update and adds up two segments of one actor', () => {
    const rates = actorRates(3, [{ actorIndex: 2, steps: 100 }, { actorIndex: 2, steps: 50 }], 0.5);
    expect(rates).toEqual([0, 0, 300]);
  });
});

describe('GreedyEpisodeTicker', () => {
  function harness() {
    let clock = 0;
    const emitted: { update: number }[] = [];
    const ctx = { emit: (r: RunRecord) => r.type === 'greedyEpisode' && emitted.push({ update: r.update }) } as Pick<LoopContext, 'emit'> as LoopContext;
    const pool = {
      size: 1,
      call: () => Promise.resolve({ envId: 'CartPole-v1', keys: ['x'], frames: new Float32Array([0]), episodeReturn: 1, length: 1 }),
    };
    const ticker = new GreedyEpisodeTicker(3_000, () => clock);
    return {
      emitted,
      async update(u: number, at: number) {
        clock = at;
        ticker.tick(ctx, pool, u, () => []);
        await Promise.resolve();
        await Promise.resolve();
        await Promise.resolve();
      },
      ticker,
    };
  }

  it('a run of 5 s with an update every 10 ms shows a greedy episode from its last half second', async () => {
    const h = harness();
    for (let u = 1; u <= 500; u++) await h.update(u, u * 10);
    expect(h.emitted[0].update).toBe(1);
    const last = h.emitted[h.emitted.length - 1].update;
    // 5 s after the start the interval is 5000 / 8 = 625 ms: the last greedy episode is at most 62 updates old.
    expect(last).toBeGreaterThanOrEqual(500 - 63);
    // With a fixed 3 s interval there would have been 2 greedy episodes (updates 1 and 301).
    expect(h.emitted.length).toBeGreaterThan(5);
  });

  it('settles at one greedy episode every 3 s in a long run, and never more often than every 250 ms', () => {
    const t = new GreedyEpisodeTicker(3_000, () => 0);
    expect(t.intervalAt(0)).toBe(MIN_GREEDY_EPISODE_MS);
    expect(t.intervalAt(1_000)).toBe(250);
    expect(t.intervalAt(8_000)).toBe(1_000);
    expect(t.intervalAt(600_000)).toBe(3_000);
  });

  it('plays the episode with the weights the learner has after the update, read back when it is due', async () => {
    const sent: Float32Array[][] = [];
    const emitted: number[] = [];
    const ctx = { emit: (r: RunRecord) => r.type === 'greedyEpisode' && emitted.push(r.update) } as Pick<LoopContext, 'emit'> as LoopContext;
    const pool = {
      size: 1,
      call: (_i: number, _m: 'recordGreedyEpisode', w: Float32Array[] | null) => {
        sent.push(w ?? []);
        return Promise.resolve({ envId: 'CartPole-v1', keys: ['x'], frames: new Float32Array([0]), episodeReturn: 1, length: 1 });
      },
    };
    let learner = [new Float32Array([1, 2])];
    let reads = 0;
    const ticker = new GreedyEpisodeTicker(3_000, () => 0);
    // A readback (as getWeightsAsync) of what the learner holds when the episode is due.
    ticker.tick(ctx, pool, 4, () => {
      reads += 1;
      return Promise.resolve(learner.map((w) => w.slice()));
    });
    learner = [new Float32Array([9, 9])]; // the next update goes on meanwhile
    for (let i = 0; i < 6; i++) await Promise.resolve();
    expect(reads).toBe(1);
    expect(sent).toEqual([[new Float32Array([1, 2])]]);
    expect(emitted).toEqual([4]);
    // Not due again (3 s have not passed): the learner's weights are not even read.
    ticker.tick(ctx, pool, 5, () => {
      reads += 1;
      return learner;
    });
    expect(reads).toBe(1);
  });
});
