import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng';
import { decisionRewards, endReward, type DecisionCreditParts } from '../../../src/swarm/decisionCredit';
import { DecompActor, type DecompEpisodeOutcome, type DecompPending, type DecompTaskSpec } from '../../../src/swarm/decompActor';
import { buildDecompBatch, decisionRewardsToGo } from '../../../src/swarm/decompLearner';
import type { DecompEpisode } from '../../../src/swarm/decompRollouts';
import { parlRewardForOutcome } from '../../../src/swarm/parlReward';
import { SP_MASK_OFFSET, SP_NUM_ACTIONS, SP_OBS_DIM } from '../../../src/swarm/setActions';
import { handEpisode, handMadeEpisode } from './decompFixtures';


describe('per-decision credit: the ledger on hand-played episodes', () => {
  it('splits F1 = 2·correct / (submitted + N) over the decisions that first gave each submitted answer', () => {
    // All 3 right and submitted: F1 = 1, each subtask's share 2 / (3 + 3) = 1/3. Subtask 0 has two
    // agreeing claims: fast's (t0, 14 steps) is read before slow's (t2, 18 steps), so t0 gets the
    // share and the second opinion t2 nothing; t1 (subtask 1) and t4 (direct on 2) 1/3 each.
    const { sim, parts } = handEpisode(100);
    expect(sim.outcome().rPerf).toBe(1);
    expect(sim.claimsOf(0)).toHaveLength(2);
    const third = 1 / 3;
    expect(parts.perf.map((x) => +x.toFixed(12))).toEqual([third, third, 0, 0, third, 0].map((x) => +x.toFixed(12)));
    expect(parts.assigned).toEqual([1, 1, 1, 0, 0, 0]);
    expect(parts.completed).toEqual([1, 1, 1, 0, 0, 0]);
    expect(parts.subagentRank).toEqual([0, -1, 1, -1, -1, -1]);
    expect(parts.launchedBy).toEqual([3, 3, 3, -1, -1, -1]);
    expect([parts.submitted, parts.numSubtasks]).toEqual([3, 3]);
  });

  it('a result lost to the context earns nothing: the decision that assigned it gets no F1 share and no r_finish', () => {
    // Results are read by end step: fast (2 + 8 + 4 = 14 steps, context 2 + 6 = 8) before slow (18
    // steps, context 2 + 4 = 6). With 12 units slow's result does not fit: t2's item is lost. Direct
    // work on 2 then costs 3 of the 4 left. Subtask 0 has one claim (t0): shares 1/3 to t0, t1, t4.
    const { sim, parts } = handEpisode(12);
    const o = sim.outcome();
    expect([o.nAssigned, o.nCompleted, o.nLost, o.rPerf]).toEqual([3, 2, 1, 1]);
    expect(parts.perf.map((x) => +x.toFixed(12))).toEqual([1 / 3, 1 / 3, 0, 0, 1 / 3, 0].map((x) => +x.toFixed(12)));
    expect(parts.completed).toEqual([1, 1, 0, 0, 0, 0]);
  });

  it('decisionRewards: r_t = perf_t + λ2·completed_t / n_assigned + λ1·[rank_t < cap] / cap, summing to the PARL reward', () => {
    const { sim, parts } = handEpisode(12);
    const w = { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 };
    // n_assigned = 3: t0 = 1/3 + 0.3/3 + 0.2/4, t1 = 1/3 + 0.3/3, t2 = 0.2/4 (its item was lost), t4 = 1/3.
    const want = [1 / 3 + 0.1 + 0.05, 1 / 3 + 0.1, 0.05, 0, 1 / 3, 0];
    const r = decisionRewards(parts, w);
    want.forEach((x, t) => expect(r[t]).toBeCloseTo(x, 12));
    // Σ = r_perf 1 + λ2 · 2/3 + λ1 · 2/4 = 1.3
    expect(r.reduce((a, x) => a + x, 0)).toBeCloseTo(parlRewardForOutcome(sim.outcome(), w).total, 12);
    expect(parlRewardForOutcome(sim.outcome(), w).total).toBeCloseTo(1.3, 12);
  });

  it("decisionRewards with parallelCredit 'launch': the λ1 shares move from the creators to their launch, the sum stays the PARL reward", () => {
    const { sim, parts } = handEpisode(12);
    const w = { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 };
    const creator = decisionRewards(parts, w);
    const launch = decisionRewards(parts, { ...w, parallelCredit: 'launch' });
    // creators t0 and t2 (launched by t3) lose 0.2/4 each; t3 gains both
    expect(launch[0]).toBeCloseTo(creator[0] - 0.05, 12);
    expect(launch[2]).toBeCloseTo(creator[2] - 0.05, 12);
    expect(launch[3]).toBeCloseTo(creator[3] + 0.1, 12);
    expect(launch[1]).toBe(creator[1]);
    expect(launch[4]).toBe(creator[4]);
    expect(launch.reduce((a, x) => a + x, 0)).toBeCloseTo(parlRewardForOutcome(sim.outcome(), w).total, 12);
    // a subagent the decision cap launched (launchedBy −1) keeps its share on its creator
    const capped: DecisionCreditParts = { perf: [0, 0], assigned: [1, 1], completed: [1, 1], subagentRank: [0, 1], launchedBy: [-1, -1], submitted: 2, numSubtasks: 2 };
    expect(Array.from(decisionRewards(capped, { ...w, parallelCredit: 'launch' }))).toEqual(Array.from(decisionRewards(capped, w)));
  });

  it("perfCredit 'wrong-at-end': right claims pay (2 − F1)/N to their producers, each wrong submitted answer costs F1/N at the end", () => {
    // N = 4, three right answers (t0, t1, t3) and one wrong submitted: s = 4, F1 = 2·3/(4 + 4) = 0.75,
    // so the default shares are 2/8 = 0.25; split at the end: right (2 − 0.75)/4 = 0.3125, end −0.75/4.
    const parts: DecisionCreditParts = { perf: [0.25, 0.25, 0, 0.25], assigned: [0, 0, 0, 0], completed: [0, 0, 0, 0], subagentRank: [-1, -1, -1, -1], launchedBy: [-1, -1, -1, -1], submitted: 4, numSubtasks: 4 };
    const w = { lambda1: 0, lambda2: 0, parallelCap: 4 };
    expect(endReward(parts, w)).toBe(0);
    const atEnd = { ...w, perfCredit: 'wrong-at-end' as const };
    const r = decisionRewards(parts, atEnd);
    [0.3125, 0.3125, 0, 0.3125].forEach((x, t) => expect(r[t]).toBeCloseTo(x, 12));
    expect(endReward(parts, atEnd)).toBeCloseTo(-0.1875, 12);
    expect(r.reduce((a, x) => a + x, 0) + endReward(parts, atEnd)).toBeCloseTo(0.75, 12);
    // nothing wrong submitted: the two splits agree and nothing is paid at the end
    const allRight: DecisionCreditParts = { ...parts, perf: [0.25, 0.25, 0, 0.25], submitted: 3, numSubtasks: 5 };
    expect(endReward(allRight, atEnd)).toBeCloseTo(0, 12);
    expect(Array.from(decisionRewards(allRight, atEnd)).map((x) => +x.toFixed(12))).toEqual(Array.from(decisionRewards(allRight, w)).map((x) => +x.toFixed(12)));
  });

  it("perfCredit 'wrong-at-end': a check that keeps a wrong answer out of the submission earns it in its reward to go, and every G_0 is the reward", () => {
    // Same task (N = 4, three right answers by t0..t2). A submits a wrong fourth answer (t3 finishes);
    // B checks it at t3 (refuted, not submitted) and finishes at t4. Under the default split B's check
    // earns 0, as A's finish does; with the wrong answer's cost at the end, A's finish gets −F1_A/N.
    const sub = (perf: number[], submitted: number): DecompEpisode => {
      const e = episodeWith(perf, 7);
      return { ...e, credit: { ...(e.credit as DecisionCreditParts), submitted, numSubtasks: 4 } };
    };
    const a = sub([0.25, 0.25, 0.25, 0], 4); // F1 = 6/8
    const b = sub([2 / 7, 2 / 7, 2 / 7, 0, 0], 3); // F1 = 6/7
    const w = { lambda1: 0, lambda2: 0, parallelCap: 4 };
    const atEnd = { ...w, perfCredit: 'wrong-at-end' as const };
    expect(decisionRewardsToGo(a, w)[3]).toBeCloseTo(0, 12);
    expect(decisionRewardsToGo(b, w)[3]).toBeCloseTo(0, 12);
    expect(decisionRewardsToGo(a, atEnd)[3]).toBeCloseTo(-0.75 / 4, 12);
    expect(decisionRewardsToGo(b, atEnd)[3]).toBeCloseTo(0, 12);
    expect(decisionRewardsToGo(a, atEnd)[0]).toBeCloseTo(0.75, 12);
    expect(decisionRewardsToGo(b, atEnd)[0]).toBeCloseTo(6 / 7, 12);
  });

  it('decisionRewards: with nothing assigned the neutral λ2 goes to the last decision; a fractional cap pays its remainder', () => {
    const none: DecisionCreditParts = { perf: [0.25, 0.5], assigned: [0, 0], completed: [0, 0], subagentRank: [-1, -1], launchedBy: [-1, -1], submitted: 2, numSubtasks: 2 };
    expect(Array.from(decisionRewards(none, { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 }))).toEqual([0.25, 0.5 + 0.3]);
    // cap 1.5, three subagents: min(3, 1.5) / 1.5 = 1, paid as 1/1.5 then 0.5/1.5 then 0.
    const three: DecisionCreditParts = { perf: [0, 0, 0], assigned: [1, 1, 1], completed: [0, 0, 0], subagentRank: [0, 1, 2], launchedBy: [-1, -1, -1], submitted: 3, numSubtasks: 3 };
    const r = decisionRewards(three, { lambda1: 1, lambda2: 0, parallelCap: 1.5 });
    expect(r[0]).toBeCloseTo(1 / 1.5, 12);
    expect(r[1]).toBeCloseTo(0.5 / 1.5, 12);
    expect(r[2]).toBe(0);
  });
});

describe('per-decision credit: the actor records it for every episode when the spec asks', () => {
  it('random legal play on generated tasks: the parts sum to r_perf, n_assigned, n_completed, n_subagents and the PARL reward', () => {
    const spec: DecompTaskSpec = { task: { numSubtasks: 20 }, rules: {}, maxDecisions: 60, recordCredit: true };
    const actor = new DecompActor({ spec, actorIndex: 0, seed: 5 });
    const rng = new Rng(11);
    let pending = actor.start(0, 6, null);
    const done: Array<{ outcome: DecompEpisodeOutcome; credit?: DecisionCreditParts }> = [];
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
      expect(c.perf).toHaveLength(o.decisions);
      expect(sum(c.perf)).toBeCloseTo(o.rPerf, 10);
      expect(sum(c.assigned)).toBe(o.nAssigned);
      expect(sum(c.completed)).toBe(o.nCompleted);
      expect(c.subagentRank.filter((k) => k >= 0).sort((a, b) => a - b)).toEqual(Array.from({ length: o.nSubagents }, (_, k) => k));
      expect(sum(Array.from(decisionRewards(c, w)))).toBeCloseTo(parlRewardForOutcome(o, w).total, 10);
    }
    // The episodes are not trivial: some assign work, some of it is lost or fails.
    expect(done.some((d) => d.outcome.nAssigned > 0)).toBe(true);
  });

  it('by default the actor records nothing: its episodes carry no credit parts', () => {
    const actor = new DecompActor({ spec: { task: { numSubtasks: 10 }, rules: {}, maxDecisions: 30 }, actorIndex: 0, seed: 5 });
    let pending = actor.start(0, 2, null);
    const finished: DecompPending['finished'] = [];
    while (pending.running > 0) {
      // The last legal action of each row (finish when offered).
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

function episodeWith(perf: number[], taskSeed: number, values: number[] = perf.map(() => 0)): DecompEpisode {
  const e = handMadeEpisode(values, perf.reduce((a, x) => a + x, 0), taskSeed);
  return {
    ...e,
    decisions: e.decisions.map((d) => ({ ...d, action: 0, logProb: 0 })),
    credit: { perf, assigned: perf.map(() => 0), completed: perf.map(() => 0), subagentRank: perf.map(() => -1), launchedBy: perf.map(() => -1), submitted: perf.length, numSubtasks: perf.length },
  };
}

describe('per-decision credit: the batch the learner builds', () => {
  const w = { lambda1: 0, lambda2: 0, parallelCap: 4 }; // the reward is r_perf alone
  const round = (xs: Iterable<number>) => Array.from(xs, (x) => +x.toFixed(6));

  it('reward to go with the group baseline at the same decision index, by hand', () => {
    // G: e1 (0.6, 0.4, 0.3), e2 (0.5, 0.4), e3 (0.2, 0.2, 0.2, 0.2); one task, three runs.
    // e1: 0.6 − (0.5 + 0.2)/2, 0.4 − (0.4 + 0.2)/2, 0.3 − (0 + 0.2)/2
    // e2: 0.5 − (0.6 + 0.2)/2, 0.4 − (0.4 + 0.2)/2
    // e3: 0.2 − (0.6 + 0.5)/2, 0.2 − (0.4 + 0.4)/2, 0.2 − (0.3 + 0)/2, 0.2 − 0
    const eps = [episodeWith([0.2, 0.1, 0.3], 7), episodeWith([0.1, 0.4], 7), episodeWith([0, 0, 0, 0.2], 7)];
    const built = buildDecompBatch(eps, w, 1, true, 'decision');
    expect(round(built?.batch.advantages ?? [])).toEqual(round([0.25, 0.1, 0.2, 0.1, 0.1, -0.35, -0.2, 0.05, 0.2]));
    expect(round(built?.batch.returns ?? [])).toEqual(round([0.6, 0.4, 0.3, 0.5, 0.4, 0.2, 0.2, 0.2, 0.2]));
  });

  it('by stage: the launch and its assignments share the stage reward to go, each assignment ± its own reward minus the stage mean', () => {
    // The hand episode with 12 units of context: r = (1/3 + 0.15, 1/3 + 0.1, 0.05, 0, 1/3, 0) at λ1 0.2, λ2 0.3.
    // Stages: t0, t1, t2 run by the launch t3 (ρ_3 = r0 + r1 + r2 + r3), direct t4 (ρ_4 = 1/3), finish t5.
    // Stage reward to go: 1.3 for t0..t3, 1/3 for t4, 0 for t5; the plan's mean r is (r0 + r1 + r2) / 3.
    const { sim, parts } = handEpisode(12);
    const o = sim.outcome();
    const e: DecompEpisode = { actorIndex: 0, slot: 0, outcome: { ...o, launches: [2], decisions: 6, taskSeed: 1, capped: false }, decisions: parts.perf.map(() => ({ obs: new Float32Array(SP_OBS_DIM), action: 0, logProb: 0, value: 0 })), credit: parts };
    const r = [1 / 3 + 0.15, 1 / 3 + 0.1, 0.05, 0, 1 / 3, 0];
    const mean = (r[0] + r[1] + r[2]) / 3;
    const g = [1.3 + r[0] - mean, 1.3 + r[1] - mean, 1.3 + r[2] - mean, 1.3, 1 / 3, 0];
    const built = buildDecompBatch([e], { lambda1: 0.2, lambda2: 0.3, parallelCap: 4 }, 1, false, 'decision');
    expect(round(built?.batch.returns ?? [])).toEqual(round(g));
  });

  it('work the decision cap launched is a stage at the end', () => {
    // t0 direct (its own stage, r 0.2), t1 and t2 assignments launched by the cap (stage T = 3, r 0.1 and 0.3).
    // Stage reward to go: 0.6 from stage 0, 0.4 from stage 3; d = ±0.1 around the plan's mean 0.2.
    const e = episodeWith([0.2, 0.1, 0.3], 7);
    e.credit = { perf: [0.2, 0.1, 0.3], assigned: [0, 1, 1], completed: [0, 1, 1], subagentRank: [-1, 0, -1], launchedBy: [-1, -1, -1], submitted: 3, numSubtasks: 3 };
    expect(round(decisionRewardsToGo(e, w))).toEqual(round([0.6, 0.3, 0.5]));
  });

  it('without groups, GAE over the per-decision rewards: λ = 1 gives G_t − V(s_t), λ = 0 gives r_t + V(s_{t+1}) − V(s_t)', () => {
    const e = episodeWith([0.2, 0.1, 0.3], 7, [0.1, 0.2, 0.3]);
    expect(round(buildDecompBatch([e], w, 1, false, 'decision')?.batch.advantages ?? [])).toEqual(round([0.5, 0.2, 0]));
    expect(round(buildDecompBatch([e], w, 0, false, 'decision')?.batch.advantages ?? [])).toEqual(round([0.3, 0.2, 0]));
  });

  it('the default (episode) credit gives every decision of a run the same advantage; decision credit needs the parts', () => {
    const eps = [episodeWith([0.2, 0.1, 0.3], 7), episodeWith([0.1, 0.4], 7)];
    // r: 0.6 and 0.5; leave-one-out: 0.6 − 0.5, 0.5 − 0.6 at every decision.
    expect(round(buildDecompBatch(eps, w, 1, true)?.batch.advantages ?? [])).toEqual(round([0.1, 0.1, 0.1, -0.1, -0.1]));
    const { credit: _dropped, ...bare } = eps[0];
    expect(() => buildDecompBatch([bare], w, 1, true, 'decision')).toThrow(/credit parts/);
  });
});
