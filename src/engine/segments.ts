/**
 * The experience that moves from actors to the learner: plain objects of typed arrays, one
 * message per segment (transferred, never copied), and the checks the learner runs on them.
 */

/** Whole episodes, concatenated: the episode of env copy 0, then copy 1, ... */
export interface EpisodeBatch {
  actorIndex: number;
  /** Version of the weights that produced these actions (for the policy lag). */
  policyVersion: number;
  steps: number;
  obsDim: number;
  obs: Float32Array; // [steps, obsDim]
  actions: Int32Array; // [steps]
  rewards: Float32Array; // [steps]
  dones: Uint8Array; // [steps], 1 on the last step of each episode
  episodeReturns: Float32Array;
  episodeLengths: Int32Array;
  /** Wall time the actor spent on this batch. */
  seconds: number;
}

/** T steps of N env copies, time-major: step t of copy n is at index t·N + n. */
export interface Segment {
  actorIndex: number;
  policyVersion: number;
  T: number;
  numEnvs: number;
  obsDim: number;
  obs: Float32Array; // [T·N·obsDim], the observation each action was taken in
  actions: Int32Array; // [T·N]
  logProbs: Float32Array; // [T·N], log μ(a|s) of the acting policy (0 for ε-greedy)
  rewards: Float32Array; // [T·N]
  dones: Uint8Array; // [T·N], terminated at this step
  truncated: Uint8Array; // [T·N], cut by the time limit at this step
  finalIndex: Int32Array; // [F], indices t·N+n where an episode ended
  finalObs: Float32Array; // [F·obsDim], the real last observation of those episodes
  lastObs: Float32Array; // [N·obsDim], the observation after step T−1 (bootstrap)
  episodeReturns: Float32Array; // episodes that ended in this segment
  episodeLengths: Int32Array;
  seconds: number;
}

/** One step of every env copy, for central (learner-side) inference. */
export interface VectorStepResult {
  obs: Float32Array;
  rewards: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  finalObs: Float32Array;
  episodeReturns: Float32Array;
  episodeLengths: Int32Array;
}

type TypedArrayKind = typeof Float32Array | typeof Int32Array | typeof Uint8Array;

/**
 * A field's kind and length: a plain Array, or a typed array of another kind, is refused here
 * rather than failing later deep in a loop (`subarray is not a function`, silent rounding).
 */
function checkArray(name: string, xs: unknown, kind: TypedArrayKind, want: number | null): string | null {
  if (!(xs instanceof kind)) {
    const got = xs === null || xs === undefined ? String(xs) : Array.isArray(xs) ? 'a plain Array' : ArrayBuffer.isView(xs) ? article(xs.constructor.name) : article(typeof xs);
    return `${name} must be ${article(kind.name)}, got ${got}`;
  }
  if (want !== null && xs.length !== want) return `${name} has ${xs.length} values, expected ${want}`;
  return null;
}

const article = (word: string) => `${/^[aeioAEIO]/.test(word) ? 'an' : 'a'} ${word}`;

function checkFinite(name: string, xs: Float32Array): string | null {
  for (let i = 0; i < xs.length; i++) if (!Number.isFinite(xs[i])) return `${name}[${i}] is not finite (${xs[i]})`;
  return null;
}

function checkActions(xs: Int32Array, numActions: number): string | null {
  for (let i = 0; i < xs.length; i++) if (xs[i] < 0 || xs[i] >= numActions) return `actions[${i}] = ${xs[i]} is out of range [0, ${numActions})`;
  return null;
}

function checkFlags(name: string, xs: Uint8Array): string | null {
  for (let i = 0; i < xs.length; i++) if (xs[i] > 1) return `${name}[${i}] = ${xs[i]}, expected 0 or 1`;
  return null;
}

/** Episode returns and lengths of the episodes a message says ended: as many of each, finite, lengths ≥ 1. */
function checkEpisodes(returns: unknown, lengths: unknown, most: number): string | null {
  const kinds = checkArray('episodeReturns', returns, Float32Array, null) ?? checkArray('episodeLengths', lengths, Int32Array, null);
  if (kinds) return kinds;
  const r = returns as Float32Array;
  const l = lengths as Int32Array;
  if (r.length !== l.length) return `episodeReturns has ${r.length} values but episodeLengths has ${l.length}`;
  if (r.length > most) return `${r.length} episodes ended, more than the ${most} steps carried`;
  for (let i = 0; i < l.length; i++) if (l[i] < 1) return `episodeLengths[${i}] = ${l[i]} is not a positive length`;
  return checkFinite('episodeReturns', r);
}

function checkCounts(fields: Record<string, unknown>): string | null {
  for (const [name, v] of Object.entries(fields)) {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) return `${name} must be a non-negative integer, got ${String(v)}`;
  }
  return null;
}

const firstProblem = (...checks: (() => string | null)[]): string | null => {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return null;
};

/** Null when an episode batch is well formed, or a one-line reason naming the field. */
export function validateEpisodeBatch(b: EpisodeBatch, obsDim: number, numActions: number): string | null {
  if (!b || typeof b !== 'object') return 'not an object';
  if (b.obsDim !== obsDim) return `obsDim ${b.obsDim}, expected ${obsDim}`;
  if (typeof b.steps !== 'number' || !Number.isSafeInteger(b.steps) || b.steps <= 0) return `steps must be a positive integer, got ${String(b.steps)}`;
  return firstProblem(
    () => checkCounts({ policyVersion: b.policyVersion }),
    () => checkArray('obs', b.obs, Float32Array, b.steps * obsDim),
    () => checkArray('actions', b.actions, Int32Array, b.steps),
    () => checkArray('rewards', b.rewards, Float32Array, b.steps),
    () => checkArray('dones', b.dones, Uint8Array, b.steps),
    () => checkEpisodes(b.episodeReturns, b.episodeLengths, b.steps),
    () => checkActions(b.actions, numActions),
    () => checkFlags('dones', b.dones),
    () => {
      // Whole episodes back to back: each length ends on a done, and together they fill the batch.
      let end = 0;
      for (let i = 0; i < b.episodeLengths.length; i++) {
        end += b.episodeLengths[i];
        if (end > b.steps || b.dones[end - 1] !== 1) return `episodeLengths[${i}] does not end on a done`;
      }
      if (end !== b.steps || b.dones[b.steps - 1] !== 1) return 'dones must mark the end of the last episode';
      return null;
    },
    () => checkFinite('obs', b.obs),
    () => checkFinite('rewards', b.rewards),
  );
}

/** Null when a segment is well formed, or a one-line reason naming the field. */
export function validateSegment(s: Segment, obsDim: number, numActions: number): string | null {
  if (!s || typeof s !== 'object') return 'not an object';
  if (s.obsDim !== obsDim) return `obsDim ${s.obsDim}, expected ${obsDim}`;
  if (!Number.isSafeInteger(s.T) || !Number.isSafeInteger(s.numEnvs) || !(s.T > 0) || !(s.numEnvs > 0)) {
    return `T and numEnvs must be positive integers, got ${s.T} and ${s.numEnvs}`;
  }
  const B = s.T * s.numEnvs;
  return firstProblem(
    () => checkCounts({ policyVersion: s.policyVersion }),
    () => checkArray('obs', s.obs, Float32Array, B * obsDim),
    () => checkArray('actions', s.actions, Int32Array, B),
    () => checkArray('logProbs', s.logProbs, Float32Array, B),
    () => checkArray('rewards', s.rewards, Float32Array, B),
    () => checkArray('dones', s.dones, Uint8Array, B),
    () => checkArray('truncated', s.truncated, Uint8Array, B),
    () => checkArray('lastObs', s.lastObs, Float32Array, s.numEnvs * obsDim),
    () => checkArray('finalIndex', s.finalIndex, Int32Array, null),
    () => checkArray('finalObs', s.finalObs, Float32Array, s.finalIndex.length * obsDim),
    () => checkEpisodes(s.episodeReturns, s.episodeLengths, B),
    () => checkActions(s.actions, numActions),
    () => checkFlags('dones', s.dones) ?? checkFlags('truncated', s.truncated),
    () => {
      for (let k = 0; k < s.finalIndex.length; k++) if (s.finalIndex[k] < 0 || s.finalIndex[k] >= B) return `finalIndex[${k}] = ${s.finalIndex[k]} is out of range [0, ${B})`;
      return null;
    },
    () => checkFinite('obs', s.obs),
    () => checkFinite('rewards', s.rewards),
    () => checkFinite('logProbs', s.logProbs),
    () => checkFinite('lastObs', s.lastObs),
    () => checkFinite('finalObs', s.finalObs),
  );
}

/**
 * Join segments of the same length T from several actors along the env axis: the result is
 * [T, ΣN] time-major, with each actor's copies side by side.
 */
export function concatSegments(segs: readonly Segment[]): Segment {
  if (segs.length === 1) return segs[0];
  const T = segs[0].T;
  const d = segs[0].obsDim;
  if (segs.some((s) => s.T !== T || s.obsDim !== d)) throw new Error('concatSegments: segments differ in T or obsDim');
  const N = segs.reduce((n, s) => n + s.numEnvs, 0);
  const out: Segment = {
    actorIndex: -1,
    policyVersion: Math.min(...segs.map((s) => s.policyVersion)),
    T,
    numEnvs: N,
    obsDim: d,
    obs: new Float32Array(T * N * d),
    actions: new Int32Array(T * N),
    logProbs: new Float32Array(T * N),
    rewards: new Float32Array(T * N),
    dones: new Uint8Array(T * N),
    truncated: new Uint8Array(T * N),
    finalIndex: new Int32Array(0),
    finalObs: new Float32Array(0),
    lastObs: new Float32Array(N * d),
    episodeReturns: new Float32Array(0),
    episodeLengths: new Int32Array(0),
    seconds: Math.max(...segs.map((s) => s.seconds)),
  };
  const finals: number[] = [];
  const finalObs: number[] = [];
  let offset = 0;
  for (const s of segs) {
    const n = s.numEnvs;
    for (let t = 0; t < T; t++) {
      const src = t * n;
      const dst = t * N + offset;
      out.obs.set(s.obs.subarray(src * d, (src + n) * d), dst * d);
      out.actions.set(s.actions.subarray(src, src + n), dst);
      out.logProbs.set(s.logProbs.subarray(src, src + n), dst);
      out.rewards.set(s.rewards.subarray(src, src + n), dst);
      out.dones.set(s.dones.subarray(src, src + n), dst);
      out.truncated.set(s.truncated.subarray(src, src + n), dst);
    }
    s.finalIndex.forEach((idx, k) => {
      const t = Math.floor(idx / n);
      finals.push(t * N + offset + (idx % n));
      for (let j = 0; j < d; j++) finalObs.push(s.finalObs[k * d + j]);
    });
    out.lastObs.set(s.lastObs, offset * d);
    offset += n;
  }
  out.finalIndex = Int32Array.from(finals);
  out.finalObs = Float32Array.from(finalObs);
  out.episodeReturns = Float32Array.from(segs.flatMap((s) => Array.from(s.episodeReturns)));
  out.episodeLengths = Int32Array.from(segs.flatMap((s) => Array.from(s.episodeLengths)));
  return out;
}

/** What one step of N env copies adds to a segment. */
export interface StepOutcome {
  rewards: ArrayLike<number>;
  terminated: ArrayLike<number>;
  truncated: ArrayLike<number>;
  /** [N·obsDim], the real last observation of copies whose episode ended this step. */
  finalObs: ArrayLike<number>;
  episodeReturns: ArrayLike<number>;
  episodeLengths: ArrayLike<number>;
}

/** Fills a [T, N] segment one step at a time (actor-side and learner-side sampling alike). */
export class SegmentWriter {
  private readonly seg: Segment;
  private readonly finals: number[] = [];
  private readonly finalObs: number[] = [];
  private readonly returns: number[] = [];
  private readonly lengths: number[] = [];
  private readonly started = performance.now();

  constructor(actorIndex: number, policyVersion: number, T: number, n: number, d: number) {
    const B = T * n;
    this.seg = {
      actorIndex,
      policyVersion,
      T,
      numEnvs: n,
      obsDim: d,
      obs: new Float32Array(B * d),
      actions: new Int32Array(B),
      logProbs: new Float32Array(B),
      rewards: new Float32Array(B),
      dones: new Uint8Array(B),
      truncated: new Uint8Array(B),
      finalIndex: new Int32Array(0),
      finalObs: new Float32Array(0),
      lastObs: new Float32Array(n * d),
      episodeReturns: new Float32Array(0),
      episodeLengths: new Int32Array(0),
      seconds: 0,
    };
  }

  /** Step t: the observations acted in, the actions and their log-probabilities, and the outcome. */
  write(t: number, obs: Float32Array, actions: Int32Array, logProbs: Float32Array, step: StepOutcome): void {
    const { numEnvs: n, obsDim: d } = this.seg;
    this.seg.obs.set(obs, t * n * d);
    this.seg.actions.set(actions, t * n);
    this.seg.logProbs.set(logProbs, t * n);
    this.seg.rewards.set(step.rewards, t * n);
    this.seg.dones.set(step.terminated, t * n);
    this.seg.truncated.set(step.truncated, t * n);
    for (let i = 0; i < n; i++) {
      if (step.terminated[i] || step.truncated[i]) {
        this.finals.push(t * n + i);
        for (let k = 0; k < d; k++) this.finalObs.push(step.finalObs[i * d + k]);
      }
    }
    for (let i = 0; i < step.episodeReturns.length; i++) {
      this.returns.push(step.episodeReturns[i]);
      this.lengths.push(step.episodeLengths[i]);
    }
  }

  /** Close the segment with the observation after its last step. */
  finish(lastObs: Float32Array): Segment {
    this.seg.lastObs.set(lastObs);
    this.seg.finalIndex = Int32Array.from(this.finals);
    this.seg.finalObs = Float32Array.from(this.finalObs);
    this.seg.episodeReturns = Float32Array.from(this.returns);
    this.seg.episodeLengths = Int32Array.from(this.lengths);
    this.seg.seconds = (performance.now() - this.started) / 1000;
    return this.seg;
  }
}
