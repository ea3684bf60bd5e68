import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/core/rng';
import {
  ITEM_ACTION,
  ITEM_NUM_ACTIONS,
  ITEM_OBS_DIM,
  ItemSearchEnv,
  itemMinSteps,
  problemForWork,
  randomItemProblem,
  type ItemProblem,
} from '../../../../src/envs/swarm/itemSearch';
import { exploreAction } from '../../../../src/envs/swarm/drivers';

/** Walk x first, then y, then claim (the oracle). */
function solve(env: ItemSearchEnv): { steps: number; reward: number; found: boolean } {
  let steps = 0;
  let reward = 0;
  for (;;) {
    const [x, y] = env.position;
    const [tx, ty] = env.problem.target;
    const a = x < tx ? ITEM_ACTION.RIGHT : x > tx ? ITEM_ACTION.LEFT : y < ty ? ITEM_ACTION.DOWN : y > ty ? ITEM_ACTION.UP : ITEM_ACTION.CLAIM;
    const r = env.step(a);
    steps += 1;
    reward += r.reward;
    if (r.terminated || r.truncated) return { steps, reward, found: r.info.found === true };
  }
}

describe('ItemSearchEnv', () => {
  it('has a small fixed observation and 5 actions', () => {
    const env = new ItemSearchEnv({ gridSize: 9 });
    expect(ITEM_OBS_DIM).toBeLessThanOrEqual(32);
    expect(env.observationSpace.shape).toEqual([ITEM_OBS_DIM]);
    expect(env.actionSpace).toEqual({ kind: 'discrete', n: ITEM_NUM_ACTIONS });
    const { obs } = env.reset({ seed: 3 });
    expect(obs.length).toBe(ITEM_OBS_DIM);
  });

  it('writes the documented observation', () => {
    // 4x4 grid, start at (0, 0), target at (1, 1): the target is down-right in the window.
    const env = new ItemSearchEnv();
    const obs = env.resetToProblem({ gridSize: 4, start: [0, 0], target: [1, 1] });
    const target = Array.from(obs.subarray(0, 9));
    expect(target).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1]);
    // cells: the row above and the column to the left are outside (-1), own cell visited (1)
    expect(Array.from(obs.subarray(9, 18))).toEqual([-1, -1, -1, -1, 1, 0, -1, 0, 0]);
    expect(obs[18]).toBe(0);
    expect(obs[19]).toBe(0);
    expect(obs[20]).toBe(0);
    expect(obs[21]).toBeCloseTo(1 / 16, 6);
    expect(obs[22]).toBeCloseTo(2 / 14, 6);
    const r = env.step(ITEM_ACTION.RIGHT); // now at (1, 0): target straight below
    expect(r.obs[7]).toBe(1);
    expect(r.obs[9 + 3]).toBe(1); // (0, 0) to the left is visited
    expect(r.obs[18]).toBeCloseTo(1 / 3, 6);
    expect(r.obs[20]).toBeCloseTo(1 / 32, 6); // default cap 2 * 4^2 = 32
  });

  it('keeps observations inside the observation space', () => {
    const env = new ItemSearchEnv({ gridSize: 6 });
    const rng = new Rng(1);
    let { obs } = env.reset({ seed: 1 });
    for (let i = 0; i < 300; i++) {
      for (let k = 0; k < ITEM_OBS_DIM; k++) {
        expect(obs[k]).toBeGreaterThanOrEqual(env.observationSpace.low[k]);
        expect(obs[k]).toBeLessThanOrEqual(env.observationSpace.high[k]);
      }
      const r = env.step(rng.int(4));
      obs = r.obs;
      if (r.terminated || r.truncated) obs = env.reset().obs;
    }
  });

  it('is solved by the shortest walk in itemMinSteps steps', () => {
    const rng = new Rng(7);
    const env = new ItemSearchEnv();
    for (let i = 0; i < 50; i++) {
      const p = randomItemProblem(rng, 2 + rng.int(10));
      env.resetToProblem(p);
      const res = solve(env);
      expect(res.found).toBe(true);
      expect(res.steps).toBe(itemMinSteps(p));
      // reward: +1 found, -0.01 per step
      expect(res.reward).toBeCloseTo(1 - 0.01 * res.steps, 9);
    }
  });

  it('ends with a failed claim off the target', () => {
    const env = new ItemSearchEnv();
    env.resetToProblem({ gridSize: 3, start: [0, 0], target: [2, 2] });
    const r = env.step(ITEM_ACTION.CLAIM);
    expect(r.terminated).toBe(true);
    expect(r.info).toEqual({ found: false, claimedCell: 0 });
    expect(r.reward).toBeCloseTo(-1.01, 9);
    expect(() => env.step(0)).toThrow(/after the episode ended/);
  });

  it('stays in place at the border and truncates at the step cap', () => {
    const env = new ItemSearchEnv({ maxEpisodeSteps: 3 });
    env.resetToProblem({ gridSize: 3, start: [0, 0], target: [2, 2] });
    expect(env.step(ITEM_ACTION.UP).truncated).toBe(false);
    expect(env.position).toEqual([0, 0]);
    env.step(ITEM_ACTION.LEFT);
    const r = env.step(ITEM_ACTION.LEFT);
    expect(r.truncated).toBe(true);
    expect(r.terminated).toBe(false);
  });

  it('checks its inputs', () => {
    const env = new ItemSearchEnv();
    expect(() => env.step(0)).toThrow(/before reset/);
    env.reset({ seed: 0 });
    expect(() => env.step(5)).toThrow(/invalid action/);
    expect(() => new ItemSearchEnv({ gridSize: 1 })).toThrow(/gridSize/);
    expect(() => env.resetToProblem({ gridSize: 3, start: [0, 3], target: [0, 0] })).toThrow(/start/);
  });

  it('draws the same problem for the same seed', () => {
    const a = new ItemSearchEnv({ gridSize: 8 });
    const b = new ItemSearchEnv({ gridSize: 8 });
    a.reset({ seed: 42 });
    b.reset({ seed: 42 });
    expect(a.problem).toEqual(b.problem);
    const seen = new Set<string>();
    for (let s = 0; s < 20; s++) {
      a.reset({ seed: s });
      seen.add(JSON.stringify(a.problem));
    }
    expect(seen.size).toBeGreaterThan(10);
  });

  it('makes problems whose fewest steps equal the work length', () => {
    const rng = new Rng(5);
    for (let work = 1; work <= 31; work++) {
      const p: ItemProblem = problemForWork(rng, work);
      expect(itemMinSteps(p)).toBe(work);
    }
    // longer work, larger grid
    expect(problemForWork(rng, 2).gridSize).toBeLessThan(problemForWork(rng, 20).gridSize);
    expect(() => problemForWork(rng, 0)).toThrow(/work/);
    expect(() => problemForWork(rng, 32)).toThrow(/work/);
  });

  it('can be searched from the observation alone (explore baseline)', () => {
    const rng = new Rng(11);
    const env = new ItemSearchEnv({ gridSize: 5 });
    let found = 0;
    for (let ep = 0; ep < 30; ep++) {
      let { obs } = env.reset({ seed: ep });
      for (;;) {
        const r = env.step(exploreAction(obs, 0, rng));
        obs = r.obs;
        if (r.terminated || r.truncated) {
          if (r.info.found === true) found += 1;
          else expect(r.truncated).toBe(true); // it never claims wrongly
          break;
        }
      }
    }
    expect(found).toBeGreaterThan(20);
  });
});
