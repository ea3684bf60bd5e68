/**
 * MountainCar-v0, a port of Gymnasium's classic_control/mountain_car.py with the v0 time limit of
 * 200 steps. State in float64, observation cast to float32.
 */
import type { Rng } from '../core/rng';
import { ClassicControlEnv, box } from './base';
import { cos, sin } from '../core/portableMath'; // Math.sin/cos differ between engines in the last bit
import type { DiscreteSpace, EnvOptions } from './types';

export const MOUNTAIN_CAR = {
  minPosition: -1.2,
  maxPosition: 0.6,
  maxSpeed: 0.07,
  goalPosition: 0.5,
  goalVelocity: 0,
  force: 0.001,
  gravity: 0.0025,
  maxEpisodeSteps: 200,
  rewardThreshold: -110,
} as const;

export class MountainCarEnv extends ClassicControlEnv {
  readonly id = 'MountainCar-v0';
  readonly observationSpace = box(
    [MOUNTAIN_CAR.minPosition, -MOUNTAIN_CAR.maxSpeed],
    [MOUNTAIN_CAR.maxPosition, MOUNTAIN_CAR.maxSpeed],
  );
  readonly actionSpace: DiscreteSpace = { kind: 'discrete', n: 3 };
  private position = 0;
  private velocity = 0;

  constructor(options: EnvOptions = {}) {
    super(MOUNTAIN_CAR.maxEpisodeSteps, options);
  }

  protected resetState(rng: Rng): void {
    this.position = rng.uniformRange(-0.6, -0.4);
    this.velocity = 0;
  }

  /** State layout: [position, velocity]. */
  protected loadState(s: ArrayLike<number>): void {
    this.position = s[0];
    this.velocity = s[1];
  }

  getState(): number[] {
    return [this.position, this.velocity];
  }

  protected advance(action: number): boolean {
    const c = MOUNTAIN_CAR;
    // `velocity += a + b` in Python adds (a + b) as one term; keep that association.
    let velocity = this.velocity + ((action - 1) * c.force + cos(3 * this.position) * -c.gravity);
    velocity = Math.min(Math.max(velocity, -c.maxSpeed), c.maxSpeed);
    let position = this.position + velocity;
    position = Math.min(Math.max(position, c.minPosition), c.maxPosition);
    if (position === c.minPosition && velocity < 0) velocity = 0;
    this.position = position;
    this.velocity = velocity;
    return position >= c.goalPosition && velocity >= c.goalVelocity;
  }

  protected reward(_terminated: boolean): number {
    return -1.0;
  }

  protected writeObs(out: Float32Array, offset: number): void {
    out[offset] = this.position;
    out[offset + 1] = this.velocity;
  }

  renderState(): { position: number; velocity: number; height: number } {
    // height of the track at the car, as Gymnasium draws it: sin(3x) * 0.45 + 0.55
    return { position: this.position, velocity: this.velocity, height: sin(3 * this.position) * 0.45 + 0.55 };
  }
}
