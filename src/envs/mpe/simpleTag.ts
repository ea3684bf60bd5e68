/**
 * simple_tag_v3 (PettingZoo scenarios/simple_tag.py): predators ("adversary_i": size 0.075,
 * accel 3, max speed 1.0) chase prey ("agent_i": size 0.05, accel 4, max speed 1.3) around
 * obstacles (landmarks: size 0.2, colliding, fixed, placed in [−0.9, 0.9]²).
 *
 * Rewards after each step (unshaped, as in PettingZoo):
 *   adversary: +10 · #{(prey, adversary) pairs in contact}          (the same for every adversary)
 *   prey:      −10 · #{adversaries touching it} − Σ_{d ∈ {x, y}} bound(|p_d|),
 *              bound(x) = 0 if x < 0.9;  (x − 0.9) · 10 if x < 1;  min(e^(2x − 2), 10) otherwise
 * Observation: [v_i, p_i, (p_l − p_i) per landmark, (p_j − p_i) per other agent, v_j per other PREY]
 * (16 for an adversary, 14 for the prey with the defaults 1 prey, 3 adversaries, 2 obstacles).
 */
import { exp } from '../../core/portableMath';
import type { Rng } from '../../core/rng';
import { Agent, Landmark, World, isCollision } from './core';
import type { MetricSpec, Scenario } from './scenario';

export const SIMPLE_TAG = {
  id: 'simple_tag_v3',
  defaultNumGood: 1,
  defaultNumAdversaries: 3,
  defaultNumObstacles: 2,
  dimC: 2,
  adversary: { size: 0.075, accel: 3.0, maxSpeed: 1.0, color: [0.85, 0.35, 0.35] as const },
  good: { size: 0.05, accel: 4.0, maxSpeed: 1.3, color: [0.35, 0.85, 0.35] as const },
  landmark: { size: 0.2, range: 0.9, color: [0.25, 0.25, 0.25] as const },
  catchReward: 10,
} as const;

export interface SimpleTagOptions {
  numGood?: number;
  numAdversaries?: number;
  numObstacles?: number;
}

/** The prey's penalty for one coordinate's distance from the centre. */
export function tagBound(x: number): number {
  if (x < 0.9) return 0;
  if (x < 1.0) return (x - 0.9) * 10;
  return Math.min(exp(2 * x - 2), 10);
}

export class SimpleTagScenario implements Scenario {
  readonly id = SIMPLE_TAG.id;
  readonly numGood: number;
  readonly numAdversaries: number;
  readonly numObstacles: number;
  readonly metrics: readonly MetricSpec[] = [{ name: 'catches', aggregate: 'sum' }];

  constructor(options: SimpleTagOptions = {}) {
    this.numGood = options.numGood ?? SIMPLE_TAG.defaultNumGood;
    this.numAdversaries = options.numAdversaries ?? SIMPLE_TAG.defaultNumAdversaries;
    this.numObstacles = options.numObstacles ?? SIMPLE_TAG.defaultNumObstacles;
    const check = (name: string, v: number, min: number) => {
      if (!Number.isInteger(v) || v < min) throw new Error(`simple_tag: ${name} must be an integer >= ${min}, got ${v}`);
    };
    check('numGood', this.numGood, 1);
    check('numAdversaries', this.numAdversaries, 1);
    check('numObstacles', this.numObstacles, 0);
  }

  makeWorld(): World {
    const agents: Agent[] = [];
    const total = this.numGood + this.numAdversaries;
    for (let i = 0; i < total; i++) {
      const a = new Agent(SIMPLE_TAG.dimC);
      a.adversary = i < this.numAdversaries;
      a.name = a.adversary ? `adversary_${i}` : `agent_${i - this.numAdversaries}`;
      a.role = a.adversary ? 'adversary' : 'good';
      const p = a.adversary ? SIMPLE_TAG.adversary : SIMPLE_TAG.good;
      a.collide = true;
      a.silent = true;
      a.size = p.size;
      a.accel = p.accel;
      a.maxSpeed = p.maxSpeed;
      agents.push(a);
    }
    const landmarks: Landmark[] = [];
    for (let i = 0; i < this.numObstacles; i++) {
      const l = new Landmark();
      l.name = `landmark ${i}`;
      l.collide = true;
      l.movable = false;
      l.size = SIMPLE_TAG.landmark.size;
      landmarks.push(l);
    }
    return new World(SIMPLE_TAG.dimC, agents, landmarks);
  }

  resetWorld(world: World, rng: Rng): void {
    for (const a of world.agents) a.color = a.adversary ? SIMPLE_TAG.adversary.color : SIMPLE_TAG.good.color;
    for (const l of world.landmarks) l.color = SIMPLE_TAG.landmark.color;
    for (const a of world.agents) {
      a.pos[0] = rng.uniformRange(-1, 1);
      a.pos[1] = rng.uniformRange(-1, 1);
      a.vel.fill(0);
      a.comm.fill(0);
    }
    const r = SIMPLE_TAG.landmark.range;
    for (const l of world.landmarks) {
      l.pos[0] = rng.uniformRange(-r, r);
      l.pos[1] = rng.uniformRange(-r, r);
      l.vel.fill(0);
    }
  }

  reward(agent: Agent, world: World): number {
    return agent.adversary ? this.adversaryReward(agent, world) : this.agentReward(agent, world);
  }

  private agentReward(agent: Agent, world: World): number {
    let rew = 0;
    if (agent.collide) {
      for (const a of world.agents) if (a.adversary && isCollision(a, agent)) rew -= SIMPLE_TAG.catchReward;
    }
    for (let d = 0; d < world.dimP; d++) rew -= tagBound(Math.abs(agent.pos[d]));
    return rew;
  }

  private adversaryReward(agent: Agent, world: World): number {
    return agent.collide ? SIMPLE_TAG.catchReward * countCatches(world) : 0;
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
      if (o === agent || o.adversary) continue;
      out[k++] = o.vel[0];
      out[k++] = o.vel[1];
    }
    return k - offset;
  }

  agentInfo(agent: Agent, world: World): Record<string, number> {
    // benchmark_data: an adversary's collisions with prey; 0 for prey.
    if (!agent.adversary) return { collisions: 0 };
    let collisions = 0;
    for (const a of world.agents) if (!a.adversary && isCollision(a, agent)) collisions++;
    return { collisions };
  }

  measure(world: World, out: Float64Array): void {
    out[0] = countCatches(world);
  }
}

/** Number of (prey, adversary) pairs in contact. */
function countCatches(world: World): number {
  let n = 0;
  for (const g of world.agents) {
    if (g.adversary) continue;
    for (const a of world.agents) if (a.adversary && isCollision(g, a)) n++;
  }
  return n;
}
