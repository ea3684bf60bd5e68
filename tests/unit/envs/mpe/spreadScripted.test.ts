/**
 * The scripted simple_spread reference: the assignment is the least total distance over every
 * permutation, the controller brings each agent to its landmark, and the team scores far above
 * a random one on the same episode starts.
 */
import { describe, expect, it } from 'vitest';
import { makeMpeEnv, optimalAssignment, permutations, spreadScriptedActions } from '../../../../src/envs/mpe';
import { evaluateMarl } from '../../../../src/engine/marlEvaluation';
import { mpeTaskSpec } from '../../../../src/engine/marlActor';

describe('optimal assignment', () => {
  it('permutations(n) lists all n! orders once', () => {
    const ps = permutations(4);
    expect(ps.length).toBe(24);
    expect(new Set(ps.map((p) => p.join(','))).size).toBe(24);
    for (const p of ps) expect([...p].sort()).toEqual([0, 1, 2, 3]);
  });

  it('picks the permutation of least total distance, not each agent its nearest landmark', () => {
    // Agent 0 is nearest to landmark 0, but sending it there leaves agent 1 a long way to landmark 1.
    const agents: [number, number][] = [[0, 0], [0.9, 0]];
    const landmarks: [number, number][] = [[0.5, 0], [-0.6, 0]];
    expect(optimalAssignment(agents, landmarks)).toEqual([1, 0]);
    const total = (p: number[]) => p.reduce((s, l, i) => s + Math.hypot(agents[i][0] - landmarks[l][0], agents[i][1] - landmarks[l][1]), 0);
    expect(total([1, 0])).toBeLessThan(total([0, 1]));
  });
});

describe('the scripted team on simple_spread', () => {
  it('brings every agent to a landmark of its own within an episode', () => {
    const env = makeMpeEnv('simple_spread_v3');
    const state = new Float32Array(env.stateDim);
    const rewards = new Float64Array(3);
    const joint = new Int32Array(3);
    for (let seed = 1; seed <= 5; seed++) {
      env.resetInto(state, 0, seed);
      const start = new Float64Array(3);
      env.measure(start);
      while (!env.lastTruncated) {
        spreadScriptedActions(state, 0, 3, joint, 0);
        env.stepFlat(joint, 0, state, 0, rewards, 0);
      }
      const end = new Float64Array(3);
      env.measure(end); // [collisions, occupied landmarks, Σ landmark-to-nearest-agent distance]
      expect(end[2]).toBeLessThan(0.3);
      expect(end[2]).toBeLessThan(start[2] / 2);
    }
  });

  it('scores far above a random team on the same starts', () => {
    const task = mpeTaskSpec('simple_spread_v3');
    const options = { task, acting: { kind: 'rnnShared', hidden: 1 } as const, seed: 3, episodes: 40 };
    const scripted = evaluateMarl((s, out) => spreadScriptedActions(s, 0, 3, out, 0), options);
    const random = evaluateMarl('random', options);
    expect(scripted.teamReturn - random.teamReturn).toBeGreaterThan(30);
    expect(scripted.metrics.occupiedLandmarks).toBeGreaterThan(2);
    expect(random.metrics.occupiedLandmarks).toBeLessThan(0.5);
  });
});
