/**
 * The actors' side of the multi-agent policies: a plain typed-array forward pass of the learner's
 * networks (MADDPG's per-agent actors, QMIX's shared recurrent agent network), in the same weight
 * layout as their tfjs models (src/algorithms/maddpg.ts, qmix.ts), so that actors need no tfjs.
 * Actions: MADDPG and MAPPO sample u ~ softmax(ℓ) (MAPPO's one actor is shared by every agent); QMIX / VDN / IQL act ε-greedily on Q over the agent's
 * own actions. Greedy (greedy-episode) acting takes the argmax in both. exp and tanh are core/portableMath.ts's:
 * the page's and Node's engines differ in the last bit of Math's.
 */
import { agentInputDim, sharedActorInputDim, writeAgentInputs, writeSharedActorInput, type MarlActingSpec, type MarlTaskSpec } from '../algorithms/marl';
import { exp, tanh } from '../core/portableMath';
import type { Rng } from '../core/rng';

/** y = x·W + b for one row (W [in, out] row-major). */
function dense(x: Float32Array, w: Float32Array, b: Float32Array, out: Float32Array): void {
  const n = b.length;
  const m = x.length;
  for (let j = 0; j < n; j++) {
    let s = b[j];
    for (let i = 0; i < m; i++) s += x[i] * w[i * n + j];
    out[j] = s;
  }
}

const sigmoid = (v: number) => 1 / (1 + exp(-v));

export class MarlPolicy {
  private weights: Float32Array[] = [];
  /** QMIX: each agent's GRU state, [A, H]. */
  private hidden: Float32Array;
  private prevActions: Int32Array;
  private started = false;
  private readonly arrays: number;

  constructor(
    readonly task: MarlTaskSpec,
    readonly spec: MarlActingSpec,
  ) {
    const A = task.agents.length;
    this.arrays = spec.kind === 'mlpPerAgent' ? A * 2 * (spec.hidden.length + 1) : spec.kind === 'mlpShared' ? 2 * (spec.hidden.length + 1) : 8;
    this.hidden = new Float32Array(spec.kind === 'rnnShared' ? A * spec.hidden : 0);
    this.prevActions = new Int32Array(A);
  }

  setWeights(weights: Float32Array[]): void {
    if (weights.length !== this.arrays) throw new Error(`MarlPolicy: expected ${this.arrays} weight arrays, got ${weights.length}`);
    this.weights = weights;
  }

  /** Start of an episode: zero the recurrent state and the last actions. */
  resetEpisode(): void {
    this.hidden.fill(0);
    this.prevActions.fill(0);
    this.started = false;
  }

  /** Scores of every agent for one global state: logits (MADDPG) or Q (QMIX), [A][n_a]. */
  scores(state: Float32Array, stateOffset: number): Float32Array[] {
    if (this.weights.length === 0) throw new Error('MarlPolicy: no weights yet');
    switch (this.spec.kind) {
      case 'mlpPerAgent':
        return this.mlpScores(state, stateOffset, this.spec.hidden.length);
      case 'mlpShared':
        return this.sharedScores(state, stateOffset, this.spec.hidden.length, this.spec.agentId);
      case 'rnnShared':
        return this.rnnScores(state, stateOffset, this.spec.hidden);
    }
  }

  /** One MLP with the same weights for every agent, on its shared-actor input row. */
  private sharedScores(state: Float32Array, off: number, layers: number, agentId: boolean): Float32Array[] {
    return this.task.agents.map((_, a) => {
      let x = new Float32Array(sharedActorInputDim(this.task, agentId));
      writeSharedActorInput(this.task, agentId, state, off, a, x, 0);
      for (let l = 0; l <= layers; l++) {
        const b = this.weights[2 * l + 1];
        const y = new Float32Array(b.length);
        dense(x, this.weights[2 * l], b, y);
        if (l < layers) for (let j = 0; j < y.length; j++) y[j] = Math.max(0, y[j]);
        x = y;
      }
      return x;
    });
  }

  private mlpScores(state: Float32Array, off: number, layers: number): Float32Array[] {
    const per = 2 * (layers + 1);
    return this.task.agents.map((_, a) => {
      let x = state.slice(off + this.task.obsOffsets[a], off + this.task.obsOffsets[a] + this.task.obsDims[a]);
      for (let l = 0; l <= layers; l++) {
        const b = this.weights[a * per + 2 * l + 1];
        const y = new Float32Array(b.length);
        dense(x, this.weights[a * per + 2 * l], b, y);
        if (l < layers) for (let j = 0; j < y.length; j++) y[j] = Math.max(0, y[j]);
        x = y;
      }
      return x;
    });
  }

  private rnnScores(state: Float32Array, off: number, H: number): Float32Array[] {
    const A = this.task.agents.length;
    const D = agentInputDim(this.task);
    const inputs = new Float32Array(A * D);
    writeAgentInputs(this.task, state, off, this.started ? this.prevActions : null, 0, inputs, 0);
    const [w1, b1, wi, bi, wh, bh, w2, b2] = this.weights;
    const e = new Float32Array(H);
    const gi = new Float32Array(3 * H);
    const gh = new Float32Array(3 * H);
    const out: Float32Array[] = [];
    for (let a = 0; a < A; a++) {
      dense(inputs.subarray(a * D, (a + 1) * D), w1, b1, e);
      for (let j = 0; j < H; j++) e[j] = Math.max(0, e[j]);
      const h = this.hidden.subarray(a * H, (a + 1) * H);
      dense(e, wi, bi, gi);
      dense(h, wh, bh, gh);
      const h2 = new Float32Array(H);
      for (let j = 0; j < H; j++) {
        const r = sigmoid(gi[j] + gh[j]);
        const z = sigmoid(gi[H + j] + gh[H + j]);
        const n = tanh(gi[2 * H + j] + r * gh[2 * H + j]);
        h2[j] = (1 - z) * n + z * h[j];
      }
      h.set(h2);
      const q = new Float32Array(b2.length);
      dense(h2, w2, b2, q);
      out.push(q);
    }
    return out;
  }

  /**
   * Every agent's action for one global state, written at out[outOffset + a]: sampled (MADDPG),
   * ε-greedy (QMIX), or greedy when `greedy` (one flag for all, or one per agent: e.g. greedy
   * predators beside sampling prey). Records the actions for the next step's inputs.
   */
  act(state: Float32Array, stateOffset: number, epsilon: number, rng: Rng, greedy: boolean | readonly boolean[], out: Int32Array, outOffset: number): void {
    const scores = this.scores(state, stateOffset);
    scores.forEach((s, a) => {
      const n = this.task.actionSizes[a];
      let u: number;
      if (typeof greedy === 'boolean' ? greedy : greedy[a]) u = argmax(s, n);
      else if (this.spec.kind !== 'rnnShared') u = sampleSoftmax(s, n, rng);
      else u = rng.uniform() < epsilon ? rng.int(n) : argmax(s, n);
      out[outOffset + a] = u;
    });
    this.recordActions(out.subarray(outOffset, outOffset + this.task.agents.length));
  }

  /** The joint action just taken: the recurrent network's next inputs carry it. */
  recordActions(actions: ArrayLike<number>): void {
    for (let a = 0; a < this.prevActions.length; a++) this.prevActions[a] = actions[a];
    this.started = true;
  }
}

function argmax(s: Float32Array, n: number): number {
  let best = 0;
  for (let u = 1; u < n; u++) if (s[u] > s[best]) best = u;
  return best;
}

function sampleSoftmax(logits: Float32Array, n: number, rng: Rng): number {
  let m = -Infinity;
  for (let u = 0; u < n; u++) m = Math.max(m, logits[u]);
  let total = 0;
  const p = new Float64Array(n);
  for (let u = 0; u < n; u++) total += p[u] = exp(logits[u] - m);
  let x = rng.uniform() * total;
  for (let u = 0; u < n - 1; u++) {
    x -= p[u];
    if (x < 0) return u;
  }
  return n - 1;
}
