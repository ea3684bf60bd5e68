/**
 * Drivers: whoever produces the step-by-step actions of the workers on item envs. The simulator
 * never runs a network itself; each step of a stage it hands the driver every still-active run at
 * once ("given N active item envs, return N actions"), so a neural driver can do one batched
 * forward pass per step for all subagents of a stage. The scripted drivers here serve as tests
 * and baselines.
 */
import type { Rng } from '../../core/rng';
import { ITEM_ACTION, ITEM_NUM_ACTIONS, ItemSearchEnv } from './itemSearch';

export type WorkerRole = 'orchestrator' | 'subagent';

export interface ActiveRun {
  readonly subtaskId: number;
  /** 'orchestrator' for direct work, 'subagent' for assigned work. */
  readonly role: WorkerRole;
  /** Index of the run in its stage (0..N-1, the order of the subtask ids), stable during the stage. */
  readonly slot: number;
  /** Steps the run has taken so far. */
  readonly steps: number;
  /** The run's env. Scripted drivers may read it; a policy should use only `obs`. */
  readonly env: ItemSearchEnv;
  /** A spurious subagent working on a duplicate (see OrchestrationSim.beginAssignWithDuplicates). */
  readonly duplicate?: boolean;
}

export interface WorkerBatch {
  /** Number of active runs this step (runs that ended drop out). */
  readonly n: number;
  readonly obsDim: number;
  /** n * obsDim float32, row i is the observation of runs[i]. Reused between steps: copy it to keep it. */
  readonly obs: Float32Array;
  readonly runs: readonly ActiveRun[];
}

/** Given N active runs, return N actions (row order). */
export type WorkerDriver = (batch: WorkerBatch) => ArrayLike<number>;
/** The same, for drivers that await a GPU readback. */
export type AsyncWorkerDriver = (batch: WorkerBatch) => ArrayLike<number> | Promise<ArrayLike<number>>;

/** The shortest solution, read from the hidden problem: walk x first, then y, then claim. */
export const oracleDriver: WorkerDriver = (batch) => {
  const actions = new Int32Array(batch.n);
  for (let i = 0; i < batch.n; i++) {
    const env = batch.runs[i].env;
    const [x, y] = env.position;
    const [tx, ty] = env.problem.target;
    if (x < tx) actions[i] = ITEM_ACTION.RIGHT;
    else if (x > tx) actions[i] = ITEM_ACTION.LEFT;
    else if (y < ty) actions[i] = ITEM_ACTION.DOWN;
    else if (y > ty) actions[i] = ITEM_ACTION.UP;
    else actions[i] = ITEM_ACTION.CLAIM;
  }
  return actions;
};

/** Uniform random actions (claims at random too, so it produces wrong answers). */
export function randomDriver(rng: Rng): WorkerDriver {
  return (batch) => {
    const actions = new Int32Array(batch.n);
    for (let i = 0; i < batch.n; i++) actions[i] = rng.int(ITEM_NUM_ACTIONS);
    return actions;
  };
}

const NEIGHBOURS: ReadonlyArray<readonly [number, number]> = [
  [1, ITEM_ACTION.UP],
  [7, ITEM_ACTION.DOWN],
  [3, ITEM_ACTION.LEFT],
  [5, ITEM_ACTION.RIGHT],
];

/**
 * The observation-only action of a simple searcher: claim when on the target, step toward it when
 * it is in the window, else move to a random unvisited neighbour, else to a random neighbour.
 * It never claims wrongly, but can time out on large grids.
 */
export function exploreAction(obs: Float32Array, offset: number, rng: Rng): number {
  if (obs[offset + 4] === 1) return ITEM_ACTION.CLAIM;
  for (let k = 0; k < 9; k++) {
    if (obs[offset + k] !== 1) continue;
    const dx = (k % 3) - 1;
    const dy = Math.floor(k / 3) - 1;
    if (dx !== 0) return dx < 0 ? ITEM_ACTION.LEFT : ITEM_ACTION.RIGHT;
    return dy < 0 ? ITEM_ACTION.UP : ITEM_ACTION.DOWN;
  }
  const fresh: number[] = [];
  const inside: number[] = [];
  for (const [k, a] of NEIGHBOURS) {
    const cell = obs[offset + 9 + k];
    if (cell === 0) fresh.push(a);
    if (cell !== -1) inside.push(a);
  }
  const pool = fresh.length > 0 ? fresh : inside;
  return pool[rng.int(pool.length)];
}

/** `exploreAction` for every run of the batch: a baseline "frozen subagent" that sees only its observation. */
export function exploreDriver(rng: Rng): WorkerDriver {
  return (batch) => {
    const actions = new Int32Array(batch.n);
    for (let i = 0; i < batch.n; i++) actions[i] = exploreAction(batch.obs, i * batch.obsDim, rng);
    return actions;
  };
}

/** With probability `epsilon`, replace each action of `base` by a uniform random one. */
export function epsilonDriver(base: WorkerDriver, rng: Rng, epsilon: number): WorkerDriver {
  if (!(epsilon >= 0 && epsilon <= 1)) throw new Error(`epsilonDriver: epsilon must be in [0, 1], got ${epsilon}`);
  return (batch) => {
    const a = base(batch);
    const out = new Int32Array(batch.n);
    for (let i = 0; i < batch.n; i++) out[i] = rng.uniform() < epsilon ? rng.int(ITEM_NUM_ACTIONS) : a[i];
    return out;
  };
}
