import { describe, expect, it } from 'vitest';
import type { SwarmTaskSpec } from '../../../src/swarm/swarmActor';
import { buildSwarmTrace, playTracedSwarmEpisode } from '../../../src/swarm/swarmTrace';
import { decodeSetAction, SP_MASK_OFFSET, SP_NUM_ACTIONS, SP_SEGMENTS } from '../../../src/swarm/setActions';
import { HAND_STAGES, handEpisode, NO_CAPS } from './fixtures/swarmTraceEpisode';

describe('swarm episode trace (hand-made episode)', () => {
  const trace = buildSwarmTrace(handEpisode(), NO_CAPS);

  it('places every stage and subagent on the critical-step axis', () => {
    expect(trace.stages.map((s) => [s.kind, s.start, s.end])).toEqual([
      ['launch', 0, 7],
      ['check', 7, 9],
      ['check', 9, 11],
      ['launch', 11, 17],
      ['direct', 17, 21],
      ['finish', 21, 22],
    ]);
    // Subagents start after the launch stage's own step: start = C(t-1) + S_main(t), end = start + S_sub.
    expect(trace.subagents.map((a) => [a.id, a.kind, a.stage, a.start, a.end])).toEqual([
      [0, 'large', 0, 1, 7],
      [1, 'small', 0, 1, 5],
      [2, 'small', 3, 12, 17],
      [3, 'searcher', 3, 12, 15],
    ]);
    expect(trace.subagents[1].items).toEqual([{ subtask: 2, outcome: 'timeout' }]);
  });

  it("ties each check to the subagent whose claim it looked at, and what it found", () => {
    expect(trace.checks).toEqual([
      { stage: 1, subtask: 0, at: 9, passed: false, subagent: 0, claimBy: 'large' },
      { stage: 2, subtask: 1, at: 11, passed: true, subagent: 0, claimBy: 'large' },
    ]);
  });

  it('finds the retries and why each subtask was given again', () => {
    expect(trace.retries).toEqual([
      { stage: 3, subtask: 0, reason: 'refuted', subagent: 2, at: 12 }, // its claim was checked wrong in stage 1
      { stage: 3, subtask: 2, reason: 'failed', subagent: 2, at: 12 }, // small#1 timed out on it
      { stage: 4, subtask: 3, reason: 'unchecked', subagent: null, at: 17 }, // searcher#3's claim, never checked
    ]);
    expect(trace.totals).toMatchObject({ criticalSteps: 22, criticalBudget: 30, serialBaseline: 80, nSubagents: 4, nChecks: 2, nChecksWrong: 1 });
    expect(trace.truncated).toBe(false);
  });

  it('counts a subtask given to two subagents of one stage as a duplicate, not a retry', () => {
    const dup = [
      { ...HAND_STAGES[0], subagents: [HAND_STAGES[0].subagents[0], { kind: 'small', items: [0], outcomes: ['completed' as const], steps: 3, context: 4 }] },
      { ...HAND_STAGES[5], index: 1, criticalStepsSoFar: 8 },
    ];
    const t = buildSwarmTrace({ ...handEpisode(dup), checkedClaims: [] }, NO_CAPS);
    expect(t.subagents).toHaveLength(2);
    expect(t.retries).toEqual([]);
  });

  it('keeps within its caps and says so', () => {
    const t = buildSwarmTrace(handEpisode(), { stages: 2, subagents: 10, items: 10 });
    expect(t.stages).toHaveLength(2);
    expect(t.subagents.map((a) => a.id)).toEqual([0, 1]);
    expect(t.checks).toHaveLength(1);
    expect(t.truncated).toBe(true);
    const fewItems = buildSwarmTrace(handEpisode(), { stages: 10, subagents: 10, items: 2 });
    expect(fewItems.subagents.map((a) => a.id)).toEqual([0]);
    expect(fewItems.truncated).toBe(true);
    // The totals still describe the whole episode.
    expect(t.totals.criticalSteps).toBe(22);
  });
});

describe('swarm traced episode (real sim, scripted policy)', () => {
  const spec: SwarmTaskSpec = { task: { numSubtasks: 12 }, rules: {}, maxDecisions: 80 };
  const legal = (obs: Float32Array, type: keyof typeof SP_SEGMENTS) => {
    const { offset, length } = SP_SEGMENTS[type];
    for (let j = offset; j < offset + length; j++) if (obs[SP_MASK_OFFSET + j] > 0) return j;
    return -1;
  };
  // Plans 3 subagents, launches, checks every claim it can, plans again, until it can only finish.
  const script = () => {
    let planned = 0;
    return (obs: Float32Array): number => {
      const check = legal(obs, 'check');
      if (check >= 0 && planned === 0) return check;
      const launch = legal(obs, 'launch');
      if (planned >= 3 && launch >= 0) {
        planned = 0;
        return launch;
      }
      for (let j = 0; j < SP_NUM_ACTIONS; j++) {
        if (obs[SP_MASK_OFFSET + j] > 0 && decodeSetAction(j).type === 'assignNew' && decodeSetAction(j).kind === planned % 3) {
          planned += 1;
          return j;
        }
      }
      if (launch >= 0) {
        planned = 0;
        return launch;
      }
      return legal(obs, 'finish');
    };
  };

  it('records whose claim each check looked at, matching the sim', async () => {
    const ep = await playTracedSwarmEpisode(spec, 3, script(), 'greedy');
    const t = buildSwarmTrace(ep, NO_CAPS);
    expect(t.stages).toHaveLength(ep.outcome.stages.length);
    expect(t.checks.length).toBe(ep.outcome.nChecks);
    expect(t.checks.filter((c) => !c.passed).length).toBe(ep.outcome.nChecksWrong);
    expect(t.checks.length).toBeGreaterThan(0);
    expect(t.subagents.length).toBe(ep.outcome.nSubagents);
    expect(new Set(t.subagents.map((a) => a.kind))).toEqual(new Set(['large', 'small', 'searcher']));
    for (const c of t.checks) {
      // Only subagents worked here, so every checked claim is a subagent's: of the claimed kind, holding the subtask, done before the check.
      expect(c.subagent).not.toBeNull();
      const maker = t.subagents[c.subagent as number];
      expect(maker.kind).toBe(c.claimBy);
      expect(maker.items.some((it) => it.subtask === c.subtask && it.outcome === 'completed')).toBe(true);
      expect(maker.end).toBeLessThanOrEqual(c.at);
    }
    expect(t.stages[t.stages.length - 1].end).toBe(ep.outcome.criticalSteps);
    // Replaying the same script on the same task gives the same trace.
    expect(buildSwarmTrace(await playTracedSwarmEpisode(spec, 3, script(), 'greedy'), NO_CAPS)).toEqual(t);
  });
});
