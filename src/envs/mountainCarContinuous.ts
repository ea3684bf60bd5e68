/**
 * MountainCarContinuous-v0, a port of Gymnasium's classic_control/continuous_mountain_car.py with
 * its 999-step time limit (reward threshold 90).
 *
 * State (x, v). Action a (Box shape [1], bounds [−1, 1]); force = clip(a, −1, 1).
 *     v' = clip(v + force·0.0015 − 0.0025·cos(3x), −0.07, 0.07)
 *     x' = clip(x + v', −1.2, 0.6);   if x' = −1.2 and v' < 0 then v' = 0   (inelastic left wall)
 *     terminated = x' ≥ 0.45 and v' ≥ 0
 *     reward     = 100·[terminated] − 0.1·a²       (a UNCLIPPED: Gymnasium charges the raw action)
 * Reset: x ~ U(−0.6, −0.4), v = 0. Gymnasium stores the state as float32 after every step
 * (`np.array([position, velocity], dtype=np.float32)`), so the state is rounded to float32 here too;
 * the arithmetic within a step is float64 (NumPy 1 promotion; NumPy 2 rounds each operation to
 * float32, a difference of about one float32 ulp).
 */
import type { Rng } from '../core/rng';
import { box } from './base';
import { ContinuousControlEnv, clip } from './continuousBase';
import { cos, sin } from '../core/portableMath'; // Math.sin/cos differ between engines in the last bit
import type { BoxSpace, EnvOptions } from './types';

export const MOUNTAIN_CAR_CONTINUOUS = {
  minAction: -1.0,
  maxAction: 1.0,
  minPosition: -1.2,
  maxPosition: 0.6,
  maxSpeed: 0.07,
  goalPosition: 0.45,
  goalVelocity: 0,
  power: 0.0015,
  maxEpisodeSteps: 999,
  rewardThreshold: 90,
} as const;

export class MountainCarContinuousEnv extends ContinuousControlEnv {
  readonly id = 'MountainCarContinuous-v0';
  readonly observationSpace = box(
    [MOUNTAIN_CAR_CONTINUOUS.minPosition, -MOUNTAIN_CAR_CONTINUOUS.maxSpeed],
    [MOUNTAIN_CAR_CONTINUOUS.maxPosition, MOUNTAIN_CAR_CONTINUOUS.maxSpeed],
  );
  readonly actionSpace: BoxSpace = box([MOUNTAIN_CAR_CONTINUOUS.minAction], [MOUNTAIN_CAR_CONTINUOUS.maxAction]);
  private position = 0;
  private velocity = 0;
  private lastForce = 0;
  /** Gymnasium decides termination on the float64 position / velocity, before the float32 store. */
  private reachedGoal = false;

  constructor(options: EnvOptions = {}) {
    super(MOUNTAIN_CAR_CONTINUOUS.maxEpisodeSteps, options);
  }

  protected resetState(rng: Rng): void {
    this.position = rng.uniformRange(-0.6, -0.4); // float64 until the first step, as in Gymnasium
    this.velocity = 0;
    this.lastForce = 0;
    this.reachedGoal = false;
  }

  /** State layout: [position, velocity]. */
  protected loadState(s: ArrayLike<number>): void {
    this.position = s[0];
    this.velocity = s[1];
    this.lastForce = 0;
    this.reachedGoal = false;
  }

  getState(): number[] {
    return [this.position, this.velocity];
  }

  protected advance(action: Float64Array): number {
    const c = MOUNTAIN_CAR_CONTINUOUS;
    const force = clip(action[0], c.minAction, c.maxAction);
    this.lastForce = force;
    let position = this.position;
    let velocity = this.velocity;
    velocity += force * c.power - 0.0025 * cos(3 * position);
    velocity = clip(velocity, -c.maxSpeed, c.maxSpeed);
    position += velocity;
    position = clip(position, c.minPosition, c.maxPosition);
    if (position === c.minPosition && velocity < 0) velocity = 0;
    const terminated = position >= c.goalPosition && velocity >= c.goalVelocity;
    this.reachedGoal = terminated;
    let reward = 0;
    if (terminated) reward = 100.0;
    reward -= action[0] ** 2 * 0.1;
    this.position = Math.fround(position);
    this.velocity = Math.fround(velocity);
    return reward;
  }

  protected isTerminal(): boolean {
    return this.reachedGoal;
  }

  protected writeObs(out: Float32Array, offset: number): void {
    out[offset] = this.position;
    out[offset + 1] = this.velocity;
  }

  renderState(): { position: number; velocity: number; height: number; force: number } {
    return {
      position: this.position,
      velocity: this.velocity,
      height: sin(3 * this.position) * 0.45 + 0.55,
      force: this.lastForce,
    };
  }
}
