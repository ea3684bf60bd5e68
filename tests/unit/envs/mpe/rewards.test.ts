/**
 * Rewards against the scenario equations, from hand-placed worlds. Velocities are zero after a
 * reset and positions move with the old velocity, so the first step keeps the placed positions.
 */
import { describe, expect, it } from 'vitest';
import { makeMpeEnv } from '../../../../src/envs/mpe/registry';
import { tagBound } from '../../../../src/envs/mpe/simpleTag';
import type { MpeEnv } from '../../../../src/envs/mpe/mpeEnv';

function place(env: MpeEnv, name: string, x: number, y: number): void {
  const e = env.world.entities.find((en) => en.name === name);
  if (!e) throw new Error(`no entity ${name}`);
  e.pos[0] = x;
  e.pos[1] = y;
  e.vel.fill(0);
}

function spreadWorld(localRatio?: number): MpeEnv {
  const env = makeMpeEnv('simple_spread_v3', localRatio === undefined ? {} : { localRatio });
  env.reset({ seed: 0 });
  place(env, 'agent_0', 0, 0);
  place(env, 'agent_1', 0.2, 0); // touches agent_0 (0.2 < 0.3)
  place(env, 'agent_2', 1, 1);
  place(env, 'landmark 0', 0, 0.5);
  place(env, 'landmark 1', 0.5, 0);
  place(env, 'landmark 2', -1, -1);
  return env;
}

describe('simple_spread rewards', () => {
  // Nearest agent per landmark, by hand: l0 ← agent_0 at 0.5; l1 ← agent_1 at 0.3; l2 ← agent_0 at √2.
  const G = -(0.5 + 0.3 + Math.SQRT2);
  const L = { agent_0: -1, agent_1: -1, agent_2: 0 };

  it('mixes the global coverage reward and the collision penalty with local ratio 0.5', () => {
    const r = spreadWorld().step({ agent_0: 0, agent_1: 0, agent_2: 0 });
    for (const [a, l] of Object.entries(L)) expect(r.rewards[a]).toBeCloseTo(0.5 * G + 0.5 * l, 6);
    expect(r.infos.agent_0).toMatchObject({ collisions: 1, occupiedLandmarks: 0 });
    expect(r.infos.agent_2).toMatchObject({ collisions: 0 });
  });

  it('follows other local ratios: r = (1 − λ)·G + λ·L', () => {
    for (const lam of [0, 0.25, 1]) {
      const r = spreadWorld(lam).step({ agent_0: 0, agent_1: 0, agent_2: 0 });
      for (const [a, l] of Object.entries(L)) expect(r.rewards[a]).toBeCloseTo((1 - lam) * G + lam * l, 6);
    }
    expect(() => makeMpeEnv('simple_spread_v3', { localRatio: 1.5 })).toThrow(/localRatio/);
  });

  it('counts a landmark as occupied within 0.1', () => {
    const env = spreadWorld();
    place(env, 'landmark 2', 1.05, 1); // 0.05 from agent_2
    const r = env.step({ agent_0: 0, agent_1: 0, agent_2: 0 });
    expect(r.infos.agent_2).toMatchObject({ occupiedLandmarks: 1 });
  });
});

describe('simple_tag rewards', () => {
  function tagWorld(): MpeEnv {
    const env = makeMpeEnv('simple_tag_v3');
    env.reset({ seed: 0 });
    place(env, 'agent_0', 0.95, 1.2);
    place(env, 'adversary_0', 0.95, 1.1); // 0.1 < 0.05 + 0.075: caught
    place(env, 'adversary_1', 1.05, 1.2); // 0.1: caught
    place(env, 'adversary_2', -0.5, -0.5);
    place(env, 'landmark 0', -0.8, 0.8);
    place(env, 'landmark 1', 0, -0.9);
    return env;
  }

  it('gives every adversary +10 per (prey, adversary) contact and the prey −10 per contact plus the bound penalty', () => {
    const r = tagWorld().step({ adversary_0: 0, adversary_1: 0, adversary_2: 0, agent_0: 0 });
    // bound(0.95) = (0.95 − 0.9)·10 = 0.5;  bound(1.2) = min(e^{0.4}, 10)
    const prey = -10 * 2 - 0.5 - Math.exp(0.4);
    expect(r.rewards.agent_0).toBeCloseTo(prey, 6);
    for (const a of ['adversary_0', 'adversary_1', 'adversary_2']) expect(r.rewards[a]).toBe(20);
    expect(r.infos.adversary_0).toEqual({ collisions: 1 });
    expect(r.infos.adversary_2).toEqual({ collisions: 0 });
  });

  it('has the piecewise bound: 0 inside 0.9, linear to 1, then e^{2x−2} capped at 10', () => {
    expect(tagBound(0.5)).toBe(0);
    expect(tagBound(0.899)).toBe(0);
    expect(tagBound(0.95)).toBeCloseTo(0.5, 12);
    expect(tagBound(1.0)).toBe(1);
    expect(tagBound(1.5)).toBeCloseTo(Math.E, 12);
    expect(tagBound(3)).toBe(10);
  });

  it('gives the prey only the bound penalty when nobody touches it', () => {
    const env = tagWorld();
    place(env, 'adversary_0', -0.2, 0.3);
    place(env, 'adversary_1', 0.3, -0.2);
    const r = env.step({ adversary_0: 0, adversary_1: 0, adversary_2: 0, agent_0: 0 });
    expect(r.rewards.agent_0).toBeCloseTo(-0.5 - Math.exp(0.4), 6);
    expect(r.rewards.adversary_1).toBe(0);
  });
});

describe('simple_speaker_listener', () => {
  it('rewards both agents with −‖p_listener − p_goal‖² and passes the spoken symbol to the listener', () => {
    const env = makeMpeEnv('simple_speaker_listener_v4');
    env.reset({ seed: 5 });
    const speaker = env.world.agents[0];
    const goal = speaker.goalB;
    if (!goal) throw new Error('goal not set');
    const goalIndex = env.world.landmarks.indexOf(goal);
    place(env, 'listener_0', 0.1, -0.2);
    place(env, goal.name, 0.4, 0.2); // distance² = 0.09 + 0.16 = 0.25
    const r = env.step({ speaker_0: 2, listener_0: 0 });
    expect(r.rewards.speaker_0).toBeCloseTo(-0.25, 12);
    expect(r.rewards.listener_0).toBeCloseTo(-0.25, 12);
    // listener obs: [v (2), landmarks (6), speaker's message (3)]
    expect(Array.from(r.obs.listener_0.slice(8))).toEqual([0, 0, 1]);
    // speaker obs: the goal landmark's colour
    const colours = [
      [0.65, 0.15, 0.15],
      [0.15, 0.65, 0.15],
      [0.15, 0.15, 0.65],
    ];
    expect(Array.from(r.obs.speaker_0)).toEqual(colours[goalIndex].map(Math.fround));
    expect(env.world.agents[1].color.map((c, i) => c - colours[goalIndex][i]).every((d) => Math.abs(d - 0.45) < 1e-12)).toBe(true);
  });

  it('keeps the speaker fixed and moves the listener', () => {
    const env = makeMpeEnv('simple_speaker_listener_v4');
    env.reset({ seed: 6 });
    const sp = Array.from(env.world.agents[0].pos);
    env.step({ speaker_0: 0, listener_0: 4 });
    const r = env.step({ speaker_0: 1, listener_0: 4 });
    expect(Array.from(env.world.agents[0].pos)).toEqual(sp);
    expect(r.obs.listener_0[1]).toBe(Math.fround(0.5 * 0.75 + 0.5));
    expect(Array.from(r.obs.listener_0.slice(8))).toEqual([0, 1, 0]);
  });
});
