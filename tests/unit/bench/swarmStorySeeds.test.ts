import { describe, expect, it } from 'vitest';
import { storySplits } from '../../../bench/swarmStory';

describe('swarm-story --seeds', () => {
  it('runs exactly the seeds it is given, seeds above 15 included', () => {
    expect(storySplits(undefined, '21,22,25')).toEqual([{ name: 'seeds 21,22,25', seeds: [21, 22, 25] }]);
    expect(storySplits(undefined, '3')).toEqual([{ name: 'seeds 3', seeds: [3] }]);
  });

  it('without --seeds runs the split: held-out 6-15 by default', () => {
    expect(storySplits(undefined, undefined)).toEqual([{ name: 'held-out 6-15', seeds: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15] }]);
    expect(storySplits('both', undefined).map((s) => s.name)).toEqual(['seeds 1-5', 'held-out 6-15']);
  });

  it('with --split, keeps the split names and refuses a seed outside the split instead of dropping it', () => {
    expect(storySplits('heldout', '6,7')).toEqual([{ name: 'held-out 6-15', seeds: [6, 7] }]);
    expect(storySplits('both', '2,9')).toEqual([{ name: 'seeds 1-5', seeds: [2] }, { name: 'held-out 6-15', seeds: [9] }]);
    expect(() => storySplits('tuning', '6')).toThrow(/seed 6 is not in --split tuning/);
  });

  it('refuses seeds that are not positive integers, and an unknown split', () => {
    expect(() => storySplits(undefined, '0')).toThrow(/positive integers/);
    expect(() => storySplits(undefined, '1.5')).toThrow(/positive integers/);
    expect(() => storySplits('all', undefined)).toThrow(/--split must be/);
  });
});
