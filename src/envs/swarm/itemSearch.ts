/**
 * ItemSearch: the small problem behind every swarm subtask. A worker (a subagent, or the
 * orchestrator working directly) stands in a W x W grid and must find a hidden target cell, then
 * claim it. It sees only a 3 x 3 window around itself, so resolving an item means searching: the
 * number of steps varies, and a run can fail (a wrong claim) or time out (the step cap).
 *
 * Actions (5): 0 up (y - 1), 1 down (y + 1), 2 left (x - 1), 3 right (x + 1), 4 claim.
 * Moving into the border leaves the worker in place (the step still counts).
 * Claim ends the episode (terminated): on the target it is found (reward `found`), anywhere
 * else it is a wrong answer (reward `wrongClaim`). Every step also pays `step`.
 * Truncated when the elapsed steps reach `maxEpisodeSteps`.
 *
 * Observation (ITEM_OBS_DIM = 23 float32), fixed whatever the grid size:
 *   [0..8]   target window: 1 where the 3 x 3 cell around the worker is the target (row-major,
 *            dy = -1..1 then dx = -1..1; index 4 is the worker's own cell)
 *   [9..17]  cell window, same order: -1 outside the grid, 1 visited, 0 not yet visited
 *   [18, 19] x / (W - 1), y / (W - 1)
 *   [20]     elapsed steps / maxEpisodeSteps
 *   [21]     visited cells / W^2
 *   [22]     (W - 2) / (ITEM_MAX_GRID - 2), the grid size scaled to [0, 1]
 *
 * `reset({ seed })` draws a random problem (random start and target on a `gridSize` grid);
 * `resetToProblem(problem)` loads a given one (how the swarm tasks use it).
 */
import { Rng } from '../../core/rng';
import type { BoxSpace, DiscreteSpace, InPlaceEnv, ResetOptions, ResetResult, StepResult } from '../types';

export const ITEM_SEARCH_ID = 'SwarmItemSearch-v0';
export const ITEM_ACTION = { UP: 0, DOWN: 1, LEFT: 2, RIGHT: 3, CLAIM: 4 } as const;
export const ITEM_NUM_ACTIONS = 5;
export const ITEM_OBS_DIM = 23;
export const ITEM_MIN_GRID = 2;
export const ITEM_MAX_GRID = 16;
export const ITEM_DEFAULT_GRID = 5;

export interface ItemProblem {
  gridSize: number;
  start: readonly [number, number];
  target: readonly [number, number];
}

export interface ItemRewards {
  found: number;
  wrongClaim: number;
  step: number;
}

export const ITEM_DEFAULT_REWARDS: Readonly<ItemRewards> = { found: 1, wrongClaim: -1, step: -0.01 };

export interface ItemSearchOptions {
  /** Grid side of the problems `reset` draws (default 5, in 2..16). */
  gridSize?: number;
  /** Step cap (default 2 * W^2 for the drawn grid size W, enough to sweep it twice). */
  maxEpisodeSteps?: number;
  /** Seed of the env's Rng until `reset({ seed })` replaces it (default 0). */
  seed?: number;
  rewards?: Partial<ItemRewards>;
}

/** Fewest steps that solve a problem: the Manhattan walk to the target, then one claim. */
export function itemMinSteps(p: ItemProblem): number {
  return Math.abs(p.target[0] - p.start[0]) + Math.abs(p.target[1] - p.start[1]) + 1;
}

/** Cell index y * W + x, the form answers take. */
export function cellIndex(gridSize: number, x: number, y: number): number {
  return y * gridSize + x;
}

function checkGrid(gridSize: number, where: string): void {
  if (!Number.isInteger(gridSize) || gridSize < ITEM_MIN_GRID || gridSize > ITEM_MAX_GRID) {
    throw new Error(`${where}: gridSize must be an integer in ${ITEM_MIN_GRID}..${ITEM_MAX_GRID}, got ${gridSize}`);
  }
}

export function validateItemProblem(p: ItemProblem): void {
  checkGrid(p.gridSize, 'ItemProblem');
  for (const [name, c] of [['start', p.start], ['target', p.target]] as const) {
    const ok = c.length === 2 && c.every((v) => Number.isInteger(v) && v >= 0 && v < p.gridSize);
    if (!ok) throw new Error(`ItemProblem: ${name} [${c.join(', ')}] is not a cell of a ${p.gridSize}x${p.gridSize} grid`);
  }
}

/** A random problem: start and target uniform over the grid (they may coincide). */
export function randomItemProblem(rng: Rng, gridSize: number): ItemProblem {
  checkGrid(gridSize, 'randomItemProblem');
  const start: [number, number] = [rng.int(gridSize), rng.int(gridSize)];
  const target: [number, number] = [rng.int(gridSize), rng.int(gridSize)];
  return { gridSize, start, target };
}

/**
 * A problem whose fewest steps are exactly `work`: target at Manhattan distance work - 1 from the
 * start, on the smallest grid that fits that distance plus `slack` (so longer work also means a
 * larger area to search). Uniform over all (start, target) pairs at that distance.
 */
export function problemForWork(rng: Rng, work: number, slack = 1): ItemProblem {
  const maxWork = 2 * (ITEM_MAX_GRID - 1) + 1;
  if (!Number.isInteger(work) || work < 1 || work > maxWork) {
    throw new Error(`problemForWork: work must be an integer in 1..${maxWork}, got ${work}`);
  }
  if (!Number.isInteger(slack) || slack < 0) throw new Error(`problemForWork: slack must be a non-negative integer, got ${slack}`);
  const d = work - 1;
  const gridSize = Math.min(ITEM_MAX_GRID, Math.max(ITEM_MIN_GRID, Math.ceil(d / 2) + 1 + slack));
  const pairs: number[] = [];
  for (let sy = 0; sy < gridSize; sy++)
    for (let sx = 0; sx < gridSize; sx++)
      for (let ty = 0; ty < gridSize; ty++)
        for (let tx = 0; tx < gridSize; tx++)
          if (Math.abs(tx - sx) + Math.abs(ty - sy) === d) pairs.push(sx, sy, tx, ty);
  const k = rng.int(pairs.length / 4) * 4;
  return { gridSize, start: [pairs[k], pairs[k + 1]], target: [pairs[k + 2], pairs[k + 3]] };
}

const DX = [0, 0, -1, 1];
const DY = [-1, 1, 0, 0];

export class ItemSearchEnv implements InPlaceEnv {
  readonly id = ITEM_SEARCH_ID;
  readonly observationSpace: BoxSpace;
  readonly actionSpace: DiscreteSpace = { kind: 'discrete', n: ITEM_NUM_ACTIONS };
  readonly rewards: Readonly<ItemRewards>;
  lastTerminated = false;
  lastTruncated = false;
  /** Set when the last step was a claim: the claimed cell index and whether it was the target. */
  lastClaim: { cell: number; correct: boolean } | null = null;
  private rng: Rng;
  private readonly drawGrid: number;
  private readonly fixedMax: number | null;
  private maxSteps: number;
  private p: ItemProblem | null = null;
  private x = 0;
  private y = 0;
  private visited = new Uint8Array(0);
  private nVisited = 0;
  private elapsed = 0;
  private ended = false;

  constructor(options: ItemSearchOptions = {}) {
    this.drawGrid = options.gridSize ?? ITEM_DEFAULT_GRID;
    checkGrid(this.drawGrid, ITEM_SEARCH_ID);
    const max = options.maxEpisodeSteps;
    if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
      throw new Error(`${ITEM_SEARCH_ID}: maxEpisodeSteps must be a positive integer, got ${max}`);
    }
    this.fixedMax = max ?? null;
    this.maxSteps = max ?? 2 * this.drawGrid * this.drawGrid;
    this.rng = new Rng(options.seed ?? 0);
    this.rewards = { ...ITEM_DEFAULT_REWARDS, ...options.rewards };
    const low = new Float32Array(ITEM_OBS_DIM);
    const high = new Float32Array(ITEM_OBS_DIM).fill(1);
    for (let i = 9; i < 18; i++) low[i] = -1;
    this.observationSpace = { kind: 'box', shape: [ITEM_OBS_DIM], low, high };
  }

  /** Step cap of the current episode (fixed by the options, or 2 * W^2 for the problem's W). */
  get maxEpisodeSteps(): number {
    return this.maxSteps;
  }

  get elapsedSteps(): number {
    return this.elapsed;
  }

  /** The current problem, hidden target included: for scripted oracles and tests, not for policies. */
  get problem(): ItemProblem {
    if (!this.p) throw new Error(`${ITEM_SEARCH_ID}: no problem before reset`);
    return this.p;
  }

  get position(): [number, number] {
    return [this.x, this.y];
  }

  /** The episode ended (terminated or truncated) and needs a reset before the next step. */
  get done(): boolean {
    return this.ended;
  }

  resetInto(out: Float32Array, offset: number, seed?: number): void {
    if (seed !== undefined) this.rng = new Rng(seed);
    this.load(randomItemProblem(this.rng, this.drawGrid));
    this.writeObs(out, offset);
  }

  reset(options: ResetOptions = {}): ResetResult {
    const obs = new Float32Array(ITEM_OBS_DIM);
    this.resetInto(obs, 0, options.seed);
    return { obs, info: { problem: this.problem } };
  }

  /** Start an episode on a given problem (the Rng is not touched). Returns the observation. */
  resetToProblem(problem: ItemProblem, out = new Float32Array(ITEM_OBS_DIM), offset = 0): Float32Array {
    validateItemProblem(problem);
    this.load(problem);
    this.writeObs(out, offset);
    return out;
  }

  private load(problem: ItemProblem): void {
    const W = problem.gridSize;
    this.p = { gridSize: W, start: [problem.start[0], problem.start[1]], target: [problem.target[0], problem.target[1]] };
    this.maxSteps = this.fixedMax ?? 2 * W * W;
    [this.x, this.y] = problem.start;
    this.visited = new Uint8Array(W * W);
    this.visited[cellIndex(W, this.x, this.y)] = 1;
    this.nVisited = 1;
    this.elapsed = 0;
    this.ended = false;
    this.lastTerminated = false;
    this.lastTruncated = false;
    this.lastClaim = null;
  }

  stepInto(action: number, out: Float32Array, offset: number): number {
    if (!this.p) throw new Error(`${ITEM_SEARCH_ID}: step() called before reset()`);
    if (this.ended) throw new Error(`${ITEM_SEARCH_ID}: step() called after the episode ended; call reset()`);
    if (!Number.isInteger(action) || action < 0 || action >= ITEM_NUM_ACTIONS) {
      throw new Error(`${ITEM_SEARCH_ID}: invalid action ${String(action)}; expected an integer in [0, ${ITEM_NUM_ACTIONS - 1}]`);
    }
    const W = this.p.gridSize;
    let reward = this.rewards.step;
    let terminated = false;
    this.lastClaim = null;
    if (action === ITEM_ACTION.CLAIM) {
      const correct = this.x === this.p.target[0] && this.y === this.p.target[1];
      this.lastClaim = { cell: cellIndex(W, this.x, this.y), correct };
      reward += correct ? this.rewards.found : this.rewards.wrongClaim;
      terminated = true;
    } else {
      const nx = this.x + DX[action];
      const ny = this.y + DY[action];
      if (nx >= 0 && nx < W && ny >= 0 && ny < W) {
        this.x = nx;
        this.y = ny;
        const c = cellIndex(W, nx, ny);
        if (!this.visited[c]) {
          this.visited[c] = 1;
          this.nVisited += 1;
        }
      }
    }
    this.elapsed += 1;
    this.lastTerminated = terminated;
    this.lastTruncated = !terminated && this.elapsed >= this.maxSteps;
    this.ended = this.lastTerminated || this.lastTruncated;
    this.writeObs(out, offset);
    return reward;
  }

  step(action: number): StepResult {
    const obs = new Float32Array(ITEM_OBS_DIM);
    const reward = this.stepInto(action, obs, 0);
    const claim = this.lastClaim;
    return {
      obs,
      reward,
      terminated: this.lastTerminated,
      truncated: this.lastTruncated,
      info: { found: claim?.correct ?? false, claimedCell: claim?.cell ?? null },
    };
  }

  /** Write the observation of the current state at out[offset ..]. */
  writeObs(out: Float32Array, offset: number): void {
    const p = this.problem;
    const W = p.gridSize;
    let k = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++, k++) {
        const cx = this.x + dx;
        const cy = this.y + dy;
        const inside = cx >= 0 && cx < W && cy >= 0 && cy < W;
        out[offset + k] = inside && cx === p.target[0] && cy === p.target[1] ? 1 : 0;
        out[offset + 9 + k] = !inside ? -1 : this.visited[cellIndex(W, cx, cy)] ? 1 : 0;
      }
    }
    out[offset + 18] = this.x / (W - 1);
    out[offset + 19] = this.y / (W - 1);
    out[offset + 20] = this.elapsed / this.maxSteps;
    out[offset + 21] = this.nVisited / (W * W);
    out[offset + 22] = (W - ITEM_MIN_GRID) / (ITEM_MAX_GRID - ITEM_MIN_GRID);
  }

  renderState(): Record<string, number> {
    const p = this.problem;
    return {
      gridSize: p.gridSize,
      x: this.x,
      y: this.y,
      targetX: p.target[0],
      targetY: p.target[1],
      elapsed: this.elapsed,
      visited: this.nVisited,
    };
  }
}
