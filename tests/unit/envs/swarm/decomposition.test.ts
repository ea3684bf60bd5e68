import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/core/rng';
import { DecompositionSim } from '../../../../src/envs/swarm/decomposition';
import { DEFAULT_SKILLS, drawConfidence, drawToolLatency, skillTable } from '../../../../src/envs/swarm/decompositionSkills';
import { decompositionTaskFrom, generateDecomposition } from '../../../../src/envs/swarm/decompositionTask';
import { FIXED_TABLE, fixedSim } from './decompositionHelpers';

describe('decomposition: latency and confidence draws', () => {
  it('draws geometric tool latencies with mean μ, P(1) = 1/μ, never below 1, the same for the same seed', () => {
    const rng = new Rng(11);
    const n = 20000;
    const xs = Array.from({ length: n }, () => drawToolLatency(rng, 2));
    const mean = xs.reduce((a, b) => a + b, 0) / n;
    // mean μ = 2, variance μ(μ − 1) = 2: the sample mean's sd is sqrt(2 / 20000) = 0.01
    expect(Math.abs(mean - 2)).toBeLessThan(0.05);
    expect(Math.min(...xs)).toBe(1);
    expect(Math.abs(xs.filter((x) => x === 1).length / n - 0.5)).toBeLessThan(0.02);
    const again = new Rng(11);
    expect(Array.from({ length: 50 }, () => drawToolLatency(again, 2))).toEqual(xs.slice(0, 50));
    expect(drawToolLatency(new Rng(1), 1)).toBe(1);
    expect(() => drawToolLatency(new Rng(1), 0.5)).toThrow(/>= 1/);
  });

  it('reports confidence b + κ(c − b) (+ noise), clipped to [0, 1]', () => {
    const rng = new Rng(2);
    expect(drawConfidence(rng, true, 1, 0.8, 0)).toBe(1);
    expect(drawConfidence(rng, false, 1, 0.8, 0)).toBe(0);
    expect(drawConfidence(rng, false, 0, 0.8, 0)).toBeCloseTo(0.8, 12);
    expect(drawConfidence(rng, false, 0.5, 0.8, 0)).toBeCloseTo(0.4, 12); // 0.8 + 0.5 (0 − 0.8)
  });

  it('lowers success with difficulty: p^(1 + 2d)', () => {
    const p = DEFAULT_SKILLS.distribution('small', { kind: 'reason', size: 1, difficulty: 1 }).pCorrect;
    expect(p).toBeCloseTo(0.5 ** 3, 12);
  });
});

describe('decomposition: the task', () => {
  it('generates the same task for the same seed, with well-formed chains and mixed sizes', () => {
    const a = generateDecomposition({ numSubtasks: 60 }, 4);
    expect(generateDecomposition({ numSubtasks: 60 }, 4).subtasks).toEqual(a.subtasks);
    expect(generateDecomposition({ numSubtasks: 60 }, 5).subtasks).not.toEqual(a.subtasks);
    for (const chain of a.chains) {
      expect(chain.length).toBeGreaterThanOrEqual(2);
      chain.forEach((id, j) => {
        expect(a.subtasks[id].position).toBe(j);
        expect(a.subtasks[id].after).toBe(j === 0 ? null : chain[j - 1]);
      });
    }
    const chained = a.subtasks.filter((s) => s.chain !== null).length;
    // round(0.3 · 60) = 18 cut into chains of 2..3; a last single one cannot form a chain
    expect(chained === 17 || chained === 18).toBe(true);
    expect(a.subtasks.some((s) => s.size === 1)).toBe(true);
    expect(a.subtasks.some((s) => s.size >= 5)).toBe(true);
    expect(new Set(a.subtasks.map((s) => s.kind)).size).toBe(3);
  });

  it('rejects chains that branch and links to later subtasks', () => {
    expect(() => decompositionTaskFrom([{ kind: 'lookup', size: 1 }, { kind: 'lookup', size: 1, after: 0 }, { kind: 'lookup', size: 1, after: 0 }])).toThrow(/do not branch/);
    expect(() => decompositionTaskFrom([{ kind: 'lookup', size: 1, after: 1 }, { kind: 'lookup', size: 1 }])).toThrow(/earlier subtask/);
  });
});

describe('decomposition: bad input', () => {
  const task = decompositionTaskFrom([{ kind: 'search', size: 10 }, { kind: 'lookup', size: 2, after: 0 }]);
  it('rejects a critical budget below the lower bound, naming both', () => {
    // fastest think is 1 (small, searcher): chain 10·(1+1) + 2·(1+1) = 24, so a budget of 24 leaves 23 < 24
    expect(() => new DecompositionSim(task, { limits: { criticalBudget: 24 } })).toThrow(/criticalBudget 24 .*lower bound 24/);
    expect(new DecompositionSim(task, { limits: { criticalBudget: 25 } }).lowerBound).toBe(24);
  });
  it('rejects an unknown subagent kind and a default kind outside the list', () => {
    expect(() => new DecompositionSim(task, { subagentKinds: ['large', 'wizard'] })).toThrow(/unknown subagent kind 'wizard'/);
    expect(() => new DecompositionSim(task, { subagentKinds: ['large'], defaultKind: 'small' })).toThrow(/default kind 'small'/);
    expect(() => skillTable({ large: FIXED_TABLE.good })).toThrow(/orchestrator/);
  });
});

describe('decomposition: rules', () => {
  it('adds a stage of subagents as launch steps + the slowest subagent, and reads each result into context by size', () => {
    // μ = 1, think 2: a unit takes 3 steps. Subagents: setup 2 + 3·3 = 11 and 2 + 3·1 = 5.
    const sim = fixedSim([{ kind: 'search', size: 3 }, { kind: 'lookup', size: 1 }]);
    sim.createSubagent('good', 0);
    sim.createSubagent('good', 1);
    const rec = sim.launch();
    expect(rec.subagents.map((s) => s.steps)).toEqual([11, 5]);
    expect(rec.mainSteps).toBe(1); // ceil(2 / 8)
    expect(sim.criticalSteps).toBe(1 + 11);
    expect(sim.totalCompute).toBe(1 + 11 + 5);
    // results: overhead 2 + size each: (2 + 3) + (2 + 1)
    expect(sim.contextUsed).toBe(8);
    const o = sim.finish();
    expect(o.criticalSteps).toBe(13);
    expect(o.rPerf).toBe(1);
    expect(o.nCompleted).toBe(2);
  });

  it('charges direct work per step in context and in the orchestrator own (critical) steps', () => {
    const sim = fixedSim([{ kind: 'search', size: 3 }]);
    expect(sim.serialBaseline).toBe(9); // 3 · (2 + 1)
    sim.direct(0);
    expect(sim.criticalSteps).toBe(9);
    expect(sim.contextUsed).toBe(9);
    expect(sim.state(0)).toBe('claimed');
  });

  it('loses a result that does not fit in the context left (read in order of arrival)', () => {
    const sim = fixedSim([{ kind: 'search', size: 3 }, { kind: 'lookup', size: 1 }], { contextBudget: 6 });
    sim.createSubagent('good', 0);
    sim.createSubagent('good', 1);
    const rec = sim.launch();
    // subagent 1 ends first (5 steps) and uses 3 of 6; subagent 0's 5 units do not fit in the 3 left
    expect(rec.subagents[1].outcomes).toEqual(['completed']);
    expect(rec.subagents[0].outcomes).toEqual(['lost']);
    expect(sim.contextUsed).toBe(3);
    const o = sim.finish();
    expect([o.nAssigned, o.nCompleted, o.nLost]).toEqual([2, 1, 1]);
    expect(o.recall).toBe(0.5);
  });

  it('batches items on one subagent: steps add up, one result overhead, items past the step cap time out', () => {
    const specs = [{ kind: 'lookup' as const, size: 1 }, { kind: 'lookup' as const, size: 1 }, { kind: 'lookup' as const, size: 2 }];
    const sim = fixedSim(specs);
    const slot = sim.createSubagent('good', 0);
    sim.addToSubagent(slot, 1);
    sim.addToSubagent(slot, 2);
    expect(() => sim.addToSubagent(slot, 2)).toThrow(/already/);
    const rec = sim.launch();
    expect(rec.subagents[0].steps).toBe(2 + 3 + 3 + 6);
    expect(sim.contextUsed).toBe(2 + 4);
    const capped = fixedSim(specs, { subagentStepCap: 10 });
    const s2 = capped.createSubagent('good', 0);
    capped.addToSubagent(s2, 1);
    capped.addToSubagent(s2, 2);
    const r2 = capped.launch();
    // 2 + 3 = 5, + 3 = 8, + 6 = 14 > 10: the third times out, the subagent returns at the cap
    expect(r2.subagents[0].outcomes).toEqual(['completed', 'completed', 'timeout']);
    expect(r2.subagents[0].steps).toBe(10);
    expect(capped.state(2)).toBe('open');
  });

  it('never lets critical steps pass the hard budget: a stage that would is cut and the episode ends', () => {
    // one subagent needs 2 + 10·3 = 32 steps (lower bound 30); budget 31 leaves 30 before finish, 29 after the launch step
    const sim = fixedSim([{ kind: 'search', size: 10 }], { criticalBudget: 31 });
    sim.createSubagent('good', 0);
    sim.launch();
    expect(sim.finished).toBe(true);
    const o = sim.outcome();
    expect(o.endReason).toBe('budget');
    expect(o.criticalSteps).toBe(31);
    expect(o.totalCompute).toBe(1 + 29 + 1);
    expect(o.nCut).toBe(1);
    expect(o.rPerf).toBe(0);
    expect(() => sim.direct(0)).toThrow(/ended/);
  });

  it('runs chains in order: a link is blocked until its predecessor has a claim, and a wrong input spoils it', () => {
    const sim = fixedSim([{ kind: 'search', size: 2 }, { kind: 'lookup', size: 1, after: 0 }]);
    expect(sim.state(1)).toBe('blocked');
    expect(sim.candidates()).toEqual([0]);
    expect(() => sim.createSubagent('good', 1)).toThrow(/blocked/);
    sim.createSubagent('bad', 0);
    expect(() => sim.createSubagent('good', 1)).toThrow(/blocked/); // in the same plan: still no claim
    sim.launch();
    expect(sim.state(1)).toBe('open');
    sim.createSubagent('good', 1);
    sim.launch();
    // 'good' always succeeds, but its input came from a wrong claim
    expect(sim.state(1)).toBe('claimed');
    expect(sim.check(1)).toBe(false);
    expect(sim.check(0)).toBe(false);
    // the refuted input leaves the chain without a current claim: the link is blocked again
    expect(sim.state(0)).toBe('open');
    expect(sim.state(1)).toBe('blocked');
  });

  it('checks cost the orchestrator base + ceil(0.5 · size) steps and one context unit, and verify a right claim', () => {
    const sim = fixedSim([{ kind: 'reason', size: 5 }]);
    sim.createSubagent('good', 0);
    sim.launch();
    const before = { c: sim.criticalSteps, x: sim.contextUsed };
    expect(sim.check(0)).toBe(true);
    expect(sim.criticalSteps - before.c).toBe(1 + 3);
    expect(sim.contextUsed - before.x).toBe(1);
    expect(sim.state(0)).toBe('verified');
    expect(sim.whyNotCheck(0)).toMatch(/no unchecked claim/);
    expect(sim.candidates()).toEqual([]);
  });

  it('lets agreement outvote a single claim: a second opinion is a real action', () => {
    const sim = fixedSim([{ kind: 'lookup', size: 1 }]);
    sim.createSubagent('bad', 0);
    sim.createSubagent('good', 0);
    sim.createSubagent('good', 0); // duplicates in the same stage
    sim.launch();
    expect(sim.support(0)).toBe(2);
    expect(sim.finish().rPerf).toBe(1);
  });

  it('gives the same draws to the same attempt whatever else happened (common random numbers)', () => {
    const task = generateDecomposition({ numSubtasks: 10 }, 9);
    const a = new DecompositionSim(task);
    const b = new DecompositionSim(task);
    b.createSubagent('small', 3);
    b.launch();
    a.createSubagent('large', 0);
    b.createSubagent('large', 0);
    expect(b.launch().subagents[0].steps).toBe(a.launch().subagents[0].steps);
    expect({ ...b.currentClaim(0), stage: 0 }).toEqual({ ...a.currentClaim(0), stage: 0 });
  });
});
