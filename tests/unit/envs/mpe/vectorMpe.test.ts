import { describe, expect, it } from 'vitest';
import { Rng, deriveSeed } from '../../../../src/core/rng';
import { makeMpeEnv } from '../../../../src/envs/mpe/registry';
import { MpeVectorEnv } from '../../../../src/envs/mpe/vectorMpe';

describe('MpeVectorEnv', () => {
  it('lays out sizes and resets copy i with deriveSeed(seed, i)', () => {
    const v = new MpeVectorEnv('simple_tag_v3', 3);
    expect(v.agents).toEqual(['adversary_0', 'adversary_1', 'adversary_2', 'agent_0']);
    expect(v.obsDims).toEqual([16, 16, 16, 14]);
    expect(v.obsOffsets).toEqual([0, 16, 32, 48]);
    expect(v.stateDim).toBe(62);
    expect(v.actionStride).toBe(4);
    expect(v.actionSizes).toEqual([5, 5, 5, 5]);
    const obs = v.reset(8);
    expect(obs.length).toBe(3 * 62);
    for (let i = 0; i < 3; i++) {
      const single = makeMpeEnv('simple_tag_v3');
      single.reset({ seed: deriveSeed(8, i) });
      expect(Array.from(obs.subarray(i * 62, (i + 1) * 62))).toEqual(Array.from(single.state()));
    }
    const c = new MpeVectorEnv('simple_speaker_listener_v4', 2, { continuousActions: true });
    expect(c.actionWidths).toEqual([3, 5]);
    expect(c.actionOffsets).toEqual([0, 3]);
    expect(c.actionStride).toBe(8);
  });

  it('matches independent envs step by step, auto-resets after 25 steps and reports episodes', () => {
    for (const continuousActions of [false, true]) {
      const n = 3;
      const v = new MpeVectorEnv('simple_spread_v3', n, { continuousActions });
      v.reset(4);
      const singles = Array.from({ length: n }, (_, i) => {
        const e = makeMpeEnv('simple_spread_v3', { continuousActions });
        e.reset({ seed: deriveSeed(4, i) });
        return e;
      });
      const rng = new Rng(2);
      const returns = Array.from({ length: n }, () => [0, 0, 0]);
      let collisions = new Array<number>(n).fill(0);
      let ended = 0;
      for (let t = 0; t < 60; t++) {
        const flat = Float32Array.from({ length: n * v.actionStride }, () => (continuousActions ? rng.uniform() : rng.int(5)));
        const out = v.step(flat);
        const finished: number[] = [];
        for (let i = 0; i < n; i++) {
          const joint: Record<string, number | Float32Array> = {};
          v.agents.forEach((a, k) => {
            const off = i * v.actionStride + v.actionOffsets[k];
            joint[a] = continuousActions ? flat.slice(off, off + v.actionWidths[k]) : flat[off];
          });
          const r = singles[i].step(joint);
          v.agents.forEach((a, k) => {
            expect(out.rewards[i * 3 + k]).toBe(Math.fround(r.rewards[a]));
            returns[i][k] += out.rewards[i * 3 + k];
          });
          const m = new Float64Array(3);
          singles[i].measure(m);
          collisions[i] += m[0];
          const row = (a: Float32Array) => Array.from(a.subarray(i * v.stateDim, (i + 1) * v.stateDim));
          const ends = r.truncations.agent_0;
          expect(out.truncated[i]).toBe(ends ? 1 : 0);
          expect(out.terminated[i]).toBe(0);
          if (ends) {
            expect((t + 1) % 25).toBe(0);
            expect(row(out.finalObs)).toEqual(v.agents.flatMap((a) => Array.from(r.obs[a])));
            singles[i].reset(); // the copy continues its own stream
            expect(row(out.obs)).toEqual(Array.from(singles[i].state()));
            finished.push(i);
          } else {
            expect(row(out.obs)).toEqual(v.agents.flatMap((a) => Array.from(r.obs[a])));
            expect(row(out.finalObs).every((x) => x === 0)).toBe(true);
          }
        }
        expect(out.episodes.map((e) => e.copy)).toEqual(finished);
        for (const ep of out.episodes) {
          ended++;
          expect(ep.length).toBe(25);
          ep.returns.forEach((g, k) => expect(g).toBeCloseTo(returns[ep.copy][k], 4));
          expect(ep.metrics.collisions).toBe(collisions[ep.copy]);
          expect(ep.metrics.occupiedLandmarks).toBeGreaterThanOrEqual(0);
          returns[ep.copy] = [0, 0, 0];
          collisions = collisions.map((c, j) => (j === ep.copy ? 0 : c));
        }
      }
      expect(ended).toBe(2 * n);
    }
  });

  it('rejects a flat joint action of the wrong length or with a bad entry, naming copy and agent', () => {
    const v = new MpeVectorEnv('simple_spread_v3', 2);
    expect(() => v.step(new Int32Array(6))).toThrow(/before reset/);
    v.reset(0);
    expect(() => v.step(new Int32Array(5))).toThrow(/expected 2 copies × 3 numbers = 6 actions \(per copy agent_0: 1, agent_1: 1, agent_2: 1\), got 5/);
    expect(() => v.step(Int32Array.from([0, 0, 0, 0, 7, 0]))).toThrow(/copy 1, action of agent "agent_1" must be an integer in \[0, 4\], got 7/);
    expect(() => v.render(2)).toThrow(/out of range/);
    expect(v.render(1).entities.length).toBe(6);
  });
});
