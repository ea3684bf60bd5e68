/**
 * The stream's backpressure: segments asked for and not taken yet, counted against a capacity. A
 * request starts while fewer than `capacity` are outstanding, so with requests of `pack` segments at
 * most `capacity + pack − 1` are; while fewer than a learner's batch (≤ capacity) are outstanding a
 * request can start, so this never deadlocks. Requests waiting for room start in the order they asked.
 */
import type { StreamRoom } from './producers';

export class SegmentRoom implements StreamRoom {
  private outstanding = 0;
  private readonly waiters: Array<{ n: number; go: () => void }> = [];

  constructor(
    private readonly capacity: number,
    readonly pack = 1,
  ) {}

  /** Segments asked for and not taken (or released) yet. */
  get asked(): number {
    return this.outstanding;
  }

  reserve(n = 1): Promise<void> {
    if (this.waiters.length === 0 && this.outstanding < this.capacity) {
      this.outstanding += n;
      return Promise.resolve();
    }
    return new Promise<void>((go) => this.waiters.push({ n, go }));
  }

  /** A request failed: its `n` places are free again. */
  release(n = 1): void {
    this.free(n);
  }

  /** The learner took `n` segments: their places are free again. */
  taken(n: number): void {
    this.free(n);
  }

  /** Lets every request waiting for room go (the loop is stopping; they see it). */
  openAll(): void {
    for (const w of this.waiters.splice(0)) w.go();
  }

  private free(n: number): void {
    this.outstanding = Math.max(0, this.outstanding - n);
    while (this.waiters.length && this.outstanding < this.capacity) {
      const w = this.waiters.shift();
      if (!w) break;
      this.outstanding += w.n;
      w.go();
    }
  }
}
