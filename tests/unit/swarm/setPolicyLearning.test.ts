import { describe, expect, it } from 'vitest';
import { DecompositionSim } from '../../../src/envs/swarm/decomposition';
import { skillTable, type SkillTable } from '../../../src/envs/swarm/decompositionSkills';
import { decompositionTaskFrom } from '../../../src/envs/swarm/decompositionTask';
import { SwarmActor, swarmEpisodeSeed } from '../../../src/swarm/swarmActor';
import { buildSwarmBatch } from '../../../src/swarm/swarmLearner';
import { modeAction } from '../../../src/swarm/swarmRollouts';
import { SP_MAX_KINDS, SP_NUM_ACTIONS, SP_OBS_DIM, SP_OFFSETS, SP_PAIR_FEATURES, SP_SEGMENTS, encodeSetObservation } from '../../../src/swarm/setPolicy';
import { handMadeEpisode } from './swarmFixtures';

describe('set policy: deterministic decisions', () => {
  // One row of π: assignNew holds 0.6 spread evenly over 100 actions (0.006 each), launch 0.1,
  // finish 0.05, direct 0.25 on one row.
  const probs = new Float32Array(SP_NUM_ACTIONS);
  for (let j = 0; j < 100; j++) probs[SP_SEGMENTS.assignNew.offset + j * SP_MAX_KINDS] = 0.006;
  probs[SP_SEGMENTS.assignNew.offset + 7 * SP_MAX_KINDS + 1] = 0.006 + 1e-4; // the likeliest assignment
  probs[SP_SEGMENTS.launch.offset] = 0.1;
  probs[SP_SEGMENTS.finish.offset] = 0.05;
  probs[SP_SEGMENTS.direct.offset + 3] = 0.25;

  it('typeArgmax takes the likeliest TYPE, then the likeliest action in it', () => {
    expect(modeAction(probs, 0, 'typeArgmax')).toBe(SP_SEGMENTS.assignNew.offset + 7 * SP_MAX_KINDS + 1);
  });

  it('the flat argmax picks the single likeliest action, here direct (0.25) although assignNew has 0.6 of the mass', () => {
    expect(modeAction(probs, 0, 'argmax')).toBe(SP_SEGMENTS.direct.offset + 3);
  });

  it('reads the requested row of a batch', () => {
    const two = new Float32Array(2 * SP_NUM_ACTIONS);
    two[SP_SEGMENTS.finish.offset] = 1;
    two.set(probs, SP_NUM_ACTIONS);
    expect(modeAction(two, 0, 'typeArgmax')).toBe(SP_SEGMENTS.finish.offset);
    expect(modeAction(two, 1, 'argmax')).toBe(SP_SEGMENTS.direct.offset + 3);
  });
});

const episode = handMadeEpisode;

describe('swarm learner: GAE over an episode of decisions', () => {
  const w = { lambda1: 0, lambda2: 0, parallelCap: 4 }; // the episode's reward is r_perf alone

  it('λ = 0.5 by hand: V = (0.2, 0.5, 0.4), r = 1 gives δ = (0.3, −0.1, 0.6), A = (0.4, 0.2, 0.6), R = A + V', () => {
    const built = buildSwarmBatch([episode([0.2, 0.5, 0.4], 1)], w, 0.5);
    const A = Array.from(built?.batch.advantages ?? []);
    const R = Array.from(built?.batch.returns ?? []);
    [0.4, 0.2, 0.6].forEach((x, t) => expect(A[t]).toBeCloseTo(x, 6));
    [0.6, 0.7, 1.0].forEach((x, t) => expect(R[t]).toBeCloseTo(x, 6));
  });

  it('λ = 1 is Monte Carlo: A_t = r − V(s_t) and R_t = r for every decision; λ = 0 is one-step TD', () => {
    const mc = buildSwarmBatch([episode([0.2, 0.5, 0.4], 0.7)], w, 1);
    [0.5, 0.2, 0.3].forEach((x, t) => expect(mc?.batch.advantages?.[t]).toBeCloseTo(x, 6));
    [0.7, 0.7, 0.7].forEach((x, t) => expect(mc?.batch.returns?.[t]).toBeCloseTo(x, 6));
    const td = buildSwarmBatch([episode([0.2, 0.5, 0.4], 0.7)], w, 0);
    [0.3, -0.1, 0.3].forEach((x, t) => expect(td?.batch.advantages?.[t]).toBeCloseTo(x, 6));
  });

  it('keeps episodes of different lengths apart (no decision bootstraps from the next episode)', () => {
    const built = buildSwarmBatch([episode([0.5], 1), episode([0.1, 0.9], 0)], w, 0.5);
    // Episode 1: δ = 1 − 0.5. Episode 2: δ = (0.9 − 0.1, 0 − 0.9), A_1 = −0.9, A_0 = 0.8 + 0.5·(−0.9).
    [0.5, 0.35, -0.9].forEach((x, t) => expect(built?.batch.advantages?.[t]).toBeCloseTo(x, 6));
    expect(built?.lengths).toEqual([1, 2]);
  });

  it('rejects λ outside [0, 1]', () => {
    expect(() => buildSwarmBatch([episode([0.5], 1)], w, 1.5)).toThrow(/gaeLambda/);
  });
});

describe('decomposition actor: episodes per task', () => {
  it('slots 0..n−1 play one task, the next n another, and the outcomes say which', async () => {
    const actor = new SwarmActor({ spec: { task: { numSubtasks: 6 }, rules: {}, maxDecisions: 2, episodesPerTask: 3 }, actorIndex: 1, seed: 5 });
    let p = actor.start(2, 6);
    const seeds = new Map<number, number>();
    while (p.running > 0) {
      // First legal action of each row (the episodes end at the 2-decision cap).
      const actions = Int32Array.from(p.slots, (_s, r) => {
        for (let j = 0; j < SP_NUM_ACTIONS; j++) if (p.obs[r * SP_OBS_DIM + SP_OFFSETS.mask + j] > 0) return j;
        return -1;
      });
      p = actor.advance(actions);
      for (const f of p.finished) seeds.set(f.slot, f.outcome.taskSeed);
    }
    expect(seeds.size).toBe(6);
    expect([0, 1, 2].map((s) => seeds.get(s))).toEqual(Array(3).fill(swarmEpisodeSeed(5, 2, 1, 0)));
    expect([3, 4, 5].map((s) => seeds.get(s))).toEqual(Array(3).fill(swarmEpisodeSeed(5, 2, 1, 1)));
    expect(swarmEpisodeSeed(5, 2, 1, 0)).not.toBe(swarmEpisodeSeed(5, 2, 1, 1));
  });
});

describe('set policy: what it sees of each (subtask, kind) pair', () => {
  // Two kinds with different skills on the two subtask kinds; μ = 1 (tool calls take one step).
  const table: SkillTable = {
    orchestrator: { lookup: { success: 0.9, think: 2, calibration: 1 }, search: { success: 0.9, think: 2, calibration: 1 }, reason: { success: 0.9, think: 2, calibration: 1 } },
    fast: { lookup: { success: 0.5, think: 1, calibration: 0.5 }, search: { success: 0.8, think: 1, calibration: 0.5 }, reason: { success: 0.5, think: 1, calibration: 0.5 } },
    slow: { lookup: { success: 1, think: 3, calibration: 1 }, search: { success: 0.6, think: 3, calibration: 1 }, reason: { success: 1, think: 3, calibration: 1 } },
  };
  const sim = new DecompositionSim(
    decompositionTaskFrom([
      { kind: 'search', size: 4, difficulty: 0.5 },
      { kind: 'lookup', size: 2, difficulty: 0 },
    ]),
    { skills: skillTable(table), subagentKinds: ['fast', 'slow'], limits: { toolLatencyMean: 1, criticalBudget: 41, contextBudget: 100, subagentStepCap: 20, setupSteps: 2 } },
  );
  const pair = (obs: Float32Array, row: number, kind: number) => Array.from(obs.subarray(SP_OFFSETS.pairs + (row * SP_MAX_KINDS + kind) * SP_PAIR_FEATURES, SP_OFFSETS.pairs + (row * SP_MAX_KINDS + kind + 1) * SP_PAIR_FEATURES));

  it('success p^(1 + 2d), expected steps size·(think + μ) / cap, fit in the steps left, and the load of joining', () => {
    const obs = new Float32Array(SP_OBS_DIM);
    expect(encodeSetObservation(sim, obs, 0)).toEqual([0, 1]);
    // Steps left before finish: 41 − 1 = 40.
    // Subtask 0 (search, size 4, d 0.5) by fast: p = 0.8², steps 4·(1 + 1) = 8; by slow: p = 0.6², steps 4·4 = 16.
    const close = (got: number[], want: number[]) => want.forEach((x, j) => expect(got[j]).toBeCloseTo(x, 6));
    close(pair(obs, 0, 0), [0.64, 8 / 20, (2 + 8) / 40, 0]);
    close(pair(obs, 0, 1), [0.36, 16 / 20, (2 + 16) / 40, 0]);
    // Subtask 1 (lookup, size 2, d 0) by fast: p = 0.5, steps 4; by slow: p = 1, steps 8.
    close(pair(obs, 1, 0), [0.5, 4 / 20, 6 / 40, 0]);
    close(pair(obs, 1, 1), [1, 8 / 20, 10 / 40, 0]);
    // Plan subtask 0 on a 'slow' subagent (expected load 2 + 16 = 18): joining subtask 1 to it
    // would make 18 + 8 = 26 > 20, an expected timeout; no 'fast' subagent is planned.
    sim.createSubagent('slow', 0);
    encodeSetObservation(sim, obs, 0);
    close(pair(obs, 1, 1), [1, 8 / 20, 10 / 40, 26 / 20]);
    expect(pair(obs, 1, 0)[3]).toBe(0);
    // Extra globals: one open subtask not in the plan out of 2, one planned subagent out of 2.
    expect(obs[SP_OFFSETS.extra]).toBeCloseTo(0.5, 6);
    expect(obs[SP_OFFSETS.extra + 1]).toBeCloseTo(0.5, 6);
  });
});
