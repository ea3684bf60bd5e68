/**
 * Actor workers started ahead of a run ("warm"): each has loaded its script and set up its tfjs
 * backend before Start, so a run's actors are constructed in them at once instead of waiting for a
 * fresh worker's script and wasm. The pool only hands out workers whose actor host has not been
 * given an actor yet: the run constructs its actors in them with its own arguments (its seed),
 * exactly as in a fresh worker, so warm or cold changes no number.
 *
 * - `fill(n)` keeps n idle workers (at most `maxIdle`); `take()` hands one out (the warmed-up ones
 *   first) or undefined, and the caller then spawns a fresh one as before.
 * - An idle worker that dies is dropped and replaced; after `maxRespawns` deaths in a row with no
 *   worker warming up in between, the pool stops replacing them (a broken worker script).
 * - `fill(0)` / `shrink(n)` terminate the idle workers beyond n; `dispose()` all of them.
 * Nothing here refills on `take()`: the learner fills the pool when it is idle (before and after a
 * run), never while a run trains.
 */
import type { SpawnedWorker } from '../core/remote/spawner';

/** A freshly spawned worker and its warm-up: resolves once its script and backend are ready (rejects or never settles if it fails). */
export interface WarmingWorker {
  worker: SpawnedWorker;
  warm: Promise<unknown>;
}

export interface WarmWorkerPoolOptions {
  /** Spawns one worker and starts its warm-up. */
  spawn: () => WarmingWorker;
  /** Most idle workers the pool holds, whatever `fill` asks (default 8). */
  maxIdle?: number;
  /** Deaths of idle workers in a row, with none warmed up in between, after which no more are replaced (default 3). */
  maxRespawns?: number;
}

interface Idle {
  worker: SpawnedWorker;
  ready: boolean;
}

export class WarmWorkerPool {
  private readonly idle: Idle[] = [];
  private readonly spawnOne: () => WarmingWorker;
  readonly maxIdle: number;
  private readonly maxRespawns: number;
  private target = 0;
  private deathsInARow = 0;
  private disposed = false;

  constructor(options: WarmWorkerPoolOptions) {
    this.spawnOne = options.spawn;
    this.maxIdle = Math.max(0, Math.floor(options.maxIdle ?? 8));
    this.maxRespawns = Math.max(0, Math.floor(options.maxRespawns ?? 3));
  }

  /** Idle workers now (warming up or warm). */
  get size(): number {
    return this.idle.length;
  }

  /** Idle workers whose warm-up has finished. */
  get readyCount(): number {
    return this.idle.filter((w) => w.ready).length;
  }

  /** Keeps `count` idle workers (clamped to 0..maxIdle): spawns the missing ones, terminates the extra ones. */
  fill(count: number): void {
    if (this.disposed) return;
    this.target = Math.min(this.maxIdle, Math.max(0, Math.floor(Number.isFinite(count) ? count : 0)));
    this.deathsInARow = 0;
    this.trimTo(this.target);
    for (let missing = this.target - this.idle.length; missing > 0; missing--) this.add();
  }

  /** Terminates the idle workers beyond `count` and keeps at most that many from now on. */
  shrink(count: number): void {
    this.target = Math.min(this.target, Math.max(0, Math.floor(count)));
    this.trimTo(this.target);
  }

  /** Hands out one idle worker (a warmed-up one first), or undefined when there is none. */
  take(): SpawnedWorker | undefined {
    const at = this.idle.findIndex((w) => w.ready);
    const [entry] = this.idle.splice(at >= 0 ? at : 0, 1);
    return entry?.worker;
  }

  /** Terminates every idle worker; the pool spawns nothing more. */
  dispose(): void {
    this.disposed = true;
    this.target = 0;
    this.trimTo(0);
  }

  private trimTo(count: number): void {
    // The ones still warming up go first.
    this.idle.sort((a, b) => Number(b.ready) - Number(a.ready));
    for (const extra of this.idle.splice(count)) void extra.worker.terminate().catch(() => undefined);
  }

  private add(): void {
    let spawned: WarmingWorker;
    try {
      spawned = this.spawnOne();
    } catch {
      this.deathsInARow++;
      return;
    }
    const entry: Idle = { worker: spawned.worker, ready: false };
    this.idle.push(entry);
    spawned.warm.then(
      () => {
        entry.ready = true;
        this.deathsInARow = 0;
      },
      () => undefined, // a failed warm-up ends the worker too, or leaves it to start cold when taken
    );
    spawned.worker.onExit(() => this.onIdleExit(entry));
  }

  /** An idle worker died: drop it and, within the respawn budget, start another in its place. */
  private onIdleExit(entry: Idle): void {
    const at = this.idle.indexOf(entry);
    if (at < 0) return; // taken by a run (its actor reports the death) or trimmed
    this.idle.splice(at, 1);
    void entry.worker.terminate().catch(() => undefined);
    this.deathsInARow++;
    if (!this.disposed && this.deathsInARow <= this.maxRespawns && this.idle.length < this.target) this.add();
  }
}
