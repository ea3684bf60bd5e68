/**
 * Acrobot-v1, a port of Gymnasium's classic_control/acrobot.py ("book" dynamics, one RK4 step of
 * dt = 0.2 on the state augmented with the torque, no torque noise), with the v1 time limit of 500.
 */
import type { Rng } from '../core/rng';
import { ClassicControlEnv, box } from './base';
import { cos, sin } from '../core/portableMath'; // Math.sin/cos differ between engines in the last bit
import type { DiscreteSpace, EnvOptions } from './types';

export const ACROBOT = {
  dt: 0.2,
  linkLength1: 1.0,
  linkLength2: 1.0,
  linkMass1: 1.0,
  linkMass2: 1.0,
  linkComPos1: 0.5,
  linkComPos2: 0.5,
  linkMoi: 1.0,
  maxVel1: 4 * Math.PI,
  maxVel2: 9 * Math.PI,
  availTorque: [-1.0, 0.0, 1.0],
  gravity: 9.8,
  maxEpisodeSteps: 500,
  rewardThreshold: -100,
} as const;

/** Gymnasium's `wrap(x, m, M)`: shift by M - m until x is in [m, M]. */
export function wrap(x: number, m: number, M: number): number {
  const diff = M - m;
  while (x > M) x -= diff;
  while (x < m) x += diff;
  return x;
}

/** Gymnasium's `bound(x, m, M)`. */
export function bound(x: number, m: number, M: number): number {
  return Math.min(Math.max(x, m), M);
}

/**
 * Time derivative of the augmented state [θ1, θ2, θ1', θ2', torque], written into `out`
 * (Gymnasium's `_dsdt`, book version).
 */
function dsdt(s: Float64Array, out: Float64Array): void {
  const m1 = ACROBOT.linkMass1;
  const m2 = ACROBOT.linkMass2;
  const l1 = ACROBOT.linkLength1;
  const lc1 = ACROBOT.linkComPos1;
  const lc2 = ACROBOT.linkComPos2;
  const I1 = ACROBOT.linkMoi;
  const I2 = ACROBOT.linkMoi;
  const g = ACROBOT.gravity;
  const a = s[4];
  const theta1 = s[0];
  const theta2 = s[1];
  const dtheta1 = s[2];
  const dtheta2 = s[3];
  const d1 = m1 * (lc1 * lc1) + m2 * ((l1 * l1) + (lc2 * lc2) + 2 * l1 * lc2 * cos(theta2)) + I1 + I2;
  const d2 = m2 * ((lc2 * lc2) + l1 * lc2 * cos(theta2)) + I2;
  const phi2 = m2 * lc2 * g * cos(theta1 + theta2 - Math.PI / 2.0);
  const phi1 =
    -m2 * l1 * lc2 * (dtheta2 * dtheta2) * sin(theta2) -
    2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin(theta2) +
    (m1 * lc1 + m2 * l1) * g * cos(theta1 - Math.PI / 2) +
    phi2;
  const ddtheta2 =
    (a + (d2 / d1) * phi1 - m2 * l1 * lc2 * (dtheta1 * dtheta1) * sin(theta2) - phi2) /
    (m2 * (lc2 * lc2) + I2 - (d2 * d2) / d1);
  const ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
  out[0] = dtheta1;
  out[1] = dtheta2;
  out[2] = ddtheta1;
  out[3] = ddtheta2;
  out[4] = 0.0;
}

export class AcrobotEnv extends ClassicControlEnv {
  readonly id = 'Acrobot-v1';
  readonly observationSpace = box(
    [-1, -1, -1, -1, -ACROBOT.maxVel1, -ACROBOT.maxVel2],
    [1, 1, 1, 1, ACROBOT.maxVel1, ACROBOT.maxVel2],
  );
  readonly actionSpace: DiscreteSpace = { kind: 'discrete', n: 3 };
  /** [θ1, θ2, θ1', θ2'] in float64. */
  private readonly s = new Float64Array(4);
  // RK4 scratch (augmented 5-vectors), reused every step.
  private readonly y0 = new Float64Array(5);
  private readonly yt = new Float64Array(5);
  private readonly k1 = new Float64Array(5);
  private readonly k2 = new Float64Array(5);
  private readonly k3 = new Float64Array(5);
  private readonly k4 = new Float64Array(5);

  constructor(options: EnvOptions = {}) {
    super(ACROBOT.maxEpisodeSteps, options);
  }

  protected resetState(rng: Rng): void {
    // Gymnasium: uniform(-0.1, 0.1, size=(4,)).astype(np.float32)
    for (let i = 0; i < 4; i++) this.s[i] = Math.fround(rng.uniformRange(-0.1, 0.1));
  }

  /** State layout: [theta1, theta2, theta1Dot, theta2Dot]. */
  protected loadState(state: ArrayLike<number>): void {
    for (let i = 0; i < 4; i++) this.s[i] = state[i];
  }

  getState(): number[] {
    return Array.from(this.s);
  }

  protected advance(action: number): boolean {
    const { y0, yt, k1, k2, k3, k4, s } = this;
    const torque = ACROBOT.availTorque[action];
    for (let i = 0; i < 4; i++) y0[i] = s[i];
    y0[4] = torque;
    // rk4(self._dsdt, s_augmented, [0, dt]): a single step from t=0 to t=dt.
    const dt = ACROBOT.dt;
    const dt2 = dt / 2.0;
    dsdt(y0, k1);
    for (let i = 0; i < 5; i++) yt[i] = y0[i] + dt2 * k1[i];
    dsdt(yt, k2);
    for (let i = 0; i < 5; i++) yt[i] = y0[i] + dt2 * k2[i];
    dsdt(yt, k3);
    for (let i = 0; i < 5; i++) yt[i] = y0[i] + dt * k3[i];
    dsdt(yt, k4);
    // Only the first 4 components are kept (the torque's derivative is 0).
    for (let i = 0; i < 4; i++) s[i] = y0[i] + (dt / 6.0) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    s[0] = wrap(s[0], -Math.PI, Math.PI);
    s[1] = wrap(s[1], -Math.PI, Math.PI);
    s[2] = bound(s[2], -ACROBOT.maxVel1, ACROBOT.maxVel1);
    s[3] = bound(s[3], -ACROBOT.maxVel2, ACROBOT.maxVel2);
    return -cos(s[0]) - cos(s[1] + s[0]) > 1.0;
  }

  protected reward(terminated: boolean): number {
    return terminated ? 0.0 : -1.0;
  }

  protected writeObs(out: Float32Array, offset: number): void {
    const s = this.s;
    out[offset] = cos(s[0]);
    out[offset + 1] = sin(s[0]);
    out[offset + 2] = cos(s[1]);
    out[offset + 3] = sin(s[1]);
    out[offset + 4] = s[2];
    out[offset + 5] = s[3];
  }

  renderState(): { theta1: number; theta2: number; theta1Dot: number; theta2Dot: number } {
    return { theta1: this.s[0], theta2: this.s[1], theta1Dot: this.s[2], theta2Dot: this.s[3] };
  }
}
