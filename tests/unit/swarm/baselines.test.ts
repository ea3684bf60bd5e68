import { describe, expect, it } from 'vitest';
import { DecompositionSim } from '../../../src/envs/swarm/decomposition';
import { DEFAULT_SKILL_TABLE, skillTable } from '../../../src/envs/swarm/decompositionSkills';
import { decompositionTaskFrom, generateDecomposition } from '../../../src/envs/swarm/decompositionTask';
import { BASELINES, untrainedBaseline, assignAllBaseline, greedyBaseline, mostReliableKind, packerBaseline, plannerBaseline, serialBaseline } from '../../../src/swarm/baselines';
import { fixedSim } from '../envs/swarm/decompositionHelpers';

const rules = { toolLatencyMean: 1, confidenceNoise: 0, criticalBudget: 300, contextBudget: 300 };

describe('scripted baselines', () => {
  it('serial does every subtask itself, chains in order, and nothing else', () => {
    const sim = fixedSim([{ kind: 'search', size: 2 }, { kind: 'lookup', size: 1, after: 0 }, { kind: 'reason', size: 3 }]);
    const o = serialBaseline(sim);
    expect(o.nSubagents).toBe(0);
    expect(o.nDirect).toBe(3);
    // (2 + 1 + 3) units · 3 steps + finish
    expect(o.criticalSteps).toBe(6 * 3 + 1);
    expect(o.criticalSteps - 1).toBe(o.serialBaseline);
    expect(o.rPerf).toBe(1);
  });

  it('assign-all gives each open subtask its own subagent of the default kind, one stage per chain link', () => {
    const sim = fixedSim([{ kind: 'search', size: 2 }, { kind: 'lookup', size: 1, after: 0 }, { kind: 'reason', size: 3 }]);
    const o = assignAllBaseline(sim);
    const launches = o.stages.filter((s) => s.kind === 'launch');
    expect(launches.map((s) => s.subagents.map((x) => x.items))).toEqual([[[0], [2]], [[1]]]);
    expect(launches.flatMap((s) => s.subagents.map((x) => x.kind))).toEqual(['good', 'good', 'good']);
    // stage 1: 1 + (2 + 3·3); stage 2: 1 + (2 + 1·3); finish 1
    expect(o.criticalSteps).toBe(12 + 6 + 1);
  });

  it('greedy routes each kind to its most reliable subagent kind, batches small subtasks in fours and sends big ones alone', () => {
    const specs = [
      ...Array.from({ length: 5 }, () => ({ kind: 'lookup' as const, size: 1 })),
      { kind: 'search' as const, size: 6 },
      { kind: 'reason' as const, size: 5 },
    ];
    const sim = new DecompositionSim(decompositionTaskFrom(specs, 1), { limits: rules });
    expect(mostReliableKind(sim, 0)).toBe('large'); // lookup: 0.98 > 0.95 (small) > 0.9 (searcher)
    expect(mostReliableKind(sim, 5)).toBe('searcher'); // search: 0.98
    expect(mostReliableKind(sim, 6)).toBe('large'); // reason: 0.92
    const o = greedyBaseline()(sim);
    const first = o.stages[0];
    expect(first.kind).toBe('launch');
    expect(first.subagents.map((s) => [s.kind, s.items])).toEqual([
      ['searcher', [5]],
      ['large', [6]],
      ['large', [0, 1, 2, 3]],
      ['large', [4]],
    ]);
  });

  it('greedy checks claims below its confidence threshold and retries the refuted ones', () => {
    // a poorly calibrated kind always says 0.5 (κ = 0, b = 0.5): every claim is checked
    const p = { success: 1, think: 1, calibration: 0 };
    const skills = skillTable({ orchestrator: DEFAULT_SKILL_TABLE.orchestrator, vague: { lookup: p, search: p, reason: p } });
    const sim = new DecompositionSim(decompositionTaskFrom([{ kind: 'lookup', size: 2 }, { kind: 'search', size: 3 }], 1), {
      skills,
      subagentKinds: ['vague'],
      limits: { ...rules, confidenceBase: 0.5 },
    });
    const o = greedyBaseline()(sim);
    expect(o.nChecks).toBe(2);
    expect(o.nChecksWrong).toBe(0);
    expect(o.rPerf).toBe(1);
  });

  it('greedy launches only the results the context left can read back', () => {
    // four big subtasks of size 5: each result costs 2 + 5 = 7; 20 − reserve 4 = 16 fits two per stage
    const specs = Array.from({ length: 4 }, () => ({ kind: 'reason' as const, size: 5 }));
    const sim = new DecompositionSim(decompositionTaskFrom(specs, 1), { limits: { ...rules, contextBudget: 20 } });
    const o = greedyBaseline()(sim);
    const launches = o.stages.filter((s) => s.kind === 'launch');
    expect(launches[0].subagents.length).toBe(2);
    expect(o.nLost).toBe(0);
    expect(o.contextUsed).toBeLessThanOrEqual(20);
  });

  it('planner packs small subtasks into the stage makespan and hedges hard ones with a second kind', () => {
    const specs = [
      { kind: 'search' as const, size: 8 },
      ...Array.from({ length: 6 }, () => ({ kind: 'lookup' as const, size: 1 })),
      { kind: 'reason' as const, size: 2, difficulty: 1 },
    ];
    const sim = new DecompositionSim(decompositionTaskFrom(specs, 1), { limits: rules });
    const o = plannerBaseline()(sim);
    const first = o.stages[0];
    // makespan: searcher on size 8 = 2 + 8·(1 + 1) = 18; the six lookups (3 steps each) share subagents
    const lookupSubagents = first.subagents.filter((s) => s.items.some((id) => id >= 1 && id <= 6));
    expect(lookupSubagents.length).toBeLessThan(6);
    // reason at difficulty 1: large 0.92^3 ≈ 0.78 < 0.8, so a second kind also gets it in the same stage
    expect(first.subagents.filter((s) => s.items.includes(7)).length).toBe(2);
  });

  it('packer spends time to save context: where the planner gives each small subtask its own result, it reads them all back in one', () => {
    // 12 lookups of size 1; context 22 − reserve 4 = 18. One result per subtask costs 2 + 1 = 3 (six fit);
    // one subagent with all twelve costs 2 + 12 = 14 and takes 2 + 12·3 = 38 steps (≤ 0.75 · 64).
    const specs = Array.from({ length: 12 }, () => ({ kind: 'lookup' as const, size: 1 }));
    const make = () => new DecompositionSim(decompositionTaskFrom(specs, 1), { limits: { ...rules, contextBudget: 22 } });
    const planner = plannerBaseline()(make());
    const packer = packerBaseline()(make());
    expect(planner.submitted).toBeLessThan(12);
    expect(packer.submitted).toBe(12);
    const launches = packer.stages.filter((s) => s.kind === 'launch');
    expect(launches[0].subagents.map((s) => s.items.length)).toEqual([12]);
    // what follows is only the retry of a claim a check found wrong
    for (const l of launches.slice(1)) for (const s of l.subagents) for (const id of s.items) expect(packer.stages.some((c) => c.kind === 'check' && c.subtask === id && c.result === 'wrong')).toBe(true);
    expect(packer.contextUsed).toBeLessThanOrEqual(22);
    expect(packer.rPerf).toBeGreaterThan(planner.rPerf);
  });

  it('packer splits the steps left over the longest chain: chain heads first, stage makespan 0.8 · (steps left − 1) / links left', () => {
    // 0 → 1 → 2 is a chain of lookups; 3..8 stand alone (size 1, 3 steps each on 'large'); 9 is a reason of size 5 (17 steps).
    const specs = [
      { kind: 'lookup' as const, size: 1 },
      { kind: 'lookup' as const, size: 1, after: 0 },
      { kind: 'lookup' as const, size: 1, after: 1 },
      ...Array.from({ length: 6 }, () => ({ kind: 'lookup' as const, size: 1 })),
      { kind: 'reason' as const, size: 5 },
    ];
    const sim = new DecompositionSim(decompositionTaskFrom(specs, 1), { limits: { ...rules, criticalBudget: 61 } });
    const o = packerBaseline()(sim);
    const launches = o.stages.filter((s) => s.kind === 'launch');
    const makespan = (0.8 * (61 - 1 - 1)) / 3;
    const first = launches[0].subagents;
    expect(first[0].items[0]).toBe(0);
    for (const s of first) expect(s.steps).toBeLessThanOrEqual(makespan);
    // the reason does not fit in the first stage's makespan (17 > 15.7); it runs once the chain has fewer links left
    expect(first.some((s) => s.items.includes(9))).toBe(false);
    expect(launches.slice(1).some((l) => l.subagents.some((s) => s.items.includes(9)))).toBe(true);
    // no second opinions: a stage hands each subtask out once
    for (const l of launches) {
      const handed = l.subagents.flatMap((s) => s.items);
      expect(new Set(handed).size).toBe(handed.length);
    }
    expect(o.submitted).toBe(10);
  });

  it('run on the same generated tasks, the baselines keep their order of speed: the parallel ones take under a third of the serial baseline and score higher', () => {
    for (const seed of [1, 2]) {
      const out = Object.fromEntries(BASELINES.map((b) => [b.name, b.run(new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, seed)))]));
      const serial = out.serial;
      expect(serial.nSubagents).toBe(0);
      for (const name of ['assign-all (default kind)', 'greedy', 'planner (smarter hand policy)', 'packer (fuller subagents, no second opinions)']) {
        expect(out[name].criticalSteps).toBeLessThan(serial.serialBaseline / 3);
        expect(out[name].rPerf).toBeGreaterThan(serial.rPerf);
        expect(out[name].criticalSteps).toBeLessThanOrEqual(out[name].criticalBudget);
      }
    }
  });

  it('untrained plays the untrained policy’s law: only legal actions, the same episode for the same task, and both working alone and delegating', () => {
    const sim = () => new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, 8));
    const a = untrainedBaseline(160)(sim());
    const b = untrainedBaseline(160)(sim());
    expect(b).toEqual(a);
    expect(a.nDirect).toBeGreaterThan(0);
    expect(a.nSubagents).toBeGreaterThan(0);
    expect(a.nChecks).toBeGreaterThan(0);
    // Another task, another stream: not a replay of the first.
    const c = untrainedBaseline(160)(new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, 7)));
    expect(c.stages.map((s) => s.kind)).not.toEqual(a.stages.map((s) => s.kind));
    // The decision cap holds: with one decision, at most one subagent is planned, launched and the episode finished.
    const capped = untrainedBaseline(1)(sim());
    expect(capped.nSubagents + capped.nDirect + capped.nChecks).toBeLessThanOrEqual(1);
    expect(capped.endReason === 'finish' || capped.endReason === 'budget').toBe(true);
  });
});
