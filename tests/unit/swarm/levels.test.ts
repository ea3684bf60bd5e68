import { describe, expect, it } from 'vitest';
import { DecompositionSim } from '../../../src/envs/swarm/decomposition';
import { decompositionTaskFrom, generateDecomposition } from '../../../src/envs/swarm/decompositionTask';
import { BASELINES, packerBaseline } from '../../../src/swarm/baselines';
import { contextCeiling, playLevel, TASK_LEVELS, taskLevel } from '../../../src/swarm/levels';

const SIZES = [8, 1, 2, 1].map((size) => ({ kind: 'lookup' as const, size }));
const ceilingAt = (contextBudget: number) => contextCeiling(new DecompositionSim(decompositionTaskFrom(SIZES), { limits: { contextBudget, criticalBudget: 100 } }));

describe('the context ceiling of a decomposition task', () => {
  it('counts the smallest subtasks whose units and one overhead per 31 units (step cap 64, setup 2) fit, by hand', () => {
    // Sorted sizes 1, 1, 2, 8: two cost 2 + 2 = 4, three 4 + 2 = 6, four 12 + 2 = 14. F1 = 2c / (c + 4).
    expect(ceilingAt(5)).toBeCloseTo(4 / 6, 12);
    expect(ceilingAt(6)).toBeCloseTo(6 / 7, 12);
    expect(ceilingAt(13)).toBeCloseTo(6 / 7, 12);
    expect(ceilingAt(14)).toBe(1);
  });

  it('is never below what a scripted orchestrator scores, at any level (it is an upper bound)', () => {
    for (const level of TASK_LEVELS) {
      for (const seed of [1, 2, 3]) {
        const e = playLevel(level, 24, seed, 0, BASELINES);
        if (e === null) continue;
        for (const r of Object.values(e.rPerf)) expect(r).toBeLessThanOrEqual(e.ceiling + 1e-12);
        expect(e.perEpisodeBest).toBe(Math.max(...Object.values(e.rPerf)));
      }
    }
  });
});

describe('task levels', () => {
  it("play each baseline on the level's rules: the packer's r_perf is that of a direct run on the same task and rules", () => {
    const level = taskLevel('context 0.6');
    const e = playLevel(level, 30, 4, 1, BASELINES);
    const again = playLevel(level, 30, 4, 1, [{ name: 'p', run: packerBaseline() }]);
    if (e === null || again === null) throw new Error('the task should be possible at this level');
    expect(again.rPerf.p).toBe(e.rPerf[BASELINES[4].name]);
    // A tighter context than the default's: the same task at the default level keeps more room.
    const plain = playLevel(taskLevel('default'), 30, 4, 1, BASELINES);
    if (plain === null) throw new Error('the task should be possible at the default level');
    expect(e.ceiling).toBeLessThanOrEqual(plain.ceiling);
    expect(new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, 1), level.rules).limits.contextBudget).toBeLessThan(new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, 1)).limits.contextBudget);
  });

  it('an unknown level is refused, naming the levels', () => {
    expect(() => taskLevel('harder')).toThrow(/no task level named "harder" \(levels: default; budget/);
  });

  it('swarm-baselines --levels prints a row per level and split, and the mixed row; swarm-story refuses an unknown --level', async () => {
    const { swarmBaselinesBenchmark } = await import('../../../bench/swarmBaselines');
    const r = await swarmBaselinesBenchmark.run({ seeds: [], flags: { subtasks: '20', levels: 'true' } });
    const rows = r.table.split('\n').slice(2);
    expect(rows).toHaveLength(2 * (TASK_LEVELS.length + 1));
    const figures = r.figures as Record<string, Record<string, { bestSingleRPerf: number; perEpisodeBest: number; ceiling: number; bar: number; tasks: number }>>;
    expect(figures['held-out 6-15'].default.tasks).toBe(50);
    expect(figures['held-out 6-15'].mixed.tasks).toBe(Object.entries(figures['held-out 6-15']).filter(([k]) => k !== 'mixed').reduce((a, [, f]) => a + f.tasks, 0));
    for (const split of ['seeds 1-5', 'held-out 6-15']) {
      for (const f of Object.values(figures[split])) {
        expect(f.perEpisodeBest).toBeGreaterThanOrEqual(f.bestSingleRPerf);
        expect(f.ceiling).toBeGreaterThanOrEqual(f.perEpisodeBest);
        expect(f.bar).toBeCloseTo(1.1 * f.bestSingleRPerf, 12);
      }
    }
    await expect(swarmBaselinesBenchmark.run({ seeds: [], flags: { levels: 'yes' } })).rejects.toThrow(/--levels: expected true or false/);
    const { runSwarmStory } = await import('../../../bench/swarmStory');
    await expect(runSwarmStory({ seeds: [], flags: { rows: 'none', level: 'harder' } })).rejects.toThrow(/no task level named/);
  });
});
