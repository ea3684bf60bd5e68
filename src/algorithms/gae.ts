/**
 * Generalized Advantage Estimation (Schulman et al. 2016, "High-Dimensional Continuous Control
 * Using Generalized Advantage Estimation"), as in CleanRL's ppo.py, in plain JS (float64 inside,
 * float32 out), so it is identical on every backend.
 *
 * LAYOUT: every [T, N] array is TIME-MAJOR and flat: the entry for step t of environment n is at
 * index t·N + n (N = numEnvs). So with N = 2 the arrays read
 *     [ (t=0,env0), (t=0,env1), (t=1,env0), (t=1,env1), ... ].
 * `lastValues` is [N]: V(s_T), the value of the observation that follows the last stored step.
 *
 * DONES: dones[t·N + n] = 1 means the episode of env n TERMINATED at step t (a true terminal
 * state: its value is 0). This is Gymnasium's `terminated` for the transition stored at t, not
 * CleanRL's "the obs at t starts a new episode" flag (which is our dones shifted by one).
 *
 * Recursion, backwards from t = T−1 (with V(s_T) = lastValues):
 *     δ_t = r_t + γ·V(s_{t+1})·(1 − d_t) − V(s_t)
 *     A_t = δ_t + γ·λ·(1 − d_t)·A_{t+1}          (A_T = 0)
 *     R_t = A_t + V(s_t)                           (the value target, "returns")
 * λ = 1 gives Monte-Carlo returns minus V (bootstrapped at T); λ = 0 gives the one-step TD error.
 *
 * TRUNCATION (time limits, optional): truncated[t·N + n] = 1 means the episode was CUT at step t
 * (Gymnasium's `truncated`) and the environment reset, so the next stored value V(s_{t+1}) belongs
 * to a new episode. The real final observation was not terminal, so it is bootstrapped from
 * `bootstrapValues[t·N + n]` = V(real final obs of step t) (read only where truncated = 1), and
 * the recursion is cut there too (A_{t+1} is another episode's):
 *     δ_t = r_t + γ·V(s_final) − V(s_t),    A_t = δ_t.
 * If both flags are set, termination wins (value 0), as in Gymnasium.
 */

export interface GaeOptions {
  /** [T, N] time-major, 1 where the episode was truncated (time limit) at step t. */
  truncated?: ArrayLike<number>;
  /** [T, N] time-major, V(real final observation) where truncated = 1 (other entries ignored). */
  bootstrapValues?: ArrayLike<number>;
}

export interface GaeResult {
  /** A_t, [T, N] time-major. */
  advantages: Float32Array;
  /** R_t = A_t + V(s_t), [T, N] time-major (the value-function target). */
  returns: Float32Array;
}

/**
 * GAE advantages and returns for a time-major rollout (see the file comment for the layout).
 * @param rewards    [T, N] r_t
 * @param values     [T, N] V(s_t), recorded when acting
 * @param dones      [T, N] 1 if the episode terminated at step t
 * @param lastValues [N]    V(s_T) of the observation after the last step
 * @param numEnvs    N (default lastValues.length)
 */
export function gae(
  rewards: ArrayLike<number>,
  values: ArrayLike<number>,
  dones: ArrayLike<number>,
  lastValues: ArrayLike<number>,
  gamma: number,
  lambda: number,
  numEnvs: number = lastValues.length,
  options: GaeOptions = {},
): GaeResult {
  const n = numEnvs;
  const len = rewards.length;
  if (!Number.isInteger(n) || n < 1) throw new Error(`gae: numEnvs must be a positive integer, got ${n}`);
  if (lastValues.length !== n) throw new Error(`gae: lastValues has ${lastValues.length} entries for numEnvs ${n}`);
  if (len % n !== 0) throw new Error(`gae: ${len} rewards do not split into numEnvs ${n} columns`);
  if (values.length !== len) throw new Error(`gae: ${values.length} values for ${len} rewards`);
  if (dones.length !== len) throw new Error(`gae: ${dones.length} dones for ${len} rewards`);
  const { truncated, bootstrapValues } = options;
  if (truncated) {
    if (truncated.length !== len) throw new Error(`gae: ${truncated.length} truncated flags for ${len} rewards`);
    if (!bootstrapValues) throw new Error('gae: `truncated` needs `bootstrapValues` (V of the real final observation)');
    if (bootstrapValues.length !== len) throw new Error(`gae: ${bootstrapValues.length} bootstrapValues for ${len} rewards`);
  }
  const T = len / n;
  const advantages = new Float32Array(len);
  const returns = new Float32Array(len);

  for (let e = 0; e < n; e++) {
    let nextAdv = 0; // A_{t+1}
    let nextValue = lastValues[e]; // V(s_{t+1})
    for (let t = T - 1; t >= 0; t--) {
      const i = t * n + e;
      const terminated = dones[i] !== 0;
      const cut = !terminated && truncated !== undefined && truncated[i] !== 0;
      let bootstrap: number; // γ-free V of the next state, 0 at a terminal
      let carry: number; // (1 − d_t): does A_{t+1} belong to the same episode?
      if (terminated) {
        bootstrap = 0;
        carry = 0;
      } else if (cut) {
        bootstrap = (bootstrapValues as ArrayLike<number>)[i];
        carry = 0;
      } else {
        bootstrap = nextValue;
        carry = 1;
      }
      const delta = rewards[i] + gamma * bootstrap - values[i]; // δ_t
      const adv = delta + gamma * lambda * carry * nextAdv; // A_t
      advantages[i] = adv;
      returns[i] = adv + values[i]; // R_t = A_t + V(s_t)
      nextAdv = adv;
      nextValue = values[i];
    }
  }
  return { advantages, returns };
}
