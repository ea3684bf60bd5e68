/**
 * The learner's episode replay for the multi-agent loops: a ring of whole episodes (pymarl's
 * EpisodeBatch buffer), in the layout of src/algorithms/marl.ts. QMIX samples whole episodes;
 * MADDPG samples single steps (episode, t) uniformly, as 1-step episodes holding s and s';
 * MAPPO takes the episodes collected since its last update (latestEpisodes).
 */
import type { EpisodeSource, MarlEpisodeBatch } from '../algorithms/marl';
import type { Rng } from '../core/rng';

export class EpisodeReplay implements EpisodeSource {
  private readonly state: Float32Array;
  private readonly actions: Int32Array;
  private readonly rewards: Float32Array;
  private next = 0;
  size = 0;

  constructor(
    readonly capacity: number,
    readonly T: number,
    readonly stateDim: number,
    readonly numAgents: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`EpisodeReplay: capacity must be a positive integer, got ${capacity}`);
    this.state = new Float32Array(capacity * (T + 1) * stateDim);
    this.actions = new Int32Array(capacity * T * numAgents);
    this.rewards = new Float32Array(capacity * T * numAgents);
  }

  /** Store every episode of a batch (oldest overwritten first once full). */
  add(batch: MarlEpisodeBatch): void {
    if (batch.T !== this.T) throw new Error(`EpisodeReplay: episodes of ${batch.T} steps, the replay holds ${this.T}`);
    const sLen = (this.T + 1) * this.stateDim;
    const aLen = this.T * this.numAgents;
    for (let e = 0; e < batch.numEpisodes; e++) {
      const k = this.next;
      this.state.set(batch.state.subarray(e * sLen, (e + 1) * sLen), k * sLen);
      this.actions.set(batch.actions.subarray(e * aLen, (e + 1) * aLen), k * aLen);
      this.rewards.set(batch.rewards.subarray(e * aLen, (e + 1) * aLen), k * aLen);
      this.next = (k + 1) % this.capacity;
      this.size = Math.min(this.size + 1, this.capacity);
    }
  }

  sampleEpisodes(count: number, rng: Rng): MarlEpisodeBatch {
    this.requireSome();
    const sLen = (this.T + 1) * this.stateDim;
    const aLen = this.T * this.numAgents;
    const out = { numEpisodes: count, T: this.T, state: new Float32Array(count * sLen), actions: new Int32Array(count * aLen), rewards: new Float32Array(count * aLen) };
    for (let b = 0; b < count; b++) {
      const k = rng.int(this.size);
      out.state.set(this.state.subarray(k * sLen, (k + 1) * sLen), b * sLen);
      out.actions.set(this.actions.subarray(k * aLen, (k + 1) * aLen), b * aLen);
      out.rewards.set(this.rewards.subarray(k * aLen, (k + 1) * aLen), b * aLen);
    }
    return out;
  }

  sampleSteps(count: number, rng: Rng): MarlEpisodeBatch {
    this.requireSome();
    const S = this.stateDim;
    const A = this.numAgents;
    const out = { numEpisodes: count, T: 1, state: new Float32Array(count * 2 * S), actions: new Int32Array(count * A), rewards: new Float32Array(count * A) };
    for (let b = 0; b < count; b++) {
      const k = rng.int(this.size);
      const t = rng.int(this.T);
      const s0 = (k * (this.T + 1) + t) * S;
      out.state.set(this.state.subarray(s0, s0 + 2 * S), b * 2 * S); // s(t) and s(t + 1) are adjacent
      out.actions.set(this.actions.subarray((k * this.T + t) * A, (k * this.T + t + 1) * A), b * A);
      out.rewards.set(this.rewards.subarray((k * this.T + t) * A, (k * this.T + t + 1) * A), b * A);
    }
    return out;
  }

  latestEpisodes(count: number): MarlEpisodeBatch {
    this.requireSome();
    if (!Number.isInteger(count) || count < 1 || count > this.size) throw new Error(`EpisodeReplay: asked for the latest ${count} episodes, it holds ${this.size}`);
    const sLen = (this.T + 1) * this.stateDim;
    const aLen = this.T * this.numAgents;
    const out = { numEpisodes: count, T: this.T, state: new Float32Array(count * sLen), actions: new Int32Array(count * aLen), rewards: new Float32Array(count * aLen) };
    for (let b = 0; b < count; b++) {
      const k = (this.next - count + b + this.capacity) % this.capacity;
      out.state.set(this.state.subarray(k * sLen, (k + 1) * sLen), b * sLen);
      out.actions.set(this.actions.subarray(k * aLen, (k + 1) * aLen), b * aLen);
      out.rewards.set(this.rewards.subarray(k * aLen, (k + 1) * aLen), b * aLen);
    }
    return out;
  }

  private requireSome(): void {
    if (this.size === 0) throw new Error('EpisodeReplay: nothing stored yet');
  }
}
