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

function checkFinite(name: string, xs: Float32Array): string | null {
  for (let i = 0; i < xs.length; i++) if (!Number.isFinite(xs[i])) return `${name}[${i}] is not finite`;
  return null;
}

/** Null when an episode batch is well formed, or a one-line reason. */
export function validateEpisodeBatch(b: EpisodeBatch, obsDim: number, numActions: number): string | null {
  if (!b || typeof b !== 'object') return 'not an object';
  if (b.obsDim !== obsDim) return `obsDim ${b.obsDim}, expected ${obsDim}`;
  if (!(b.steps > 0)) return `steps must be positive, got ${b.steps}`;
  if (!(b.obs instanceof Float32Array) || b.obs.length !== b.steps * obsDim) return `obs has ${b.obs?.length} values, expected ${b.steps * obsDim}`;
  if (!(b.actions instanceof Int32Array) || b.actions.length !== b.steps) return `actions has ${b.actions?.length} entries, expected ${b.steps}`;
  if (!(b.rewards instanceof Float32Array) || b.rewards.length !== b.steps) return `rewards has ${b.rewards?.length} entries, expected ${b.steps}`;
  if (!(b.dones instanceof Uint8Array) || b.dones.length !== b.steps || b.dones[b.steps - 1] !== 1) return 'dones must mark the end of the last episode';
  for (let i = 0; i < b.steps; i++) if (b.actions[i] < 0 || b.actions[i] >= numActions) return `actions[${i}] = ${b.actions[i]} is out of range`;
  return checkFinite('obs', b.obs) ?? checkFinite('rewards', b.rewards);
}

/** Null when a segment is well formed, or a one-line reason. */
export function validateSegment(s: Segment, obsDim: number, numActions: number): string | null {
  if (!s || typeof s !== 'object') return 'not an object';
  if (s.obsDim !== obsDim) return `obsDim ${s.obsDim}, expected ${obsDim}`;
  if (!(s.T > 0) || !(s.numEnvs > 0)) return `T and numEnvs must be positive, got ${s.T} and ${s.numEnvs}`;
  const B = s.T * s.numEnvs;
  const sized: [string, { length: number } | undefined, number][] = [
    ['obs', s.obs, B * obsDim],
    ['actions', s.actions, B],
    ['logProbs', s.logProbs, B],
    ['rewards', s.rewards, B],
    ['dones', s.dones, B],
    ['truncated', s.truncated, B],
    ['lastObs', s.lastObs, s.numEnvs * obsDim],
    ['finalObs', s.finalObs, (s.finalIndex?.length ?? 0) * obsDim],
  ];
  for (const [name, xs, want] of sized) if (!xs || xs.length !== want) return `${name} has ${xs?.length} values, expected ${want}`;
  for (let i = 0; i < B; i++) if (s.actions[i] < 0 || s.actions[i] >= numActions) return `actions[${i}] = ${s.actions[i]} is out of range`;
  for (const i of s.finalIndex) if (i < 0 || i >= B) return `finalIndex ${i} is out of range`;
  return checkFinite('obs', s.obs) ?? checkFinite('rewards', s.rewards) ?? checkFinite('logProbs', s.logProbs) ?? checkFinite('lastObs', s.lastObs);
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
