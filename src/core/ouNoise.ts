/**
 * Exploration noise processes of the deterministic-policy actors (DDPG, TD3). The noise is added
 * to tanh(f(s)), in units of the action half-range, before clipping to [−1, 1]:
 *   - 'gaussian': ε_t = σ·N(0, 1), independent at every step (Fujimoto et al. 2018);
 *   - 'ou': Ornstein-Uhlenbeck (Lillicrap et al. 2016; Stable-Baselines3's
 *     OrnsteinUhlenbeckActionNoise), one process per env copy and action dimension:
 *       x_{t+1} = x_t + θ(μ − x_t)·dt + σ·√dt·N(0, 1),   x = 0 at each episode start,
 *     with SB3's θ 0.15, dt 1e-2, μ 0. Successive draws are correlated over about 1/(θ·dt) ≈ 667
 *     steps, so the car keeps pushing one way long enough to swing up a hill that independent
 *     noise averages away. Its variance from x_0 = 0 after n steps is
 *       Var x_n = σ²dt·(1 − (1 − θdt)^{2n}) / (1 − (1 − θdt)²)  →  σ²/(2θ) for small θdt.
 */
import type { Rng } from './rng';

export const NOISE_PROCESSES = ['gaussian', 'ou'] as const;
export type NoiseProcess = (typeof NOISE_PROCESSES)[number];

export interface OrnsteinUhlenbeckParams {
  /** Mean-reversion rate θ. */
  theta: number;
  /** Time step dt. */
  dt: number;
  /** Long-run mean μ. */
  mu: number;
}

/** Stable-Baselines3's OrnsteinUhlenbeckActionNoise defaults. */
export const SB3_OU: Readonly<OrnsteinUhlenbeckParams> = Object.freeze({ theta: 0.15, dt: 1e-2, mu: 0 });

/** `rows` independent OU processes of `dim` values each (one row per env copy). */
export class OrnsteinUhlenbeckNoise {
  /** x, row-major [rows · dim]; float64 so that long runs do not drift by rounding. */
  private readonly x: Float64Array;

  constructor(
    readonly rows: number,
    readonly dim: number,
    readonly params: Readonly<OrnsteinUhlenbeckParams> = SB3_OU,
  ) {
    if (!Number.isInteger(rows) || rows < 1 || !Number.isInteger(dim) || dim < 1) throw new Error(`OrnsteinUhlenbeckNoise: rows and dim must be positive integers, got ${rows} and ${dim}`);
    if (!(params.theta >= 0) || !(params.dt > 0)) throw new Error(`OrnsteinUhlenbeckNoise: needs θ ≥ 0 and dt > 0, got θ ${params.theta}, dt ${params.dt}`);
    this.x = new Float64Array(rows * dim);
  }

  /** Advance every process one step with scale σ and return the new values [rows · dim]. */
  next(rng: Rng, sigma: number): Float32Array {
    const { theta, dt, mu } = this.params;
    const diffusion = sigma * Math.sqrt(dt);
    for (let i = 0; i < this.x.length; i++) this.x[i] += theta * (mu - this.x[i]) * dt + diffusion * rng.normal();
    return Float32Array.from(this.x);
  }

  /** Start a row over at x = 0 (its env copy begins a new episode). */
  reset(row: number): void {
    this.x.fill(0, row * this.dim, (row + 1) * this.dim);
  }

  /** The current values (a copy). */
  values(): Float32Array {
    return Float32Array.from(this.x);
  }
}
