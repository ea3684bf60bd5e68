import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/core/rng';
import { makeMpeEnv, MPE_ENV_IDS } from '../../../../src/envs/mpe/registry';
import type { MpeEnv } from '../../../../src/envs/mpe/mpeEnv';
import type { MpeAction } from '../../../../src/envs/mpe/types';

function randomJoint(env: MpeEnv, rng: Rng): Record<string, MpeAction> {
  const out: Record<string, MpeAction> = {};
  for (const a of env.possibleAgents) {
    const s = env.actionSpace(a);
    out[a] = s.kind === 'discrete' ? rng.int(s.n) : Float32Array.from({ length: s.shape[0] }, () => rng.uniform());
  }
  return out;
}

describe('MPE spaces and observation layout', () => {
  it('has PettingZoo agents, observation lengths and action spaces', () => {
    const cases: [string, Record<string, [number, number, number]>][] = [
      // agent: [obs length, Discrete n, Box length]
      ['simple_spread_v3', { agent_0: [18, 5, 5], agent_1: [18, 5, 5], agent_2: [18, 5, 5] }],
      ['simple_tag_v3', { adversary_0: [16, 5, 5], adversary_1: [16, 5, 5], adversary_2: [16, 5, 5], agent_0: [14, 5, 5] }],
      ['simple_speaker_listener_v4', { speaker_0: [3, 3, 3], listener_0: [11, 5, 5] }],
    ];
    for (const [id, agents] of cases) {
      const d = makeMpeEnv(id);
      const c = makeMpeEnv(id, { continuousActions: true });
      expect(d.possibleAgents).toEqual(Object.keys(agents));
      let total = 0;
      for (const [a, [obs, n, box]] of Object.entries(agents)) {
        expect(d.observationSpace(a).shape).toEqual([obs]);
        expect(d.actionSpace(a)).toEqual({ kind: 'discrete', n });
        const cs = c.actionSpace(a);
        expect(cs.kind === 'box' && cs.shape[0]).toBe(box);
        expect(cs.kind === 'box' && Array.from(cs.high)).toEqual(new Array(box).fill(1));
        total += obs;
      }
      expect(d.stateSpace.shape).toEqual([total]);
      expect(d.reset({ seed: 1 }).obs[d.possibleAgents[0]].length).toBe(agents[d.possibleAgents[0]][0]);
    }
    expect(MPE_ENV_IDS).toEqual(['simple_spread_v3', 'simple_tag_v3', 'simple_speaker_listener_v4']);
  });

  it('orders simple_spread observations as [v, p, landmarks − p, others − p, others comm]', () => {
    const env = makeMpeEnv('simple_spread_v3');
    const { obs } = env.reset({ seed: 9 });
    const [a0, a1, a2] = env.world.agents;
    const ls = env.world.landmarks;
    const expected = [
      0,
      0,
      a1.pos[0],
      a1.pos[1],
      ...ls.flatMap((l) => [l.pos[0] - a1.pos[0], l.pos[1] - a1.pos[1]]),
      a0.pos[0] - a1.pos[0],
      a0.pos[1] - a1.pos[1],
      a2.pos[0] - a1.pos[0],
      a2.pos[1] - a1.pos[1],
      0,
      0,
      0,
      0,
    ].map(Math.fround);
    expect(Array.from(obs.agent_1)).toEqual(expected);
  });

  it('orders simple_tag observations as [v, p, landmarks − p, others − p, prey velocities]', () => {
    const env = makeMpeEnv('simple_tag_v3');
    env.reset({ seed: 2 });
    const r = env.step({ adversary_0: 1, adversary_1: 2, adversary_2: 3, agent_0: 4 });
    const [d0, d1, d2, prey] = env.world.agents;
    const ls = env.world.landmarks;
    const rel = (e: { pos: Float64Array }, o: { pos: Float64Array }) => [e.pos[0] - o.pos[0], e.pos[1] - o.pos[1]];
    const adv1 = [...d1.vel, ...d1.pos, ...ls.flatMap((l) => rel(l, d1)), ...rel(d0, d1), ...rel(d2, d1), ...rel(prey, d1), ...prey.vel];
    expect(Array.from(r.obs.adversary_1)).toEqual(adv1.map(Math.fround));
    const good = [...prey.vel, ...prey.pos, ...ls.flatMap((l) => rel(l, prey)), ...rel(d0, prey), ...rel(d1, prey), ...rel(d2, prey)];
    expect(Array.from(r.obs.agent_0)).toEqual(good.map(Math.fround));
    // prey moved +y with accel 4: v = 0.4; adversary_1 moved +x with accel 3: v = 0.3
    expect(prey.vel[1]).toBeCloseTo(0.4, 1);
    expect(r.obs.adversary_1[0]).toBeGreaterThan(0.2);
  });

  it('state() is the concatenation of the observations in agent order', () => {
    const env = makeMpeEnv('simple_tag_v3');
    const { obs } = env.reset({ seed: 4 });
    const state = env.state();
    expect(Array.from(state)).toEqual(env.possibleAgents.flatMap((a) => Array.from(obs[a])));
  });
});

describe('MPE episodes', () => {
  it('truncates every agent after 25 steps and then refuses to step', () => {
    for (const id of MPE_ENV_IDS) {
      const env = makeMpeEnv(id);
      env.reset({ seed: 3 });
      expect(env.agents).toEqual(env.possibleAgents);
      const rng = new Rng(1);
      for (let t = 1; t <= 25; t++) {
        const r = env.step(randomJoint(env, rng));
        for (const a of env.possibleAgents) {
          expect(r.truncations[a]).toBe(t === 25);
          expect(r.terminations[a]).toBe(false);
        }
      }
      expect(env.agents).toEqual([]);
      expect(() => env.step(randomJoint(env, rng))).toThrow(/episode ended/);
      env.reset();
      expect(env.agents).toEqual(env.possibleAgents);
    }
    const short = makeMpeEnv('simple_spread_v3', { maxCycles: 3 });
    short.reset();
    short.step({ agent_0: 0, agent_1: 0, agent_2: 0 });
    short.step({ agent_0: 0, agent_1: 0, agent_2: 0 });
    expect(short.step({ agent_0: 0, agent_1: 0, agent_2: 0 }).truncations.agent_0).toBe(true);
  });

  it('replays the same episode from the same seed, and differs for another seed', () => {
    for (const id of MPE_ENV_IDS) {
      for (const continuousActions of [false, true]) {
        const run = (seed: number) => {
          const env = makeMpeEnv(id, { continuousActions });
          const out: number[] = Array.from(env.reset({ seed }).obs[env.possibleAgents[0]]);
          const rng = new Rng(7);
          for (let t = 0; t < 25; t++) {
            const r = env.step(randomJoint(env, rng));
            for (const a of env.possibleAgents) out.push(...r.obs[a], r.rewards[a]);
          }
          return out;
        };
        expect(run(11)).toEqual(run(11));
        expect(run(11)).not.toEqual(run(12));
      }
    }
  });

  it('continues its own stream on reset() without a seed', () => {
    const env = makeMpeEnv('simple_spread_v3', { seed: 5 });
    const a = env.reset().obs.agent_0;
    const b = env.reset().obs.agent_0;
    expect(Array.from(a)).not.toEqual(Array.from(b));
    expect(Array.from(makeMpeEnv('simple_spread_v3').reset({ seed: 5 }).obs.agent_0)).toEqual(Array.from(a));
  });

  it('draws initial positions in PettingZoo ranges', () => {
    const env = makeMpeEnv('simple_tag_v3');
    for (let s = 0; s < 50; s++) {
      env.reset({ seed: s });
      for (const a of env.world.agents) for (const x of a.pos) expect(Math.abs(x)).toBeLessThan(1);
      for (const l of env.world.landmarks) for (const x of l.pos) expect(Math.abs(x)).toBeLessThan(0.9);
    }
  });
});

describe('MPE bad joint actions', () => {
  it('names the missing, unknown or malformed agent', () => {
    const env = makeMpeEnv('simple_spread_v3');
    env.reset({ seed: 0 });
    expect(() => env.step({ agent_0: 0, agent_1: 0 })).toThrow(/missing agent "agent_2"/);
    expect(() => env.step({ agent_0: 0, agent_1: 0, agent_2: 0, agent_9: 1 })).toThrow(/unknown agent "agent_9"/);
    expect(() => env.step({ agent_0: 0, agent_1: 5, agent_2: 0 })).toThrow(/agent "agent_1" must be an integer in \[0, 4\], got 5/);
    expect(() => env.step({ agent_0: 0, agent_1: 1.5, agent_2: 0 })).toThrow(/agent "agent_1"/);
    expect(() => env.step({ agent_0: new Float32Array(5), agent_1: 0, agent_2: 0 })).toThrow(/agent "agent_0" must be a number/);
    expect(env.elapsedSteps).toBe(0); // nothing was applied

    const c = makeMpeEnv('simple_speaker_listener_v4', { continuousActions: true });
    c.reset({ seed: 0 });
    expect(() => c.step({ speaker_0: new Float32Array(3), listener_0: new Float32Array(3) })).toThrow(
      /agent "listener_0" has length 3, expected 5/,
    );
    expect(() => c.step({ speaker_0: 1, listener_0: new Float32Array(5) })).toThrow(/agent "speaker_0" must be an array of length 3/);
    expect(() => c.step({ speaker_0: new Float32Array([0, NaN, 0]), listener_0: new Float32Array(5) })).toThrow(
      /agent "speaker_0" has a non-finite value/,
    );
    expect(() => makeMpeEnv('simple_tag_v3').step({})).toThrow(/before reset/);
    expect(() => makeMpeEnv('simple_nothing_v1')).toThrow(/Unknown MPE env id/);
    expect(() => makeMpeEnv('simple_tag_v3', { n: 4 })).toThrow(/n do not apply/);
  });
});

describe('MPE render description', () => {
  it('lists agents and landmarks with positions, sizes, colours and the speaker message', () => {
    const env = makeMpeEnv('simple_speaker_listener_v4');
    env.reset({ seed: 1 });
    let frame = env.render();
    expect(frame.entities.map((e) => [e.name, e.kind, e.role, e.size])).toEqual([
      ['speaker_0', 'agent', 'speaker', 0.075],
      ['listener_0', 'agent', 'listener', 0.075],
      ['landmark 0', 'landmark', 'landmark', 0.04],
      ['landmark 1', 'landmark', 'landmark', 0.04],
      ['landmark 2', 'landmark', 'landmark', 0.04],
    ]);
    expect(frame.entities.filter((e) => e.isGoal).map((e) => e.name)).toEqual([env.world.agents[0].goalB?.name]);
    expect(frame.messages).toEqual([{ from: 'speaker_0', word: '_', values: [0, 0, 0] }]);
    expect(frame.entities[1].x).toBe(env.world.agents[1].pos[0]);
    env.step({ speaker_0: 1, listener_0: 0 });
    frame = env.render();
    expect(frame.messages[0].word).toBe('B');
    expect(frame.step).toBe(1);
    expect(frame.camRange).toBe(Math.max(...frame.entities.flatMap((e) => [Math.abs(e.x), Math.abs(e.y)])));
    // plain data: survives structured cloning / JSON
    expect(JSON.parse(JSON.stringify(frame))).toEqual(frame);

    const cont = makeMpeEnv('simple_speaker_listener_v4', { continuousActions: true });
    cont.reset({ seed: 1 });
    cont.step({ speaker_0: new Float32Array([0.5, 0, 0.25]), listener_0: new Float32Array(5) });
    expect(cont.render().messages[0].word).toBe('[0.50,0.00,0.25]');

    const tag = makeMpeEnv('simple_tag_v3');
    tag.reset({ seed: 1 });
    const roles = tag.render().entities.map((e) => [e.role, e.color]);
    expect(roles.slice(0, 4)).toEqual([
      ['adversary', [0.85, 0.35, 0.35]],
      ['adversary', [0.85, 0.35, 0.35]],
      ['adversary', [0.85, 0.35, 0.35]],
      ['good', [0.35, 0.85, 0.35]],
    ]);
    expect(tag.render().messages).toEqual([]);
  });
});
