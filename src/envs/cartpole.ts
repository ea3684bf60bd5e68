/**
 * CartPole-v1, a line-by-line port of Gymnasium's classic_control/cartpole.py (Euler integrator),
 * wrapped in the v1 time limit of 500 steps. The state is kept in float64 numbers, the observation
 * is its float32 cast, as in Gymnasium.
 */
import type { Rng } from '../core/rng';
import { ClassicControlEnv, FLOAT32_MAX, box } from './base';
import { cos, sin } from '../core/portableMath';
import type { DiscreteSpace, EnvOptions } from './types';

export const CARTPOLE = {
  gravity: 9.8,
  masscart: 1.0,
  masspole: 0.1,
  totalMass: 0.1 + 1.0, // masspole + masscart
  length: 0.5, // half the pole's length
  polemassLength: 0.1 * 0.5, // masspole * length
  forceMag: 10.0,
  tau: 0.02, // seconds between state updates
  thetaThresholdRadians: (12 * 2 * Math.PI) / 360,
  xThreshold: 2.4,
  maxEpisodeSteps: 500,
  rewardThreshold: 475,
} as const;

export class CartPoleEnv extends ClassicControlEnv {
  readonly id = 'CartPole-v1';
  readonly observationSpace = box(
    [-CARTPOLE.xThreshold * 2, -FLOAT32_MAX, -CARTPOLE.thetaThresholdRadians * 2, -FLOAT32_MAX],
    [CARTPOLE.xThreshold * 2, FLOAT32_MAX, CARTPOLE.thetaThresholdRadians * 2, FLOAT32_MAX],
  );
  readonly actionSpace: DiscreteSpace = { kind: 'discrete', n: 2 };
  private x = 0;
  private xDot = 0;
  private theta = 0;
  private thetaDot = 0;

  constructor(options: EnvOptions = {}) {
    super(CARTPOLE.maxEpisodeSteps, options);
  }

  protected resetState(rng: Rng): void {
    // self.np_random.uniform(low=-0.05, high=0.05, size=(4,)), in this order.
    this.x = rng.uniformRange(-0.05, 0.05);
    this.xDot = rng.uniformRange(-0.05, 0.05);
    this.theta = rng.uniformRange(-0.05, 0.05);
    this.thetaDot = rng.uniformRange(-0.05, 0.05);
  }

  /** State layout: [x, xDot, theta, thetaDot]. */
  protected loadState(s: ArrayLike<number>): void {
    this.x = s[0];
    this.xDot = s[1];
    this.theta = s[2];
    this.thetaDot = s[3];
  }

  getState(): number[] {
    return [this.x, this.xDot, this.theta, this.thetaDot];
  }

  protected advance(action: number): boolean {
    const { gravity, masspole, totalMass, length, polemassLength, forceMag, tau } = CARTPOLE;
    const force = action === 1 ? forceMag : -forceMag;
    // Not Math.cos/Math.sin: engines differ in their last bit, and the page and the CLI must agree.
    const costheta = cos(this.theta);
    const sintheta = sin(this.theta);
    // Squares as x*x (what Python's x**2 gives), grouped as Gymnasium groups them.
    const temp = (force + polemassLength * (this.thetaDot * this.thetaDot) * sintheta) / totalMass;
    const thetaacc =
      (gravity * sintheta - costheta * temp) /
      (length * (4.0 / 3.0 - (masspole * (costheta * costheta)) / totalMass));
    const xacc = temp - (polemassLength * thetaacc * costheta) / totalMass;
    // Euler: positions move with the old velocities.
    this.x = this.x + tau * this.xDot;
    this.xDot = this.xDot + tau * xacc;
    this.theta = this.theta + tau * this.thetaDot;
    this.thetaDot = this.thetaDot + tau * thetaacc;
    const thr = CARTPOLE.thetaThresholdRadians;
    return this.x < -CARTPOLE.xThreshold || this.x > CARTPOLE.xThreshold || this.theta < -thr || this.theta > thr;
  }

  protected reward(_terminated: boolean): number {
    return 1.0; // also on the terminating step
  }

  protected writeObs(out: Float32Array, offset: number): void {
    out[offset] = this.x;
    out[offset + 1] = this.xDot;
    out[offset + 2] = this.theta;
    out[offset + 3] = this.thetaDot;
  }

  renderState(): { x: number; xDot: number; theta: number; thetaDot: number } {
    return { x: this.x, xDot: this.xDot, theta: this.theta, thetaDot: this.thetaDot };
  }
}
