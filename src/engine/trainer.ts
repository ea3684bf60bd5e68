/**
 * A training run: picks the learner's backend, runs the loop for the config's algorithm, and
 * reports through compact records. One ExperimentConfig drives it in the browser (inside the
 * learner Web Worker) and in Node (the CLI and the benchmarks).
 */
import { chooseBackend } from '../core/backend';
import type { ExperimentConfig } from '../config/config';
import { LOOPS } from './loops';
import type { CrashTarget, LoopContext, LoopOutcome, TrainerPlatform } from './loops/types';
import type { RunRecord, SummaryRecord } from '../runs/records';
import { RunGate } from './runGate';

export type { TrainerPlatform } from './loops/types';

export class TrainingRun {
  private readonly gate = new RunGate();
  private crashTarget: CrashTarget | null = null;

  constructor(
    readonly config: ExperimentConfig,
    private readonly emit: (record: RunRecord) => void,
    private readonly platform: TrainerPlatform = {},
  ) {}

  pause(): void {
    this.gate.pause();
  }
  resume(): void {
    this.gate.resume();
  }
  /** While paused, run exactly one more update. */
  step(): void {
    this.gate.step();
  }
  stop(): void {
    this.gate.stop();
  }
  get state(): 'running' | 'paused' | 'stopped' {
    return this.gate.current;
  }

  /** Crash one actor's worker on purpose; the pool detects it and starts a replacement. */
  async crashActor(index: number): Promise<void> {
    if (!this.crashTarget) throw new Error('no actors are running');
    await this.crashTarget.crashActor(index);
  }

  async run(): Promise<SummaryRecord> {
    const s = this.config.settings;
    const started = performance.now();
    const clock = () => (performance.now() - started) / 1000;
    const backend = await chooseBackend({ preferred: s.backend, wasmPaths: this.platform.wasmPaths });
    this.emit({ type: 'backend', ...backend });

    const loop = LOOPS[s.algorithm];
    const base = { type: 'summary' as const, preset: this.config.preset, seed: s.seed, backend: backend.name };
    if (!loop) {
      const error = `algorithm ${s.algorithm} has no training loop yet`;
      this.emit({ type: 'notice', level: 'error', message: error });
      const summary: SummaryRecord = { ...base, updates: 0, envSteps: 0, episodes: 0, wallSeconds: clock(), finalMeanReturn20: null, solved: null, stopReason: 'error', error, lostSegments: 0, actorRespawns: 0 };
      this.emit(summary);
      return summary;
    }
    const ctx: LoopContext = {
      config: this.config,
      emit: this.emit,
      gate: this.gate,
      platform: this.platform,
      backend,
      clock,
      setCrashTarget: (target) => (this.crashTarget = target),
    };
    // A loop that throws before its updates start (e.g. none of its actors came up) ends as 'error'.
    const outcome = await loop(ctx).catch((err: unknown): LoopOutcome => {
      const error = err instanceof Error ? err.message : String(err);
      this.emit({ type: 'notice', level: 'error', message: `Training could not start: ${error}` });
      return { updates: 0, envSteps: 0, episodes: 0, finalMeanReturn20: null, solved: null, stopReason: 'error', error, lostSegments: 0, actorRespawns: 0 };
    });
    const summary: SummaryRecord = { ...base, ...outcome, wallSeconds: clock() };
    this.emit(summary);
    return summary;
  }
}
