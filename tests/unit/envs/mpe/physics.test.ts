/**
 * The particle physics against PettingZoo's core.py equations (v3 order):
 *   p' = p + v·dt;  v' = v·(1 − damping) + (F/m)·dt, clipped to max_speed;  dt 0.1, damping 0.25, m 1
 *   F  = u·sensitivity + Σ contact,  contact = 100 · Δp/‖Δp‖ · 1e-3 · softplus(−(‖Δp‖ − (s_a + s_b)) / 1e-3)
 * Expected values are worked out here from those equations.
 */
import { describe, expect, it } from 'vitest';
import { makeMpeEnv } from '../../../../src/envs/mpe/registry';
import { Agent, Landmark, World, softplus } from '../../../../src/envs/mpe/core';
import type { MpeEnv } from '../../../../src/envs/mpe/mpeEnv';

const f32 = Math.fround;

function place(env: MpeEnv, name: string, x: number, y: number): void {
  const e = env.world.entities.find((en) => en.name === name);
  if (!e) throw new Error(`no entity ${name}`);
  e.pos[0] = x;
  e.pos[1] = y;
  e.vel.fill(0);
}

describe('MPE physics', () => {
  it('moves one agent under a discrete action: force = u·5, v′ = 0.75v + F·0.1, p′ = p + v·dt', () => {
    const env = makeMpeEnv('simple_spread_v3', { n: 1 });
    env.reset({ seed: 1 });
    place(env, 'agent_0', 0.2, -0.3);
    // action 2 = +x: u = (+1, 0)·5
    let p = [0.2, -0.3];
    let v = [0, 0];
    for (let t = 0; t < 4; t++) {
      const r = env.step({ agent_0: 2 });
      p = [p[0] + v[0] * 0.1, p[1] + v[1] * 0.1];
      v = [v[0] * 0.75 + 5 * 0.1, v[1] * 0.75];
      const o = r.obs.agent_0;
      expect(o[0]).toBe(f32(v[0]));
      expect(o[1]).toBe(f32(v[1]));
      expect(o[2]).toBe(f32(p[0]));
      expect(o[3]).toBe(f32(p[1]));
    }
    // by hand: v = 0.5, 0.875, 1.15625, 1.3671875; p_x = 0.2, 0.25, 0.3375, 0.453125
    expect(v[0]).toBeCloseTo(1.3671875, 12);
    expect(p[0]).toBeCloseTo(0.453125, 12);
    // action 3 = −y now: the x velocity decays, the y velocity grows the other way
    const r = env.step({ agent_0: 3 });
    expect(r.obs.agent_0[0]).toBe(f32(1.3671875 * 0.75));
    expect(r.obs.agent_0[1]).toBe(f32(-0.5));
  });

  it('reads a continuous action as u = (a2 − a1, a4 − a3)·5, clipped to [0, 1] in float32', () => {
    const env = makeMpeEnv('simple_spread_v3', { n: 1, continuousActions: true });
    env.reset({ seed: 2 });
    place(env, 'agent_0', 0, 0);
    const a = new Float32Array([0.7, 0.2, 0.9, 1.5, -0.3]); // a3 → 1, a4 → 0
    const r = env.step({ agent_0: a });
    const ux = f32(f32(0.9) - f32(0.2)) * 5;
    const uy = f32(0 - 1) * 5;
    expect(r.obs.agent_0[0]).toBe(f32(ux * 0.1));
    expect(r.obs.agent_0[1]).toBe(f32(uy * 0.1));
  });

  it('uses the agent accel as sensitivity and clips the speed to max_speed (simple_tag prey)', () => {
    const env = makeMpeEnv('simple_tag_v3', { continuousActions: true });
    env.reset({ seed: 3 });
    place(env, 'adversary_0', -0.9, -0.9);
    place(env, 'adversary_1', -0.9, 0.9);
    place(env, 'adversary_2', 0.9, -0.9);
    place(env, 'agent_0', -3, -3); // far from everything, so no contact forces
    place(env, 'landmark 0', 0.5, 0.5);
    place(env, 'landmark 1', -0.5, 0.5);
    const none = new Float32Array(5);
    const diag = new Float32Array([0, 0, 1, 0, 1]); // u = (1, 1)·4
    let v = 0; // per axis
    let clipped = false;
    for (let t = 0; t < 8; t++) {
      const r = env.step({ adversary_0: none, adversary_1: none, adversary_2: none, agent_0: diag });
      v = v * 0.75 + 4 * 0.1;
      const speed = Math.sqrt(2 * v * v);
      if (speed > 1.3) {
        v = (v / speed) * 1.3;
        clipped = true;
      }
      expect(r.obs.agent_0[0]).toBeCloseTo(v, 6);
      expect(r.obs.agent_0[1]).toBeCloseTo(v, 6);
    }
    expect(clipped).toBe(true);
    expect(Math.hypot(env.world.agents[3].vel[0], env.world.agents[3].vel[1])).toBeCloseTo(1.3, 12);
  });

  it('pushes two overlapping agents apart with the softplus contact force', () => {
    const env = makeMpeEnv('simple_spread_v3', { n: 2 });
    env.reset({ seed: 4 });
    place(env, 'agent_0', 0, 0);
    place(env, 'agent_1', 0.2, 0); // dist 0.2 < 0.15 + 0.15
    place(env, 'landmark 0', 1, 1);
    place(env, 'landmark 1', -1, 1);
    const r = env.step({ agent_0: 0, agent_1: 0 });
    // penetration = 1e-3 · log(1 + e^{0.1/1e-3}) = 1e-3 · (100 + log1p(e^-100))
    const pen = 1e-3 * (100 + Math.log1p(Math.exp(-100)));
    const fa = ((100 * -0.2) / 0.2) * pen; // on agent_0, along −x
    expect(env.world.force(0)[0]).toBeCloseTo(fa, 12);
    expect(env.world.force(1)[0]).toBeCloseTo(-fa, 12);
    expect(r.obs.agent_0[0]).toBe(f32(fa * 0.1));
    expect(r.obs.agent_1[0]).toBe(f32(-fa * 0.1));
    expect(r.obs.agent_0[1]).toBe(0);
    // positions moved with the old (zero) velocity: unchanged this step
    expect(r.obs.agent_0[2]).toBe(0);
    expect(r.obs.agent_1[2]).toBe(f32(0.2));
    expect(fa).toBeCloseTo(-10, 9);
  });

  it('gives a tiny force just outside contact and none to a fixed landmark', () => {
    const world = new World(0, [new Agent(0)], [new Landmark()]);
    const [agent] = world.agents;
    const [landmark] = world.landmarks;
    agent.size = 0.05;
    landmark.size = 0.2;
    agent.pos.set([0, 0.26]); // gap 0.01 beyond 0.25
    landmark.pos.set([0, 0]);
    world.step();
    const pen = 1e-3 * Math.log1p(Math.exp(-0.01 / 1e-3));
    expect(world.force(0)[1]).toBeCloseTo(100 * pen, 15);
    expect(world.force(0)[1]).toBeGreaterThan(0);
    expect(world.force(1)).toEqual([0, 0]);
    expect(landmark.pos[1]).toBe(0);
    expect(agent.vel[1]).toBeCloseTo(100 * pen * 0.1, 15);
  });

  it('computes softplus like numpy logaddexp(0, x) without overflow', () => {
    expect(softplus(0)).toBeCloseTo(Math.LN2, 15);
    expect(softplus(1000)).toBe(1000);
    expect(softplus(-1000)).toBe(0);
    expect(softplus(2)).toBeCloseTo(Math.log(1 + Math.exp(2)), 14);
  });
});
