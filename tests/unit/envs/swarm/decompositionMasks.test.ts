import { describe, expect, it } from 'vitest';
import { DecompositionSim } from '../../../../src/envs/swarm/decomposition';
import { DECOMP_MAX_CANDIDATES, DECOMP_SUBTASK_FEATURES, observeDecomposition } from '../../../../src/envs/swarm/decompositionFeatures';
import { generateDecomposition } from '../../../../src/envs/swarm/decompositionTask';
import { fixedSim } from './decompositionHelpers';

describe('decomposition: observation and masks', () => {
  it('lists only unblocked candidates, pads the rest, and masks each action by its rule', () => {
    const sim = fixedSim([{ kind: 'search', size: 4 }, { kind: 'lookup', size: 1, after: 0 }, { kind: 'reason', size: 2 }]);
    let o = observeDecomposition(sim);
    expect(o.candidates).toEqual([0, 2]);
    expect([...o.candidateValid.slice(0, 3)]).toEqual([1, 1, 0]);
    expect(o.subtaskFeatures.length).toBe(DECOMP_MAX_CANDIDATES * DECOMP_SUBTASK_FEATURES);
    // K = 2 kinds (good, bad): a new subagent is legal for both, joining needs a planned one
    expect([...o.assignNew.slice(0, 4)]).toEqual([1, 1, 1, 1]);
    expect([...o.join.slice(0, 4)]).toEqual([0, 0, 0, 0]);
    expect([...o.direct.slice(0, 2)]).toEqual([1, 1]);
    expect([...o.check.slice(0, 2)]).toEqual([0, 0]); // nothing to check yet
    expect(o.launch).toBe(false);
    expect(o.finish).toBe(true);

    sim.createSubagent('good', 2);
    o = observeDecomposition(sim);
    // joining the planned 'good' subagent: legal for 0, not for 2 (it has it); no 'bad' one planned
    expect([...o.join.slice(0, 4)]).toEqual([1, 0, 0, 0]);
    expect(o.launch).toBe(true);
    expect(o.finish).toBe(false);
    expect([...o.direct.slice(0, 2)]).toEqual([0, 0]); // launch the plan first
    expect(o.subtaskFeatures[1 * DECOMP_SUBTASK_FEATURES + 13]).toBe(0.5); // subtask 2 is in 1 planned subagent

    sim.addToSubagent(0, 0);
    sim.launch();
    o = observeDecomposition(sim);
    expect(o.candidates).toEqual([0, 1, 2]); // 0 has a claim, so 1 is unblocked
    expect([...o.check.slice(0, 3)]).toEqual([1, 0, 1]);
    expect(o.subtaskFeatures[0 * DECOMP_SUBTASK_FEATURES + 8]).toBe(1);
    expect(o.subtaskFeatures[0 * DECOMP_SUBTASK_FEATURES + 9]).toBe(1); // calibration 1, no noise
    sim.finish();
    o = observeDecomposition(sim);
    expect(o.candidates).toEqual([]);
    expect(o.finish).toBe(false);
  });

  it('masks a new subagent once the plan has maxSubagentsPerStage of them', () => {
    const sim = fixedSim([{ kind: 'lookup', size: 1 }, { kind: 'lookup', size: 1 }], { maxSubagentsPerStage: 1 });
    sim.createSubagent('good', 0);
    const o = observeDecomposition(sim);
    expect([...o.assignNew.slice(0, 4)]).toEqual([0, 0, 0, 0]);
    expect([...o.join.slice(0, 4)]).toEqual([0, 0, 1, 0]); // 1 may still join the 'good' subagent
    expect(() => sim.createSubagent('good', 1)).toThrow(/at most 1 subagents/);
  });

  it('every unmasked action is accepted and every masked one refused, over a random episode of 100 subtasks', () => {
    const sim = new DecompositionSim(generateDecomposition({ numSubtasks: 100 }, 3));
    let picks = 0;
    for (let t = 0; t < 400 && !sim.finished; t++) {
      const o = observeDecomposition(sim);
      const K = sim.subagentKinds.length;
      o.candidates.forEach((id, i) => {
        for (let k = 0; k < K; k++) expect(sim.whyNotPlan(id, sim.subagentKinds[k], null) === null).toBe(o.assignNew[i * K + k] === 1);
      });
      const i = t % Math.max(1, o.candidates.length);
      const k = t % K;
      if (o.candidates.length > 0 && o.assignNew[i * K + k] && t % 7 !== 6) {
        sim.createSubagent(sim.subagentKinds[k], o.candidates[i]);
        picks += 1;
      } else if (o.launch) sim.launch();
      else if (o.candidates.length > 0 && o.check[i]) sim.check(o.candidates[i]);
      else if (o.finish) sim.finish();
    }
    expect(picks).toBeGreaterThan(50);
  });
});
