/**
 * simple_spread's reward parts and EPyMARL's team reward, from a hand-placed world and one step.
 * Velocities are zero after a reset and positions move with the old velocity, so the first step
 * keeps the placed positions (see rewards.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { epymarlSpreadReward, spreadRewardParts } from '../../../../src/envs/mpe';
import { makeMpeEnv } from '../../../../src/envs/mpe/registry';
import type { MpeEnv } from '../../../../src/envs/mpe/mpeEnv';

function place(env: MpeEnv, name: string, x: number, y: number): void {
  const e = env.world.entities.find((en) => en.name === name);
  if (!e) throw new Error(`no entity ${name}`);
  e.pos[0] = x;
  e.pos[1] = y;
  e.vel.fill(0);
}

describe("EPyMARL's simple_spread team reward", () => {
  it('one hand-computed step: parts, the fork’s shared reward and EPyMARL’s sum, beside PettingZoo’s', () => {
    const env = makeMpeEnv('simple_spread_v3');
    env.reset({ seed: 0 });
    place(env, 'agent_0', 0, 0);
    place(env, 'agent_1', 0.2, 0); // 0.2 < 0.15 + 0.15: agents 0 and 1 overlap
    place(env, 'agent_2', 1, 1);
    place(env, 'landmark 0', 0, 0);
    place(env, 'landmark 1', 1, 0);
    place(env, 'landmark 2', 1, 1);
    const r = env.step({ agent_0: 0, agent_1: 0, agent_2: 0 });
    // Nearest agent per landmark: l0 ← agent_0 at 0; l1 ← agent_1 at 0.8; l2 ← agent_2 at 0.
    const parts = spreadRewardParts(env.world);
    expect(parts.global).toBeCloseTo(-0.8, 6);
    expect(parts.collisions).toEqual([1, 1, 0]);
    // Fork: r_i = G − c_i − 1 (itself included) → −2.8, −2.8, −1.8; shared once Σ = −7.4; EPyMARL 3 × −7.4.
    const { sharedOnce, epymarl } = epymarlSpreadReward(parts);
    expect(sharedOnce).toBeCloseTo(-7.4, 6);
    expect(epymarl).toBeCloseTo(-22.2, 6);
    // PettingZoo (λ = 0.5): r_i = 0.5 G − 0.5 c_i → −0.9, −0.9, −0.4.
    expect(r.rewards.agent_0).toBeCloseTo(-0.9, 6);
    expect(r.rewards.agent_1).toBeCloseTo(-0.9, 6);
    expect(r.rewards.agent_2).toBeCloseTo(-0.4, 6);
  });

  it('after any step, the env’s PettingZoo rewards are (1 − λ)·G − λ·c_i of the same parts', () => {
    const env = makeMpeEnv('simple_spread_v3');
    env.reset({ seed: 7 });
    for (let t = 0; t < 25; t++) {
      const r = env.step({ agent_0: t % 5, agent_1: (t * 3) % 5, agent_2: (t * 2 + 1) % 5 });
      const parts = spreadRewardParts(env.world);
      ['agent_0', 'agent_1', 'agent_2'].forEach((a, i) => expect(r.rewards[a]).toBeCloseTo(0.5 * parts.global - 0.5 * parts.collisions[i], 5));
    }
  });
});
