import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng';
import { DecompositionSim } from '../../../src/envs/swarm/decomposition';
import { decisionRewards, type DecisionCreditParts } from '../../../src/swarm/decisionCredit';
import { SwarmActor, type SwarmEpisodeOutcome, type SwarmPending, type SwarmTaskSpec } from '../../../src/swarm/swarmActor';
import { buildSwarmBatch, decisionRewardsToGo } from '../../../src/swarm/swarmLearner';
import type { SwarmEpisode } from '../../../src/swarm/swarmRollouts';
import { parlRewardForOutcome } from '../../../src/swarm/parlReward';
import { SP_MASK_OFFSET, SP_NUM_ACTIONS, SP_OBS_DIM } from '../../../src/swarm/setActions';
import { CERTAIN_SKILLS, handEpisode, handMadeEpisode } from './swarmFixtures';

/** The hand episode's decisions as a learner's episode (values 0 unless given). */
function asEpisode(sim: DecompositionSim, parts: DecisionCreditParts, values?: number[]): SwarmEpisode {
  const T = parts.assigned.length;
  const o = sim.outcome();
  return {
    actorIndex: 0,
    slot: 0,
    outcome: { ...o, launches: [2], decisions: T, taskSeed: 1, capped: false },
    decisions: Array.from({ length: T }, (_, t) => ({ obs: new Float32Array(SP_OBS_DIM), action: 0, logProb: 0, value: values?.[t] ?? 0 })),
    credit: parts,
  };
}

describe('outcome-only credit: what the ledger records', () => {
  it('records who assigned, who created which subagent, which launch ran them and which results came back', () => {
    const { parts } = handEpisode(100);
    expect(parts.assigned).toEqual([1, 1, 1, 0, 0, 0]);
    expect(parts.completed).toEqual([1, 1, 1, 0, 0, 0]);
    expect(parts.subagentRank).toEqual([0, -1, 1, -1, -1, -1]);
    expect(parts.launchedBy).toEqual([3, 3, 3, -1, -1, -1]);
  });

  it('a result lost to the context is not completed', () => {
    // fast (14 steps, context 8) is read before slow (18 steps, context 6): with 12 units slow's result is lost.
    const { sim, parts } = handEpisode(12);
    const o = sim.outcome();
    expect([o.nAssigned, o.nCompleted, o.nLost]).toEqual([3, 2, 1]);
    expect(parts.completed).toEqual([1, 1, 0, 0, 0, 0]);
  });

  it('never looks at the truth: the same play with subagents that are always wrong gives the same parts, and every return moves by the same r_perf difference', () => {
    const wrong = (k: 'fast' | 'slow') => {
      const { lookup, search, reason } = CERTAIN_SKILLS[k];
      return { lookup: { ...lookup, success: 0.01 }, search: { ...search, success: 0.01 }, reason: { ...reason, success: 0.01 } };
    };
    const { sim: wrongSim, parts: wrongParts } = handEpisode(100, { ...CERTAIN_SKILLS, fast: wrong('fast'), slow: wrong('slow') });
    const right = handEpisode(100);
    expect(wrongParts).toEqual(right.parts);
    const rRight = right.sim.outcome().rPerf;
    const rWrong = wrongSim.outcome().rPerf;
    expect(rRight).toBe(1);
    expect(rWrong).toBeLessThan(1);
    const w = { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 };
    const gRight = decisionRewardsToGo(asEpisode(right.sim, right.parts), w);
    const gWrong = decisionRewardsToGo(asEpisode(wrongSim, wrongParts), w);
    gRight.forEach((g, t) => expect(g - gWrong[t]).toBeCloseTo(rRight - rWrong, 12));
  });
});

describe('outcome-only credit: each decision reward', () => {
  it('r_t = λ2·completed_t / n_assigned + λ1·[rank_t < cap] / cap; with r_perf they sum to the PARL reward', () => {
    const { sim, parts } = handEpisode(12);
    const w = { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 };
    // n_assigned = 3: t0 = 0.3/3 + 0.2/4, t1 = 0.3/3, t2 = 0.2/4 (its item was lost).
    const r = decisionRewards(parts, w);
    [0.1 + 0.05, 0.1, 0.05, 0, 0, 0].forEach((x, t) => expect(r[t]).toBeCloseTo(x, 12));
    const total = r.reduce((a, x) => a + x, 0) + sim.outcome().rPerf;
    expect(total).toBeCloseTo(parlRewardForOutcome(sim.outcome(), w).total, 12);
    expect(total).toBeCloseTo(1.3, 12); // r_perf 1 + λ2 · 2/3 + λ1 · 2/4
  });

  it('with nothing assigned the neutral λ2 goes to the last decision; a fractional cap pays its remainder', () => {
    const none: DecisionCreditParts = { assigned: [0, 0], completed: [0, 0], subagentRank: [-1, -1], launchedBy: [-1, -1] };
    expect(Array.from(decisionRewards(none, { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 }))).toEqual([0, 0.3]);
    // cap 1.5, three subagents: min(3, 1.5) / 1.5 = 1, paid as 1/1.5 then 0.5/1.5 then 0.
    const three: DecisionCreditParts = { assigned: [1, 1, 1], completed: [0, 0, 0], subagentRank: [0, 1, 2], launchedBy: [-1, -1, -1] };
    const r = decisionRewards(three, { lambda1: 1, lambda2: 0, parallelCap: 1.5 });
    expect(r[0]).toBeCloseTo(1 / 1.5, 12);
    expect(r[1]).toBeCloseTo(0.5 / 1.5, 12);
    expect(r[2]).toBe(0);
  });
});

describe('outcome-only credit: the actor records it for every episode', () => {
  it('random legal play on generated tasks: the parts count n_assigned, n_completed and n_subagents, and with r_perf sum to the PARL reward', () => {
    const spec: SwarmTaskSpec = { task: { numSubtasks: 20 }, rules: {}, maxDecisions: 60, recordCredit: true };
    const actor = new SwarmActor({ spec, actorIndex: 0, seed: 5 });
    const rng = new Rng(11);
    let pending = actor.start(0, 6, null);
    const done: Array<{ outcome: SwarmEpisodeOutcome; credit?: DecisionCreditParts }> = [];
    while (pending.running > 0) {
      done.push(...pending.finished);
      const actions = new Int32Array(pending.slots.length);
      for (let r = 0; r < actions.length; r++) {
        const legal: number[] = [];
        for (let j = 0; j < SP_NUM_ACTIONS; j++) if (pending.obs[r * SP_OBS_DIM + SP_MASK_OFFSET + j] > 0) legal.push(j);
        actions[r] = legal[Math.floor(rng.uniform() * legal.length)];
      }
      pending = actor.advance(actions);
    }
    done.push(...pending.finished);
    expect(done).toHaveLength(6);
    const w = { lambda1: 0.3, lambda2: 0.2, parallelCap: 8 };
    for (const { outcome: o, credit: c } of done) {
      if (!c) throw new Error('an episode finished without its credit parts');
      const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
      expect(c.assigned).toHaveLength(o.decisions);
      expect(sum(c.assigned)).toBe(o.nAssigned);
      expect(sum(c.completed)).toBe(o.nCompleted);
      expect(c.subagentRank.filter((k) => k >= 0).sort((a, b) => a - b)).toEqual(Array.from({ length: o.nSubagents }, (_, k) => k));
      expect(sum(Array.from(decisionRewards(c, w))) + o.rPerf).toBeCloseTo(parlRewardForOutcome(o, w).total, 10);
    }
    expect(done.some((d) => d.outcome.nAssigned > 0)).toBe(true);
  });

  it('without recordCredit the actor records nothing: its episodes carry no credit parts', () => {
    const actor = new SwarmActor({ spec: { task: { numSubtasks: 10 }, rules: {}, maxDecisions: 30 }, actorIndex: 0, seed: 5 });
    let pending = actor.start(0, 2, null);
    const finished: SwarmPending['finished'] = [];
    while (pending.running > 0) {
      const actions = Int32Array.from({ length: pending.slots.length }, (_, r) => {
        let last = 0;
        for (let j = 0; j < SP_NUM_ACTIONS; j++) if (pending.obs[r * SP_OBS_DIM + SP_MASK_OFFSET + j] > 0) last = j;
        return last;
      });
      pending = actor.advance(actions);
      finished.push(...pending.finished);
    }
    expect(finished).toHaveLength(2);
    for (const f of finished) expect(f.credit).toBeUndefined();
  });
});

describe('outcome-only credit: the batch the learner builds', () => {
  const round = (xs: Iterable<number>) => Array.from(xs, (x) => +x.toFixed(6));

  it('by stage: a launch and its assignments share the stage reward to go; r_perf is in every decision return', () => {
    // Hand episode, 12 units of context, λ1 0.2, λ2 0.3: shaping r = (0.15, 0.1, 0.05, 0, 0, 0), all in stage 3
    // (the launch); r_perf 1 at the end. G = 1.3 for t0..t3, then 1 for the direct t4 and the finish t5.
    const { sim, parts } = handEpisode(12);
    const built = buildSwarmBatch([asEpisode(sim, parts)], { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 }, 1);
    expect(round(built?.batch.returns ?? [])).toEqual(round([1.3, 1.3, 1.3, 1.3, 1, 1]));
  });

  it('work the decision cap launched is a stage at the end', () => {
    // t0 direct, t1 and t2 assignments the cap launched (stage T = 3), both completed: λ2 shares 0.15 each at the end.
    const e = handMadeEpisode([0, 0, 0], 0.5, 7);
    e.credit = { assigned: [0, 1, 1], completed: [0, 1, 1], subagentRank: [-1, 0, -1], launchedBy: [-1, -1, -1] };
    expect(round(decisionRewardsToGo(e, { lambda1: 0, lambda2: 0.3, parallelCap: 4 }))).toEqual(round([0.8, 0.8, 0.8]));
  });

  it('GAE against the value head: λ = 1 gives G_t − V(s_t), λ = 0 gives r′_t + V(s_{t+1}) − V(s_t)', () => {
    const e = handMadeEpisode([0.1, 0.2, 0.3], 0.6, 7);
    const w = { lambda1: 0, lambda2: 0, parallelCap: 4 };
    expect(round(buildSwarmBatch([e], w, 1)?.batch.advantages ?? [])).toEqual(round([0.5, 0.4, 0.3]));
    expect(round(buildSwarmBatch([e], w, 0)?.batch.advantages ?? [])).toEqual(round([0.1, 0.1, 0.3]));
  });

  it('needs the parts the actor records', () => {
    const { credit: _dropped, ...bare } = handMadeEpisode([0], 1);
    expect(() => buildSwarmBatch([bare], { lambda1: 0, lambda2: 0, parallelCap: 4 }, 1)).toThrow(/credit parts/);
  });
});
