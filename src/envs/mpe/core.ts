/**
 * The multi-agent particle world, a port of PettingZoo's pettingzoo/mpe/_mpe_utils/core.py
 * (release 1.25, the physics of simple_spread_v3, simple_tag_v3, simple_speaker_listener_v4).
 * Positions and velocities are float64, as in numpy; observations are cast to float32 later.
 *
 * One World.step, for every movable entity i (agents first, then landmarks, as `world.entities`):
 *   F_i   = u_i                                  (action force: action × sensitivity, set by the env)
 *         + Σ_j contact(i, j)                    (for pairs where both entities collide)
 *   contact(a, b) = c · (p_a − p_b)/‖p_a − p_b‖ · k · softplus(−(‖p_a − p_b‖ − (s_a + s_b)) / k),
 *                   c = contact_force = 100, k = contact_margin = 1e-3; +force on a, −force on b
 *   p_i  ← p_i + v_i · dt                        (v3 order: the position moves with the OLD velocity)
 *   v_i  ← v_i · (1 − damping) + (F_i / m_i) · dt,  damping 0.25, dt 0.1, m_i = 1
 *   v_i  ← v_i / ‖v_i‖ · max_speed               if max_speed is set and ‖v_i‖ > max_speed
 *   c_i  ← 0 for silent agents, else the communication action
 */
import { exp, log1p } from '../../core/portableMath';

export type Rgb = readonly [number, number, number];

export class Entity {
  name = '';
  size = 0.05;
  /** Can move / be pushed. */
  movable = false;
  /** Takes part in contact forces. */
  collide = true;
  color: Rgb = [0, 0, 0];
  maxSpeed: number | null = null;
  /** Action sensitivity; the env uses 5.0 when null. */
  accel: number | null = null;
  initialMass = 1.0;
  readonly pos = new Float64Array(2);
  readonly vel = new Float64Array(2);

  get mass(): number {
    return this.initialMass;
  }
}

export class Landmark extends Entity {}

export class Agent extends Entity {
  override movable = true;
  /** Cannot send communication signals. */
  silent = false;
  /** What the agent is, for views: 'agent', 'adversary', 'good', 'speaker', 'listener'. */
  role = 'agent';
  /** simple_tag: a predator. */
  adversary = false;
  /** speaker_listener: the agent that must reach `goalB` (set on the speaker). */
  goalA: Entity | null = null;
  goalB: Entity | null = null;
  /** Physical action (force before contact forces). */
  readonly actionU = new Float64Array(2);
  /** Communication action, length `dimC`. */
  actionC: Float64Array;
  /** Communication state (what others observe), length `dimC`. */
  comm: Float64Array;

  constructor(dimC: number) {
    super();
    this.actionC = new Float64Array(dimC);
    this.comm = new Float64Array(dimC);
  }
}

/** log(1 + e^x) without overflow: numpy's logaddexp(0, x). */
export function softplus(x: number): number {
  return Math.max(x, 0) + log1p(exp(-Math.abs(x)));
}

export const WORLD_DEFAULTS = {
  dimP: 2,
  dimColor: 3,
  dt: 0.1,
  damping: 0.25,
  contactForce: 1e2,
  contactMargin: 1e-3,
} as const;

export class World {
  readonly dimP = WORLD_DEFAULTS.dimP;
  readonly dimColor = WORLD_DEFAULTS.dimColor;
  dt: number = WORLD_DEFAULTS.dt;
  damping: number = WORLD_DEFAULTS.damping;
  contactForce: number = WORLD_DEFAULTS.contactForce;
  contactMargin: number = WORLD_DEFAULTS.contactMargin;
  readonly entities: readonly Entity[];
  private readonly fx: Float64Array;
  private readonly fy: Float64Array;
  private readonly hasForce: Uint8Array;

  constructor(
    readonly dimC: number,
    readonly agents: readonly Agent[],
    readonly landmarks: readonly Landmark[],
  ) {
    this.entities = [...agents, ...landmarks];
    const n = this.entities.length;
    this.fx = new Float64Array(n);
    this.fy = new Float64Array(n);
    this.hasForce = new Uint8Array(n);
  }

  step(): void {
    this.fx.fill(0);
    this.fy.fill(0);
    this.hasForce.fill(0);
    this.applyActionForce();
    this.applyEnvironmentForce();
    this.integrateState();
    for (const agent of this.agents) this.updateAgentState(agent);
  }

  /** Net force on entity i from the last step (0 where none acted), for tests and views. */
  force(i: number): [number, number] {
    return [this.fx[i], this.fy[i]];
  }

  private applyActionForce(): void {
    for (let i = 0; i < this.agents.length; i++) {
      const agent = this.agents[i];
      if (!agent.movable) continue;
      this.fx[i] = agent.actionU[0];
      this.fy[i] = agent.actionU[1];
      this.hasForce[i] = 1;
    }
  }

  private applyEnvironmentForce(): void {
    const ents = this.entities;
    for (let a = 0; a < ents.length; a++) {
      for (let b = a + 1; b < ents.length; b++) {
        const ea = ents[a];
        const eb = ents[b];
        if (!ea.collide || !eb.collide) continue;
        if (!ea.movable && !eb.movable) continue; // no force on either
        const [gx, gy] = this.collisionForce(ea, eb);
        if (ea.movable) {
          this.fx[a] += gx;
          this.fy[a] += gy;
          this.hasForce[a] = 1;
        }
        if (eb.movable) {
          this.fx[b] -= gx;
          this.fy[b] -= gy;
          this.hasForce[b] = 1;
        }
      }
    }
  }

  /** The contact force on `a` (the force on `b` is its negative). */
  collisionForce(a: Entity, b: Entity): [number, number] {
    const dx = a.pos[0] - b.pos[0];
    const dy = a.pos[1] - b.pos[1];
    const dist = Math.sqrt(dx * dx + dy * dy);
    // Two centres exactly on top of each other have no direction; numpy would give NaN here.
    if (dist === 0) return [0, 0];
    const distMin = a.size + b.size;
    const k = this.contactMargin;
    const penetration = softplus(-(dist - distMin) / k) * k;
    return [((this.contactForce * dx) / dist) * penetration, ((this.contactForce * dy) / dist) * penetration];
  }

  private integrateState(): void {
    const ents = this.entities;
    for (let i = 0; i < ents.length; i++) {
      const e = ents[i];
      if (!e.movable) continue;
      e.pos[0] += e.vel[0] * this.dt;
      e.pos[1] += e.vel[1] * this.dt;
      e.vel[0] = e.vel[0] * (1 - this.damping);
      e.vel[1] = e.vel[1] * (1 - this.damping);
      if (this.hasForce[i]) {
        e.vel[0] += (this.fx[i] / e.mass) * this.dt;
        e.vel[1] += (this.fy[i] / e.mass) * this.dt;
      }
      if (e.maxSpeed !== null) {
        const speed = Math.sqrt(e.vel[0] * e.vel[0] + e.vel[1] * e.vel[1]);
        if (speed > e.maxSpeed) {
          e.vel[0] = (e.vel[0] / speed) * e.maxSpeed;
          e.vel[1] = (e.vel[1] / speed) * e.maxSpeed;
        }
      }
    }
  }

  private updateAgentState(agent: Agent): void {
    if (agent.silent) agent.comm.fill(0);
    else agent.comm.set(agent.actionC);
  }
}

/** Euclidean distance between two entities' centres. */
export function distance(a: Entity, b: Entity): number {
  const dx = a.pos[0] - b.pos[0];
  const dy = a.pos[1] - b.pos[1];
  return Math.sqrt(dx * dx + dy * dy);
}

/** The scenarios' `is_collision`: centres closer than the sum of the sizes. */
export function isCollision(a: Entity, b: Entity): boolean {
  return distance(a, b) < a.size + b.size;
}
