/**
 * simple_spread_v3 (PettingZoo scenarios/simple_spread.py): N agents (size 0.15, silent, colliding)
 * must cover N landmarks (not colliding, not movable).
 *
 * Reward of agent i after each step, with local ratio λ (default 0.5):
 *   r_i = (1 − λ) · G + λ · L_i,
 *   G   = −Σ_landmarks min_agents ‖p_agent − p_landmark‖        (global)
 *   L_i = −#{ j ≠ i : ‖p_i − p_j‖ < s_i + s_j }                 (local collision penalty)
 * Observation of agent i (length 4N + 2(N−1)·2 = 6N, 18 for N = 3):
 *   [v_i, p_i, (p_l − p_i) for each landmark, (p_j − p_i) for each other agent, c_j for each other agent]
 * (the c_j of silent agents are zeros, dim_c = 2).
 */
import type { Rng } from '../../core/rng';
import { Agent, Landmark, World, distance, isCollision } from './core';
import type { MetricSpec, Scenario } from './scenario';

export const SIMPLE_SPREAD = {
  id: 'simple_spread_v3',
  defaultN: 3,
  defaultLocalRatio: 0.5,
  dimC: 2,
  agentSize: 0.15,
  agentColor: [0.35, 0.35, 0.85] as const,
  landmarkColor: [0.25, 0.25, 0.25] as const,
  /** benchmark_data: a landmark counts as occupied when an agent is closer than this. */
  occupiedDistance: 0.1,
} as const;

export class SimpleSpreadScenario implements Scenario {
  readonly id = SIMPLE_SPREAD.id;
  readonly metrics: readonly MetricSpec[] = [
    { name: 'collisions', aggregate: 'sum' },
    { name: 'occupiedLandmarks', aggregate: 'last' },
    { name: 'minDistSum', aggregate: 'last' },
  ];

  constructor(readonly n: number = SIMPLE_SPREAD.defaultN) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`simple_spread: N must be a positive integer, got ${n}`);
  }

  makeWorld(): World {
    const agents: Agent[] = [];
    for (let i = 0; i < this.n; i++) {
      const a = new Agent(SIMPLE_SPREAD.dimC);
      a.name = `agent_${i}`;
      a.collide = true;
      a.silent = true;
      a.size = SIMPLE_SPREAD.agentSize;
      agents.push(a);
    }
    const landmarks: Landmark[] = [];
    for (let i = 0; i < this.n; i++) {
      const l = new Landmark();
      l.name = `landmark ${i}`;
      l.collide = false;
      l.movable = false;
      landmarks.push(l);
    }
    return new World(SIMPLE_SPREAD.dimC, agents, landmarks);
  }

  resetWorld(world: World, rng: Rng): void {
    for (const a of world.agents) a.color = SIMPLE_SPREAD.agentColor;
    for (const l of world.landmarks) l.color = SIMPLE_SPREAD.landmarkColor;
    for (const a of world.agents) {
      a.pos[0] = rng.uniformRange(-1, 1);
      a.pos[1] = rng.uniformRange(-1, 1);
      a.vel.fill(0);
      a.comm.fill(0);
    }
    for (const l of world.landmarks) {
      l.pos[0] = rng.uniformRange(-1, 1);
      l.pos[1] = rng.uniformRange(-1, 1);
      l.vel.fill(0);
    }
  }

  reward(agent: Agent, world: World): number {
    let rew = 0;
    if (agent.collide) {
      for (const a of world.agents) if (a !== agent && isCollision(a, agent)) rew -= 1;
    }
    return rew;
  }

  globalReward(world: World): number {
    let rew = 0;
    for (const l of world.landmarks) rew -= minAgentDistance(world, l);
    return rew;
  }

  observation(agent: Agent, world: World, out: Float32Array, offset: number): number {
    let k = offset;
    out[k++] = agent.vel[0];
    out[k++] = agent.vel[1];
    out[k++] = agent.pos[0];
    out[k++] = agent.pos[1];
    for (const l of world.landmarks) {
      out[k++] = l.pos[0] - agent.pos[0];
      out[k++] = l.pos[1] - agent.pos[1];
    }
    for (const o of world.agents) {
      if (o === agent) continue;
      out[k++] = o.pos[0] - agent.pos[0];
      out[k++] = o.pos[1] - agent.pos[1];
    }
    for (const o of world.agents) {
      if (o === agent) continue;
      for (let c = 0; c < o.comm.length; c++) out[k++] = o.comm[c];
    }
    return k - offset;
  }

  agentInfo(agent: Agent, world: World): Record<string, number> {
    let collisions = 0;
    for (const a of world.agents) if (a !== agent && isCollision(a, agent)) collisions += 1;
    return { collisions, ...this.coverage(world) };
  }

  measure(world: World, out: Float64Array): void {
    let pairs = 0;
    const as = world.agents;
    for (let i = 0; i < as.length; i++) for (let j = i + 1; j < as.length; j++) if (isCollision(as[i], as[j])) pairs++;
    const c = this.coverage(world);
    out[0] = pairs;
    out[1] = c.occupiedLandmarks;
    out[2] = c.minDistSum;
  }

  private coverage(world: World): { occupiedLandmarks: number; minDistSum: number } {
    let occupiedLandmarks = 0;
    let minDistSum = 0;
    for (const l of world.landmarks) {
      const d = minAgentDistance(world, l);
      minDistSum += d;
      if (d < SIMPLE_SPREAD.occupiedDistance) occupiedLandmarks += 1;
    }
    return { occupiedLandmarks, minDistSum };
  }
}

function minAgentDistance(world: World, l: Landmark): number {
  let best = Infinity;
  for (const a of world.agents) best = Math.min(best, distance(a, l));
  return best;
}

/**
 * The parts one step's simple_spread rewards are made of, after the step: the global term
 *   G = −Σ_landmarks min_agents ‖p_agent − p_landmark‖
 * and each agent's count of OTHER agents it overlaps, c_i = #{ j ≠ i : ‖p_i − p_j‖ < s_i + s_j }.
 * PettingZoo's reward is r_i = (1 − λ)·G − λ·c_i (see the header).
 */
export interface SpreadRewardParts {
  global: number;
  collisions: number[];
}

export function spreadRewardParts(world: World): SpreadRewardParts {
  let global = 0;
  for (const l of world.landmarks) global -= minAgentDistance(world, l);
  const collisions = world.agents.map((agent) => world.agents.filter((a) => a !== agent && isCollision(a, agent)).length);
  return { global, collisions };
}

/**
 * One step's team reward as EPyMARL (Papoudakis et al. 2021) counted it, from the parts. Their
 * MPE fork (semitable/multiagent-particle-envs, scenarios/simple_spread.py `reward`) gives agent i
 *   r_i = G − #{ j : ‖p_i − p_j‖ < s_i + s_j },  j = i included (distance 0 < 0.3: always −1)
 *       = G − c_i − 1,
 * its MultiAgentEnv.step shares the reward (world.collaborative): every agent receives Σ_i r_i, and
 * EPyMARL's gymma wrapper (first commit, `float(sum(reward))`) sums that list over the N agents:
 *   R_epymarl = N · Σ_i r_i = N · (N·G − Σ_i c_i − N).
 * `sharedOnce` is Σ_i r_i, the shared reward counted once (what one agent of the fork receives).
 */
export function epymarlSpreadReward(parts: SpreadRewardParts): { sharedOnce: number; epymarl: number } {
  const n = parts.collisions.length;
  const sharedOnce = n * parts.global - parts.collisions.reduce((a, b) => a + b, 0) - n;
  return { sharedOnce, epymarl: n * sharedOnce };
}
