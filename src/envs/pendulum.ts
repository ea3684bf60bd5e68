/**
 * Pendulum-v1, a port of Gymnasium's classic_control/pendulum.py with its 200-step time limit.
 *
 * State (θ, θ̇), θ = 0 upright, float64. Action: torque u ∈ [−2, 2] (Box shape [1]), clipped.
 *     cost  = normalize(θ)² + 0.1·θ̇² + 0.001·u²            normalize(x) = ((x + π) mod 2π) − π
 *     θ̇'    = clip(θ̇ + (3g/(2l)·sin θ + 3/(m·l²)·u)·dt, −8, 8)
 *     θ'    = θ + θ̇'·dt
 *     reward = −cost (of the state BEFORE the step); never terminates.
 * g = 10, m = l = 1, dt = 0.05. Reset: θ ~ U(−π, π), θ̇ ~ U(−1, 1) (drawn in that order).
 * Observation: [cos θ, sin θ, θ̇] as float32.
 */
import type { Rng } from '../core/rng';
import { box } from './base';
import { ContinuousControlEnv, clip } from './continuousBase';
import { cos, sin } from '../core/portableMath'; // Math.sin/cos differ between engines in the last bit
import type { BoxSpace, EnvOptions } from './types';

export const PENDULUM = {
  maxSpeed: 8,
  maxTorque: 2.0,
  dt: 0.05,
  g: 10.0,
  m: 1.0,
  l: 1.0,
  maxEpisodeSteps: 200,
} as const;

/** Python's `((x + π) % (2π)) − π`: the remainder takes the sign of the divisor (floored modulo). */
export function angleNormalize(x: number): number {
  const d = 2 * Math.PI;
  let r = (x + Math.PI) % d;
  if (r !== 0 && r < 0) r += d;
  return r - Math.PI;
}

export class PendulumEnv extends ContinuousControlEnv {
  readonly id = 'Pendulum-v1';
  readonly observationSpace = box([-1, -1, -PENDULUM.maxSpeed], [1, 1, PENDULUM.maxSpeed]);
  readonly actionSpace: BoxSpace = box([-PENDULUM.maxTorque], [PENDULUM.maxTorque]);
  private theta = 0;
  private thetaDot = 0;
  /** The clipped torque of the last step (NaN before the first), for drawing. */
  private lastU = NaN;

  constructor(options: EnvOptions = {}) {
    super(PENDULUM.maxEpisodeSteps, options);
  }

  protected resetState(rng: Rng): void {
    // self.np_random.uniform(low=[-π, -1], high=[π, 1]): θ first, then θ̇.
    this.theta = rng.uniformRange(-Math.PI, Math.PI);
    this.thetaDot = rng.uniformRange(-1, 1);
    this.lastU = NaN;
  }

  /** State layout: [θ, θ̇]. */
  protected loadState(s: ArrayLike<number>): void {
    this.theta = s[0];
    this.thetaDot = s[1];
    this.lastU = NaN;
  }

  getState(): number[] {
    return [this.theta, this.thetaDot];
  }

  protected advance(action: Float64Array): number {
    const { g, m, l, dt, maxSpeed, maxTorque } = PENDULUM;
    const th = this.theta;
    const thdot = this.thetaDot;
    const u = clip(action[0], -maxTorque, maxTorque);
    this.lastU = u;
    const costs = angleNormalize(th) ** 2 + 0.1 * thdot ** 2 + 0.001 * u ** 2;
    let newthdot = thdot + ((3 * g) / (2 * l) * sin(th) + (3.0 / (m * l ** 2)) * u) * dt;
    newthdot = clip(newthdot, -maxSpeed, maxSpeed);
    this.theta = th + newthdot * dt;
    this.thetaDot = newthdot;
    return -costs;
  }

  protected isTerminal(): boolean {
    return false;
  }

  protected writeObs(out: Float32Array, offset: number): void {
    out[offset] = cos(this.theta);
    out[offset + 1] = sin(this.theta);
    out[offset + 2] = this.thetaDot;
  }

  renderState(): { theta: number; thetaDot: number; torque: number } {
    return { theta: this.theta, thetaDot: this.thetaDot, torque: Number.isNaN(this.lastU) ? 0 : this.lastU };
  }
}
