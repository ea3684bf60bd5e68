import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseBackend } from '../../../src/core/backend';
import { Rng } from '../../../src/core/rng';
import { resolveLimits } from '../../../src/envs/swarm/orchestration';
import { CentralInference } from '../../../src/swarm/inference';
import { MaskedActorCritic, ORCH_OBS_DIM } from '../../../src/swarm/orchestrator';
import { collectSwarmRollouts, type SwarmActors } from '../../../src/swarm/rollouts';
import { loadSubagentCheckpoint } from '../../../src/swarm/subagentFiles';
import { FrozenSubagent } from '../../../src/swarm/subagents';
import { SwarmActor } from '../../../src/swarm/swarmActor';
import type { SwarmTaskConfig } from '../../../src/swarm/tasks';

const task: SwarmTaskConfig = {
  kind: 'wideSearch',
  numItems: 6,
  difficulty: 'easy',
  graphDifficulty: 'medium',
  limits: resolveLimits({ maxMainSteps: 40, subagentStepCap: 20, contextBudget: 100 }),
};

/** SwarmActors in this thread, as the pool would call them; `failAdvance[i]` = the advance call of actor i that rejects. */
function localActors(n: number, fail: { start?: number; advance?: Record<number, number> } = {}): SwarmActors {
  const actors = Array.from({ length: n }, (_, i) => new SwarmActor({ task, actorIndex: i, seed: 4 }));
  const advances = new Array<number>(n).fill(0);
  return {
    size: n,
    map: (_method, argsFor) =>
      Promise.allSettled(actors.map(async (a, i) => (i === fail.start ? Promise.reject(new Error('no worker')) : a.start(...argsFor(i))))),
    call: async (i, _method, ...args) => {
      advances[i] += 1;
      if (fail.advance?.[i] === advances[i]) throw new Error(`actor ${i} died`);
      return actors[i].advance(...args);
    },
  };
}

describe('swarm rollouts', () => {
  let sub: FrozenSubagent;
  const inference = () => new CentralInference(new MaskedActorCritic([16], 1), sub, sub, new Rng(9));
  beforeAll(async () => {
    await chooseBackend({ preferred: 'cpu' });
    sub = new FrozenSubagent(await loadSubagentCheckpoint('small'), 'small');
  });
  afterAll(() => sub.dispose());

  it('returns every episode by actor then slot, one decision per stage, with the serial twin', async () => {
    const lost: unknown[] = [];
    const r = await collectSwarmRollouts(localActors(2), inference(), { update: 0, episodesPerActor: 3, serialTwin: true }, (...x) => lost.push(x));
    expect(lost).toEqual([]);
    expect(r.episodes.map((e) => [e.actorIndex, e.slot])).toEqual([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]);
    for (const e of r.episodes) {
      // Each orchestrator decision opens one stage (assign, direct or finish).
      expect(e.decisions.length).toBe(e.log.stages.length);
      expect(e.log.finished).toBe(true);
      for (const d of e.decisions) expect(d.obs.length).toBe(ORCH_OBS_DIM);
    }
    expect(r.serialLog?.nAssigned).toBe(0);
    expect(r.actorSteps.every((n) => n > 0)).toBe(true);
    expect(r.steps).toBe(r.actorSteps[0] + r.actorSteps[1]);
  });

  it("drops an actor's episodes when a call fails, and says so", async () => {
    const lost: [number, string | null][] = [];
    const r = await collectSwarmRollouts(localActors(3, { start: 2, advance: { 1: 2 } }), inference(), { update: 1, episodesPerActor: 2, serialTwin: false }, (i, notice) => lost.push([i, notice]));
    // Actor 2 never started (the pool reports the death itself); actor 1 died on its second advance.
    expect(lost.map(([i]) => i)).toEqual([2, 1]);
    expect(lost[0][1]).toBeNull();
    expect(lost[1][1]).toMatch(/Lost the episodes of actor 1 this update: actor 1 died/);
    expect(r.episodes.map((e) => [e.actorIndex, e.slot])).toEqual([[0, 0], [0, 1]]);
    expect(r.serialLog).toBeNull();
    // The lost actor's steps before its death were still simulated.
    expect(r.actorSteps[1]).toBeGreaterThan(0);
    expect(r.actorSteps[2]).toBe(0);
  });
});
