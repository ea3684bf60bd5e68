import { describe, expect, it } from 'vitest';
import { DecompositionSim } from '../../../../src/envs/swarm/decomposition';
import { expectedChainFloor } from '../../../../src/envs/swarm/decompositionFeatures';
import { decompositionTaskFrom, generateDecomposition } from '../../../../src/envs/swarm/decompositionTask';
import { BASELINES } from '../../../../src/swarm/baselines';
import { FAST, player, simOf } from '../../swarm/swarmFixtures';

// The fixtures' skills: fast think 1, slow think 3, orchestrator think 2; setup 2.
// Subtask 0 (size 4) with 1 (size 2) after it, and 2 (size 1) alone.
const CHAIN = [
  { kind: 'search' as const, size: 4 },
  { kind: 'lookup' as const, size: 2, after: 0 },
  { kind: 'lookup' as const, size: 1 },
];
const chainSim = (toolLatencyMean: number) => {
  const base = simOf({ toolLatencyMean, contextBudget: 100 });
  return new DecompositionSim(decompositionTaskFrom(CHAIN), { skills: base.skills, subagentKinds: base.subagentKinds, limits: { ...base.limits } });
};

describe('the expected-steps floor of a decomposition task', () => {
  it('is 1 + the longest chain of each link at its cheapest way, by hand', () => {
    // μ = 2: link 0: direct 4·(2+2) = 16, delegated 1 + 2 + 4·(1+2) = 15 -> 15; link 1: direct 2·4 = 8,
    // delegated 1 + 2 + 2·3 = 9 -> 8; subtask 2: direct 4, delegated 6 -> 4. Chain 23, alone 4: floor 24.
    expect(expectedChainFloor(chainSim(2))).toBe(24);
    // μ = 1: link 0: min(12, 11) = 11; link 1: min(6, 7) = 6; chain 17: floor 18.
    expect(expectedChainFloor(chainSim(1))).toBe(18);
  });

  it('is reached exactly by the cheapest plan when every latency is 1', () => {
    const sim = chainSim(1);
    const { play } = player(sim);
    play('assignNew', 0, FAST); // 0 and 2 delegated to fast subagents in one stage: 1 + max(2 + 8, 2 + 2) = 11
    play('assignNew', 2, FAST);
    play('launch');
    play('direct', 1); // then 1 by the orchestrator: 6
    play('finish'); // 1
    const o = sim.outcome();
    expect(o.submitted).toBe(3);
    expect(o.criticalSteps).toBe(18);
    expect(o.criticalSteps).toBe(expectedChainFloor(chainSim(1)));
  });

  it('no scripted orchestrator that claims every subtask goes below it when latencies are all 1 (budget and context ample)', () => {
    let claimedAll = 0;
    for (let seed = 1; seed <= 12; seed++) {
      for (const b of BASELINES) {
        const sim = new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, seed), { limits: { toolLatencyMean: 1 }, budgetFraction: 1, contextFraction: 4 });
        const floor = expectedChainFloor(sim);
        expect(floor).toBeGreaterThanOrEqual(sim.lowerBound + 1);
        const o = b.run(sim);
        if (o.submitted < sim.numSubtasks) continue;
        claimedAll += 1;
        expect(o.criticalSteps).toBeGreaterThanOrEqual(floor);
      }
    }
    expect(claimedAll).toBeGreaterThan(12);
  });
});

describe('swarm-baselines prints the floor beside the scripted orchestrators', () => {
  it('has one floor row per split, below serial', async () => {
    const { swarmBaselinesBenchmark } = await import('../../../../bench/swarmBaselines');
    const { FLOOR_ROW } = await import('../../../../bench/swarmStory');
    const r = await swarmBaselinesBenchmark.run({ seeds: [], flags: { subtasks: '12' } });
    expect(r.table.split('\n').filter((line) => line.includes(FLOOR_ROW))).toHaveLength(2);
    const figures = r.figures as Record<string, { floor: { criticalOverSerial: number }; serial: { criticalOverSerial: number } }>;
    for (const split of ['seeds 1-5', 'held-out 6-15']) {
      const f = figures[split];
      expect(f.floor.criticalOverSerial).toBeGreaterThan(0);
      expect(f.floor.criticalOverSerial).toBeLessThan(f.serial.criticalOverSerial);
    }
  });
});

describe('swarm-story --rows none', () => {
  it('trains no policy and prints the baselines and the floor on the evaluation tasks', async () => {
    const { runSwarmStory, FLOOR_ROW } = await import('../../../../bench/swarmStory');
    const r = await runSwarmStory({ seeds: [], flags: { rows: 'none', split: 'tuning', seeds: '1,2', eval: '2', subtasks: '10', detail: 'true' } });
    const [main, detail] = r.table.split('\n\nWhere r_perf goes');
    const lines = main.split('\n').slice(2);
    expect(lines.map((l) => l.split('|')[2].trim())).toEqual(['baseline: serial', 'baseline: assign-all (default kind)', 'baseline: greedy', 'baseline: planner (smarter hand policy)', 'baseline: packer (fuller subagents, no second opinions)', 'baseline: fixed-table packer (routes by the prior means)', 'baseline: untrained (a legal type, then a legal action, at random)', FLOOR_ROW]);
    const floors = (r.figures as Record<string, Array<{ criticalOverSerial: number }>>)['seeds 1-5 floor'];
    expect(floors).toHaveLength(2);
    for (const f of floors) expect(f.criticalOverSerial).toBeGreaterThan(0);
    // --detail: one line per scripted row; serial hands out nothing and claims a share of the subtasks.
    const detailLines = detail.split('\n').filter((l) => l.startsWith('| seeds 1-5'));
    expect(detailLines).toHaveLength(BASELINES.length);
    const serial = detailLines[0].split('|').map((c) => c.trim());
    expect(serial[2]).toBe('baseline: serial');
    expect(Number(serial[6])).toBeGreaterThan(0); // claims submitted
    expect(Number(serial[7])).toBe(0); // subtasks assigned
    await expect(runSwarmStory({ seeds: [], flags: { rows: 'none', detail: 'yes' } })).rejects.toThrow('--detail must be true or false, got yes');
  });
});
