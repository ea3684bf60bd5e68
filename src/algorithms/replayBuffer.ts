/**
 * Experience replay (Lin 1992; Mnih et al. 2015) as a ring buffer on preallocated typed arrays.
 *
 * Storage: `capacity` slots; slot i holds obs[i·obsDim … (i+1)·obsDim), action[i], reward[i],
 * nextObs[i·obsDim …], done[i]. `add` writes at `pos` and advances pos = (pos + 1) mod capacity,
 * so once full the oldest transition is overwritten first (as SB3's / CleanRL's ReplayBuffer).
 *
 * `done` must be the TERMINATED flag only (a time-limit truncation is not a terminal state: store
 * done = 0 with the real final observation as nextObs, as SB3's handle_timeout_termination).
 *
 * Sampling is uniform WITH replacement over the filled slots (SB3: np.random.randint), drawn from
 * the buffer's own seeded Rng, so the same seed and the same adds give the same batches.
 */
import { Rng } from '../core/rng';

/** A batch of transitions, flat and row-major; `A` holds the actions ([B] indices or [B · actionDim] vectors). */
export interface TransitionRows<A extends Int32Array | Float32Array> {
  /** [B · obsDim] s. */
  obs: Float32Array;
  /** [B · actionWidth] a (a continuous action as the env received it, inside the bounds). */
  actions: A;
  /** [B] r. */
  rewards: Float32Array;
  /** [B · obsDim] s'. */
  nextObs: Float32Array;
  /** [B] 1 if s' is terminal (terminated, not truncated). */
  dones: Uint8Array;
  /** B. */
  batchSize: number;
}

/** Discrete actions (what DQN learns from). */
export type TransitionBatch = TransitionRows<Int32Array>;
/** Continuous (vector) actions (DDPG, TD3, SAC). */
export type ContinuousTransitionBatch = TransitionRows<Float32Array>;

/**
 * The ring buffer itself, for actions of `actionWidth` values each: slot i holds
 * actions[i·actionWidth … (i+1)·actionWidth).
 */
abstract class TransitionRing<A extends Int32Array | Float32Array> {
  readonly obs: Float32Array;
  readonly nextObs: Float32Array;
  readonly actions: A;
  readonly rewards: Float32Array;
  readonly dones: Uint8Array;
  private pos = 0;
  private filled = 0;
  private readonly rng: Rng;

  protected constructor(
    /** The class name the error messages start with. */
    private readonly who: string,
    readonly capacity: number,
    readonly obsDim: number,
    private readonly actionWidth: number,
    seed: number,
    stream: number,
    private readonly makeActions: (length: number) => A,
  ) {
    for (const [name, v] of [
      ['capacity', capacity],
      ['obsDim', obsDim],
      ['actionDim', actionWidth],
    ] as const) {
      if (!Number.isInteger(v) || v < 1) throw new Error(`${who}: ${name} must be a positive integer, got ${v}`);
    }
    this.obs = new Float32Array(capacity * obsDim);
    this.nextObs = new Float32Array(capacity * obsDim);
    this.actions = makeActions(capacity * actionWidth);
    this.rewards = new Float32Array(capacity);
    this.dones = new Uint8Array(capacity);
    this.rng = new Rng(seed).fork(stream);
  }

  /** Number of transitions stored (≤ capacity). */
  get size(): number {
    return this.filled;
  }

  /** The slot the next `add` writes to. */
  get position(): number {
    return this.pos;
  }

  /** Store one transition (s, a, r, s', done); `a` is an index (width 1) or a vector of `actionWidth` values. */
  protected store(obs: ArrayLike<number>, action: number | ArrayLike<number>, reward: number, nextObs: ArrayLike<number>, done: boolean | number): void {
    if (obs.length !== this.obsDim || nextObs.length !== this.obsDim) {
      throw new Error(`${this.who}.add: obs / nextObs must have obsDim = ${this.obsDim} values, got ${obs.length} / ${nextObs.length}`);
    }
    if (typeof action !== 'number' && action.length !== this.actionWidth) {
      throw new Error(`${this.who}.add: the action must have actionDim = ${this.actionWidth} values, got ${action.length}`);
    }
    const i = this.pos;
    this.obs.set(obs, i * this.obsDim);
    this.nextObs.set(nextObs, i * this.obsDim);
    if (typeof action === 'number') this.actions[i] = action;
    else this.actions.set(action, i * this.actionWidth);
    this.rewards[i] = reward;
    this.dones[i] = done ? 1 : 0;
    this.pos = (this.pos + 1) % this.capacity;
    this.filled = Math.min(this.filled + 1, this.capacity);
  }

  /** `batchSize` transitions drawn uniformly with replacement (fresh arrays, safe to transfer). */
  sample(batchSize: number): TransitionRows<A> {
    if (this.filled === 0) throw new Error(`${this.who}.sample: the buffer is empty`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`${this.who}.sample: batchSize must be a positive integer, got ${batchSize}`);
    const d = this.obsDim;
    const k = this.actionWidth;
    const out: TransitionRows<A> = {
      obs: new Float32Array(batchSize * d),
      actions: this.makeActions(batchSize * k),
      rewards: new Float32Array(batchSize),
      nextObs: new Float32Array(batchSize * d),
      dones: new Uint8Array(batchSize),
      batchSize,
    };
    // Element by element: for rows of a few values this beats a subarray view + set per row.
    for (let b = 0; b < batchSize; b++) {
      const i = this.rng.int(this.filled);
      for (let j = 0; j < d; j++) {
        out.obs[b * d + j] = this.obs[i * d + j];
        out.nextObs[b * d + j] = this.nextObs[i * d + j];
      }
      for (let j = 0; j < k; j++) out.actions[b * k + j] = this.actions[i * k + j];
      out.rewards[b] = this.rewards[i];
      out.dones[b] = this.dones[i];
    }
    return out;
  }

  /** Forget everything (the sampling stream continues). */
  clear(): void {
    this.pos = 0;
    this.filled = 0;
  }
}

/** Discrete actions: slot i holds actions[i]. */
export class ReplayBuffer extends TransitionRing<Int32Array> {
  constructor(capacity: number, obsDim: number, seed: number) {
    super('ReplayBuffer', capacity, obsDim, 1, seed, 0x4eb, (n) => new Int32Array(n));
  }

  /** Store one transition (s, a, r, s', done). */
  add(obs: ArrayLike<number>, action: number, reward: number, nextObs: ArrayLike<number>, done: boolean | number): void {
    this.store(obs, action, reward, nextObs, done);
  }

  /** Store every row of a batch (e.g. one actor's message), in order. */
  addBatch(batch: TransitionBatch): void {
    const d = this.obsDim;
    if (batch.obs.length !== batch.batchSize * d || batch.nextObs.length !== batch.batchSize * d) {
      throw new Error(`ReplayBuffer.addBatch: obs / nextObs must hold batchSize·obsDim = ${batch.batchSize * d} values`);
    }
    for (let b = 0; b < batch.batchSize; b++) {
      this.add(batch.obs.subarray(b * d, (b + 1) * d), batch.actions[b], batch.rewards[b], batch.nextObs.subarray(b * d, (b + 1) * d), batch.dones[b]);
    }
  }
}

/**
 * Vector actions: slot i holds actions[i·actionDim … (i+1)·actionDim). Same storage order,
 * overwrite order, done convention (terminated only) and seeded uniform sampling with replacement
 * as `ReplayBuffer` (its own Rng stream).
 */
export class ContinuousReplayBuffer extends TransitionRing<Float32Array> {
  constructor(
    capacity: number,
    obsDim: number,
    readonly actionDim: number,
    seed: number,
  ) {
    super('ContinuousReplayBuffer', capacity, obsDim, actionDim, seed, 0x4ec, (n) => new Float32Array(n));
  }

  /** Store one transition (s, a, r, s', done). */
  add(obs: ArrayLike<number>, action: ArrayLike<number>, reward: number, nextObs: ArrayLike<number>, done: boolean | number): void {
    this.store(obs, action, reward, nextObs, done);
  }

  /** Store every row of a batch (e.g. one actor's message), in order. */
  addBatch(batch: ContinuousTransitionBatch): void {
    const d = this.obsDim;
    const k = this.actionDim;
    const B = batch.batchSize;
    if (batch.obs.length !== B * d || batch.nextObs.length !== B * d || batch.actions.length !== B * k) {
      throw new Error(`ContinuousReplayBuffer.addBatch: obs / nextObs need batchSize·obsDim = ${B * d} values and actions batchSize·actionDim = ${B * k}`);
    }
    for (let b = 0; b < B; b++) {
      this.add(
        batch.obs.subarray(b * d, (b + 1) * d),
        batch.actions.subarray(b * k, (b + 1) * k),
        batch.rewards[b],
        batch.nextObs.subarray(b * d, (b + 1) * d),
        batch.dones[b],
      );
    }
  }
}
