import { describe, expect, it } from 'vitest';
import { itemMinSteps } from '../../../../src/envs/swarm/itemSearch';
import { WIDE_SEARCH_GRID, generateWideSearch, itemF1 } from '../../../../src/envs/swarm/wideSearch';

describe('itemF1', () => {
  const answers = [5, 6, 7, 8];

  it('scores hand cases', () => {
    // 1 correct of 2 reported, K = 4: P = 1/2, R = 1/4, F1 = 2 (1/2)(1/4) / (3/4) = 1/3
    const r = itemF1(new Map([[0, 5], [1, 0]]), answers);
    expect(r).toMatchObject({ correct: 1, reported: 2, total: 4, precision: 0.5, recall: 0.25 });
    expect(r.f1).toBeCloseTo(1 / 3, 12);
    // everything right: P = R = F1 = 1
    expect(itemF1(new Map([[0, 5], [1, 6], [2, 7], [3, 8]]), answers).f1).toBe(1);
    // 2 right out of 2 reported: P = 1, R = 1/2, F1 = 2 (1)(1/2) / (3/2) = 2/3
    expect(itemF1(new Map([[2, 7], [3, 8]]), answers).f1).toBeCloseTo(2 / 3, 12);
    // all reported, all wrong: P = R = 0 -> F1 = 0
    expect(itemF1(new Map([[0, 0], [1, 0], [2, 0], [3, 0]]), answers).f1).toBe(0);
  });

  it('is 0 when nothing is reported and rejects unknown ids', () => {
    expect(itemF1(new Map(), answers)).toMatchObject({ precision: 0, recall: 0, f1: 0 });
    expect(() => itemF1(new Map([[4, 1]]), answers)).toThrow(/item 4/);
  });
});

describe('generateWideSearch', () => {
  it('rejects K outside 1..100 with a clear message', () => {
    for (const k of [0, -3, 101, 2.5, NaN]) {
      expect(() => generateWideSearch({ numItems: k }, 0)).toThrow(/numItems must be an integer in 1\.\.100/);
    }
    expect(() => generateWideSearch({ numItems: 3, gridSize: 17 }, 0)).toThrow(/gridSize/);
    expect(generateWideSearch({ numItems: 1 }, 0).subtasks.length).toBe(1);
    expect(generateWideSearch({ numItems: 100 }, 0).subtasks.length).toBe(100);
  });

  it('gives the same task for the same seed, another for another seed', () => {
    const a = generateWideSearch({ numItems: 20, difficulty: 'hard' }, 9);
    const b = generateWideSearch({ numItems: 20, difficulty: 'hard' }, 9);
    const c = generateWideSearch({ numItems: 20, difficulty: 'hard' }, 10);
    expect(b.subtasks).toEqual(a.subtasks);
    expect(c.subtasks).not.toEqual(a.subtasks);
  });

  it('sets grid size by difficulty and the baselines from the items', () => {
    const t = generateWideSearch({ numItems: 12, difficulty: 'easy' }, 1);
    expect(t.gridSize).toBe(WIDE_SEARCH_GRID.easy);
    expect(generateWideSearch({ numItems: 2, difficulty: 'easy', gridSize: 7 }, 1).gridSize).toBe(7);
    const steps = t.subtasks.map((s) => itemMinSteps(s.problem));
    expect(t.subtasks.map((s) => s.minSteps)).toEqual(steps);
    expect(t.serialBaseline).toBe(steps.reduce((a, b) => a + b, 0));
    expect(t.lowerBound).toBe(Math.max(...steps));
    expect(t.subtasks.every((s) => s.deps.length === 0)).toBe(true);
    // performance = item-F1 of the report
    const perfect = new Map(t.answers.map((a, i) => [i, a] as [number, number]));
    expect(t.performance(perfect)).toBe(1);
  });
});
