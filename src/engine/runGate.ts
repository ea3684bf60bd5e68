/**
 * Pause, resume, single-step and stop for a training loop. The loop awaits `beforeUpdate()`
 * before each update; the controls may be called at any time from anywhere.
 */
export type GateState = 'running' | 'paused' | 'stopped';

export class RunGate {
  private state: GateState = 'running';
  private stepsAllowed = 0;
  private wake: (() => void) | null = null;
  private resolveStopped!: () => void;
  private readonly stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));

  get current(): GateState {
    return this.state;
  }

  isRunning(): boolean {
    return this.state === 'running';
  }

  pause(): void {
    if (this.state === 'running') this.state = 'paused';
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.release();
  }

  /** While paused, let exactly one more update through. */
  step(): void {
    if (this.state !== 'paused') return;
    this.stepsAllowed += 1;
    this.release();
  }

  stop(): void {
    this.state = 'stopped';
    this.resolveStopped();
    this.release();
  }

  /** Resolves when stop() is called (a loop races its waits against it, so Stop is never stuck behind one). */
  whenStopped(): Promise<void> {
    return this.stopped;
  }

  /** Resolves true when the next update may run, false when the run should stop. */
  async beforeUpdate(): Promise<boolean> {
    for (;;) {
      if (this.state === 'stopped') return false;
      if (this.state === 'running') return true;
      if (this.stepsAllowed > 0) {
        this.stepsAllowed -= 1;
        return true;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private release(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
