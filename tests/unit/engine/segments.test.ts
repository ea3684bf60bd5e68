import { describe, expect, it } from 'vitest';
import { concatSegments, validateEpisodeBatch, validateSegment, type EpisodeBatch, type Segment } from '../../../src/engine/segments';
import { segmentTransitions } from '../../../src/engine/loops/dqn';

function seg(actorIndex: number, T: number, n: number, d: number, base: number): Segment {
  const B = T * n;
  return {
    actorIndex,
    policyVersion: actorIndex,
    T,
    numEnvs: n,
    obsDim: d,
    obs: Float32Array.from({ length: B * d }, (_, i) => base + i),
    actions: Int32Array.from({ length: B }, (_, i) => i % 2),
    logProbs: new Float32Array(B).fill(-0.5),
    rewards: Float32Array.from({ length: B }, (_, i) => base + i),
    dones: new Uint8Array(B),
    truncated: new Uint8Array(B),
    finalIndex: new Int32Array(0),
    finalObs: new Float32Array(0),
    lastObs: Float32Array.from({ length: n * d }, (_, i) => -(base + i)),
    episodeReturns: Float32Array.of(base),
    episodeLengths: Int32Array.of(1),
    seconds: 0.1,
  };
}

describe('segments', () => {
  it('joins actors side by side along the env axis, time-major', () => {
    const a = seg(0, 2, 1, 1, 0); // rewards [0, 1] for t = 0, 1
    const b = seg(1, 2, 2, 1, 100); // rewards [100, 101 | 102, 103] for (t, n)
    b.dones[3] = 1;
    b.finalIndex = Int32Array.of(3);
    b.finalObs = Float32Array.of(42);
    const j = concatSegments([a, b]);
    expect(j.numEnvs).toBe(3);
    expect(Array.from(j.rewards)).toEqual([0, 100, 101, 1, 102, 103]);
    expect(Array.from(j.dones)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(Array.from(j.finalIndex)).toEqual([5]); // t = 1, env 1 + 2 = 5
    expect(Array.from(j.lastObs)).toEqual([-0, -100, -101]);
    expect(j.policyVersion).toBe(0);
    expect(validateSegment(j, 1, 2)).toBeNull();
  });

  it('rejects malformed segments with a reason', () => {
    const good = seg(0, 3, 2, 4, 0);
    expect(validateSegment(good, 4, 2)).toBeNull();
    expect(validateSegment({ ...good, actions: good.actions.subarray(1) }, 4, 2)).toMatch(/actions has 5 values, expected 6/);
    const nan = seg(0, 3, 2, 4, 0);
    nan.rewards[2] = Number.NaN;
    expect(validateSegment(nan, 4, 2)).toMatch(/rewards\[2\] is not finite/);
    expect(validateSegment(good, 5, 2)).toMatch(/obsDim 4, expected 5/);
    const badAction = seg(0, 3, 2, 4, 0);
    badAction.actions[1] = 7;
    expect(validateSegment(badAction, 4, 2)).toMatch(/actions\[1\] = 7 is out of range/);
  });

  it('turns a segment into DQN transitions with the real final observation at episode ends', () => {
    const s = seg(0, 2, 1, 1, 0); // obs [0, 1], lastObs [-0]
    s.dones[0] = 1;
    s.finalIndex = Int32Array.of(0);
    s.finalObs = Float32Array.of(9);
    const tr = segmentTransitions(s);
    expect(Array.from(tr.nextObs)).toEqual([9, -0]);
    expect(Array.from(tr.dones)).toEqual([1, 0]);
  });

  // Issue 15, item 3: sizes were checked, kinds and values were not.
  it('refuses fields of the wrong kind, naming the field', () => {
    const good = seg(0, 3, 2, 4, 0);
    const plain = { ...good, obs: Array.from(good.obs) } as unknown as Segment;
    expect(validateSegment(plain, 4, 2)).toBe('obs must be a Float32Array, got a plain Array');
    expect(validateSegment({ ...good, actions: Float32Array.from(good.actions) } as unknown as Segment, 4, 2)).toBe('actions must be an Int32Array, got a Float32Array');
    expect(validateSegment({ ...good, dones: Int32Array.from(good.dones) } as unknown as Segment, 4, 2)).toBe('dones must be a Uint8Array, got an Int32Array');
    expect(validateSegment({ ...good, episodeReturns: [1] } as unknown as Segment, 4, 2)).toBe('episodeReturns must be a Float32Array, got a plain Array');
    expect(validateSegment({ ...good, finalIndex: undefined } as unknown as Segment, 4, 2)).toBe('finalIndex must be an Int32Array, got undefined');
    expect(validateSegment({ ...good, T: 1.5, numEnvs: 4 }, 4, 2)).toMatch(/^T and numEnvs must be positive integers/);
  });

  it('refuses non-finite returns and impossible lengths, so they never reach the mean return', () => {
    const good = seg(0, 3, 2, 4, 0);
    expect(validateSegment({ ...good, episodeReturns: Float32Array.of(Number.NaN, Infinity), episodeLengths: Int32Array.of(1, 1) }, 4, 2)).toBe('episodeReturns[0] is not finite (NaN)');
    expect(validateSegment({ ...good, episodeReturns: Float32Array.of(2, -Infinity), episodeLengths: Int32Array.of(1, 1) }, 4, 2)).toBe('episodeReturns[1] is not finite (-Infinity)');
    expect(validateSegment({ ...good, episodeLengths: Int32Array.of(0) }, 4, 2)).toBe('episodeLengths[0] = 0 is not a positive length');
    expect(validateSegment({ ...good, episodeLengths: Int32Array.of(1, 2) }, 4, 2)).toBe('episodeReturns has 1 values but episodeLengths has 2');
    expect(validateSegment({ ...good, episodeReturns: new Float32Array(7), episodeLengths: new Int32Array(7).fill(1) }, 4, 2)).toBe('7 episodes ended, more than the 6 steps carried');
    const flags = seg(0, 3, 2, 4, 0);
    flags.truncated[4] = 2;
    expect(validateSegment(flags, 4, 2)).toBe('truncated[4] = 2, expected 0 or 1');
    expect(validateSegment({ ...good, policyVersion: -1 }, 4, 2)).toBe('policyVersion must be a non-negative integer, got -1');
  });

  it('checks an episode batch the same way', () => {
    // Two episodes of 2 and 1 steps: dones at steps 1 and 2.
    const batch = (): EpisodeBatch => ({
      actorIndex: 0, policyVersion: 0, steps: 3, obsDim: 1, obs: Float32Array.of(0, 1, 2), actions: Int32Array.of(0, 1, 0), rewards: Float32Array.of(1, 1, 1),
      dones: Uint8Array.of(0, 1, 1), episodeReturns: Float32Array.of(2, 1), episodeLengths: Int32Array.of(2, 1), seconds: 0,
    });
    expect(validateEpisodeBatch(batch(), 1, 2)).toBeNull();
    expect(validateEpisodeBatch({ ...batch(), obs: [0, 1, 2] } as unknown as EpisodeBatch, 1, 2)).toBe('obs must be a Float32Array, got a plain Array');
    expect(validateEpisodeBatch({ ...batch(), episodeReturns: Float32Array.of(Number.NaN, Infinity) }, 1, 2)).toBe('episodeReturns[0] is not finite (NaN)');
    expect(validateEpisodeBatch({ ...batch(), episodeLengths: Int32Array.of(1, 2) }, 1, 2)).toBe('episodeLengths[0] does not end on a done');
    expect(validateEpisodeBatch({ ...batch(), actions: Int32Array.of(0, 2, 0) }, 1, 2)).toBe('actions[1] = 2 is out of range [0, 2)');
  });
});
