/**
 * A scripted reference for simple_spread: what a return a coordinated team can reach, to set the
 * learned agents' returns against (beside a uniformly random team's).
 *
 * Each step, from the global state (every agent's observation, concatenated as the env's state):
 * 1. Positions: agent i's observation holds p_i at [2, 4) and each landmark relative to it, so
 *    landmark l is at p_0 + (p_l − p_0) read from agent 0's observation.
 * 2. Assignment: the permutation σ of landmarks to agents with the least total distance
 *    Σ_i ‖p_i − p_σ(i)‖, by brute force over all N! permutations (N = 3: 6 of them). Recomputed
 *    every step, so an agent may change its landmark when that shortens the team's total.
 * 3. Proportional control on the discrete moves: the velocity wanted is v* = k · (p_σ(i) − p_i),
 *    and the move chosen is the one (none, −x, +x, −y, +y) whose next velocity
 *        v' = (1 − damping) · v + (sensitivity · dt / m) · u      (MPE's integration, core.ts)
 *    is closest to v*.
 * The agents do not steer around each other; two landmarks closer than two agent radii cost a
 * collision every step, as they would for any team.
 */
import { MPE_DEFAULTS } from './mpeEnv';
import { WORLD_DEFAULTS } from './core';

/** The gain k of the proportional controller (1/s): the best of 1, 2, 3, 4, 6, 8, 12, 20 on 200 evaluation episodes (evaluateMarl, seed 1). */
export const SPREAD_SCRIPTED_GAIN = 4;

/** The moves' unit forces u, indexed by MPE's discrete move (0 none, 1 −x, 2 +x, 3 −y, 4 +y). */
const MOVES: readonly (readonly [number, number])[] = [
  [0, 0],
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

/** Every permutation of 0 … n − 1. */
export function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(n - 1)) {
    for (let k = 0; k <= rest.length; k++) out.push([...rest.slice(0, k), n - 1, ...rest.slice(k)]);
  }
  return out;
}

/** The permutation σ (agent i → landmark σ[i]) with the least Σ_i ‖agent_i − landmark_σ(i)‖. */
export function optimalAssignment(agents: readonly (readonly [number, number])[], landmarks: readonly (readonly [number, number])[]): number[] {
  if (agents.length !== landmarks.length) throw new Error(`optimalAssignment: ${agents.length} agents for ${landmarks.length} landmarks`);
  let best: number[] = [];
  let bestCost = Infinity;
  for (const p of permutations(agents.length)) {
    let cost = 0;
    p.forEach((l, i) => (cost += Math.hypot(agents[i][0] - landmarks[l][0], agents[i][1] - landmarks[l][1])));
    if (cost < bestCost) {
      bestCost = cost;
      best = p;
    }
  }
  return best;
}

/**
 * The scripted team's joint action for one simple_spread state of `n` agents (observation width
 * 6n each), written at out[outOffset + i].
 */
export function spreadScriptedActions(state: ArrayLike<number>, stateOffset: number, n: number, out: Int32Array, outOffset: number, gain = SPREAD_SCRIPTED_GAIN): void {
  const obsDim = 6 * n;
  const agents: [number, number][] = [];
  const vels: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const o = stateOffset + i * obsDim;
    vels.push([state[o], state[o + 1]]);
    agents.push([state[o + 2], state[o + 3]]);
  }
  const landmarks: [number, number][] = [];
  for (let l = 0; l < n; l++) landmarks.push([agents[0][0] + state[stateOffset + 4 + 2 * l], agents[0][1] + state[stateOffset + 5 + 2 * l]]);
  const sigma = optimalAssignment(agents, landmarks);
  const keep = 1 - WORLD_DEFAULTS.damping;
  const push = MPE_DEFAULTS.sensitivity * WORLD_DEFAULTS.dt; // mass 1
  for (let i = 0; i < n; i++) {
    const target = landmarks[sigma[i]];
    const want = [gain * (target[0] - agents[i][0]), gain * (target[1] - agents[i][1])];
    let best = 0;
    let bestErr = Infinity;
    MOVES.forEach(([ux, uy], m) => {
      const err = Math.hypot(keep * vels[i][0] + push * ux - want[0], keep * vels[i][1] + push * uy - want[1]);
      if (err < bestErr) {
        bestErr = err;
        best = m;
      }
    });
    out[outOffset + i] = best;
  }
}
