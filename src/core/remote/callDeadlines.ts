/**
 * How long a call to an actor may take before the actor counts as no longer answering calls,
 * learned from the run's own calls, method by method.
 *
 * The deadline is `factor` × the 99th percentile of the method's last `window` call times, and
 * never under `floorMs`: a run's calls vary with load, garbage collection and live changes (a
 * longer rollout), so only a call many times slower than nearly all the others counts as lost.
 * Until `minSamples` calls of the method have finished, the deadline is `firstCallsMs`: a first
 * call may compile kernels or load a backend. Each deadline that is missed doubles the method's
 * factor, so a run whose calls truly became slower (not stuck) loses at most a few actors before
 * its deadlines catch up.
 */
export interface CallDeadlineOptions {
  /** Multiple of the high quantile of the measured times (default 10). */
  factor?: number;
  /** The shortest deadline once times are measured (default 10 000 ms). */
  floorMs?: number;
  /** The deadline before `minSamples` calls have finished (default 60 000 ms). */
  firstCallsMs?: number;
  /** Calls measured before the deadline follows the measured times (default 3). */
  minSamples?: number;
  /** How many recent call times a method keeps (default 200). */
  window?: number;
}

interface MethodTimes {
  times: number[];
  next: number;
  factor: number;
}

export class CallDeadlines {
  private readonly methods = new Map<string, MethodTimes>();
  private readonly factor: number;
  private readonly floorMs: number;
  private readonly firstCallsMs: number;
  private readonly minSamples: number;
  private readonly window: number;

  constructor(o: CallDeadlineOptions = {}) {
    this.factor = o.factor ?? 10;
    this.floorMs = o.floorMs ?? 10_000;
    this.firstCallsMs = o.firstCallsMs ?? 60_000;
    this.minSamples = Math.max(1, o.minSamples ?? 3);
    this.window = Math.max(this.minSamples, o.window ?? 200);
  }

  private of(method: string): MethodTimes {
    let m = this.methods.get(method);
    if (!m) this.methods.set(method, (m = { times: [], next: 0, factor: this.factor }));
    return m;
  }

  /** A call of `method` finished after `ms`. */
  record(method: string, ms: number): void {
    const m = this.of(method);
    if (m.times.length < this.window) m.times.push(ms);
    else m.times[m.next] = ms;
    m.next = (m.next + 1) % this.window;
  }

  /** A call of `method` missed its deadline: later ones get twice the multiple. */
  missed(method: string): void {
    this.of(method).factor *= 2;
  }

  /** The deadline for the next call of `method`, in ms. */
  deadlineMs(method: string): number {
    const m = this.methods.get(method);
    if (!m || m.times.length < this.minSamples) return this.firstCallsMs;
    const sorted = [...m.times].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)];
    return Math.max(this.floorMs, m.factor * p99);
  }
}
