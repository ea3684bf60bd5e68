import { describe, expect, it } from 'vitest';
import { DecompositionSim, type DecompositionLimits } from '../../../src/envs/swarm/decomposition';
import { observeDecomposition } from '../../../src/envs/swarm/decompositionFeatures';
import { skillTable } from '../../../src/envs/swarm/decompositionSkills';
import { decompositionTaskFrom } from '../../../src/envs/swarm/decompositionTask';
import { SP_MASK_OFFSET, SP_MAX_KINDS, SP_OBS_DIM, SP_SEGMENTS, encodeSetObservation } from '../../../src/swarm/setActions';
import { CERTAIN_SKILLS as table, FAST, SLOW, SUBTASKS } from './swarmFixtures';

// Tool latency μ = 1: every tool call takes exactly one step, so a run of kind k on a subtask of
// size n takes exactly n·(think_k + 1) steps, and the bounds of the mask are met with equality.
const BASE: Partial<DecompositionLimits> = { toolLatencyMean: 1, setupSteps: 2, subagentStepCap: 64, resultOverhead: 2, contextPerResultUnit: 1, contextPerDirectStep: 1 };

function simOf(limits: Partial<DecompositionLimits>, specs = SUBTASKS): DecompositionSim {
  return new DecompositionSim(decompositionTaskFrom(specs), { skills: skillTable(table), subagentKinds: ['fast', 'slow'], limits: { ...BASE, ...limits } });
}

function masks(sim: DecompositionSim) {
  const obs = new Float32Array(SP_OBS_DIM);
  const ids = encodeSetObservation(sim, obs, 0);
  const at = (type: keyof typeof SP_SEGMENTS, j: number) => obs[SP_MASK_OFFSET + SP_SEGMENTS[type].offset + j];
  const row = (id: number) => ids.indexOf(id);
  return {
    assignNew: (id: number, k: number) => at('assignNew', row(id) * SP_MAX_KINDS + k),
    join: (id: number, k: number) => at('join', row(id) * SP_MAX_KINDS + k),
    direct: (id: number) => at('direct', row(id)),
    finish: () => at('finish', 0),
  };
}

describe('set policy mask: no assignment whose item certainly cannot be read back', () => {
  it('a result that alone exceeds the context left is masked; the sim would take it and lose it', () => {
    // Context 5: a result costs 2 + size, so subtask 0 (6) can never be read, subtask 1 (4) can.
    const sim = simOf({ criticalBudget: 100, contextBudget: 5 });
    const m = masks(sim);
    const env = observeDecomposition(sim);
    expect(env.assignNew[0 * 2 + FAST]).toBe(1); // the rules allow it
    expect(m.assignNew(0, FAST)).toBe(0);
    expect(m.assignNew(0, SLOW)).toBe(0);
    expect(m.assignNew(1, FAST)).toBe(1);
    // Played anyway, the result is lost: 2 + 8 = 10 steps fit, 6 units of context do not.
    const played = simOf({ criticalBudget: 100, contextBudget: 5 });
    played.createSubagent('fast', 0);
    played.launch();
    expect(played.finish()).toMatchObject({ nLost: 1, nCompleted: 0, submitted: 0 });
  });

  it('joining is masked when the subagent’s whole result would no longer fit (the new item would never be read)', () => {
    const sim = simOf({ criticalBudget: 100, contextBudget: 5 });
    sim.createSubagent('fast', 1); // result 2 + 2 = 4
    const m = masks(sim);
    expect(m.join(2, FAST)).toBe(1); // 2 + 2 + 1 = 5 <= 5
    expect(m.join(0, FAST)).toBe(0); // 2 + 2 + 4 = 8 > 5
    expect(m.join(2, SLOW)).toBe(0); // no 'slow' subagent planned
  });

  it('an item that would certainly be cut by the hard budget or time out is masked, at the exact bound', () => {
    // criticalBudget 11: 10 steps before finish, 1 main step to launch one subagent, room 9.
    // fast on subtask 0 needs 2 + 8 = 10 > 9; fast on subtask 1 needs 2 + 4 = 6; slow on 1: 2 + 8 = 10.
    const tight = masks(simOf({ criticalBudget: 11, contextBudget: 100 }));
    expect(tight.assignNew(0, FAST)).toBe(0);
    expect(tight.assignNew(1, FAST)).toBe(1);
    expect(tight.assignNew(1, SLOW)).toBe(0);
    const cut = simOf({ criticalBudget: 11, contextBudget: 100 });
    cut.createSubagent('fast', 0);
    cut.launch();
    expect(cut.finished).toBe(true);
    expect(cut.outcome()).toMatchObject({ nCut: 1, submitted: 0, endReason: 'budget' });
    // criticalBudget 12: room 10 = 2 + 8, so fast on subtask 0 is allowed, and it does come back.
    expect(masks(simOf({ criticalBudget: 12, contextBudget: 100 })).assignNew(0, FAST)).toBe(1);
    const fits = simOf({ criticalBudget: 12, contextBudget: 100 });
    fits.createSubagent('fast', 0);
    fits.launch();
    expect(fits.finish()).toMatchObject({ nCompleted: 1, submitted: 1 });
    // Step cap 9 < 2 + 8: the item would time out whatever the budget.
    expect(masks(simOf({ criticalBudget: 100, contextBudget: 100, subagentStepCap: 9 })).assignNew(0, FAST)).toBe(0);
    // Joining adds the items' steps: with fast on subtask 1 planned (2 + 4), subtask 2 (2 more) fits
    // room 9, subtask 0 (8 more: 14) does not.
    const joined = simOf({ criticalBudget: 11, contextBudget: 100 });
    joined.createSubagent('fast', 1);
    const mj = masks(joined);
    expect(mj.join(2, FAST)).toBe(1);
    expect(mj.join(0, FAST)).toBe(0);
  });

  it('direct work that cannot complete in the steps or the context left is masked', () => {
    // 10 steps left: the orchestrator needs 12 on subtask 0, 6 on subtask 1.
    const m = masks(simOf({ criticalBudget: 11, contextBudget: 100 }));
    expect(m.direct(0)).toBe(0);
    expect(m.direct(1)).toBe(1);
    // Context 5 (one unit per direct step): 6 steps on subtask 1 do not fit, 3 on subtask 2 do.
    const c = masks(simOf({ criticalBudget: 100, contextBudget: 5 }));
    expect(c.direct(1)).toBe(0);
    expect(c.direct(2)).toBe(1);
  });

  it('finish is offered once every open subtask is certain waste (before, it was held back while any could be planned)', () => {
    // One subtask of size 4 and context 5: its result (6) never fits, direct work (12 steps) neither.
    const sim = simOf({ criticalBudget: 100, contextBudget: 5 }, [{ kind: 'search', size: 4 }]);
    expect(observeDecomposition(sim).assignNew[0]).toBe(1);
    const m = masks(sim);
    expect(m.assignNew(0, FAST)).toBe(0);
    expect(m.direct(0)).toBe(0);
    expect(m.finish()).toBe(1);
    // With context 6 the result fits: open work is left, so no finish.
    expect(masks(simOf({ criticalBudget: 100, contextBudget: 6 }, [{ kind: 'search', size: 4 }])).finish()).toBe(0);
  });
});
