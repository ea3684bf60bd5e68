/**
 * A training run: picks the learner's backend, runs the loop for the config's algorithm, and
 * reports through compact records. One ExperimentConfig drives it in the browser (inside the
 * learner Web Worker) and in Node (the CLI and the benchmarks).
 */
import { chooseBackend } from '../core/backend';
import type { ExperimentConfig } from '../config/config';
import { loopFor } from './loops';
import type { CrashTarget, LoopContext, LoopOutcome, TrainerPlatform } from './loops/types';
import type { RunRecord, SummaryRecord } from '../runs/records';
import { RunGate } from './runGate';
import { LiveChanges } from './liveChanges';
import type { LiveChange } from '../config/liveSettings';

export type { TrainerPlatform } from './loops/types';

export interface TrainingRunOptions {
  /** Live changes to replay, each before its update (a link's changes). */
  changes?: readonly LiveChange[];
  /** Send an 'inspect' record (weights, activations, policy heatmap) about this often; 0 = never. */
  inspectEveryMs?: number;
}

export class TrainingRun {
  private readonly gate = new RunGate();
  private crashTarget: CrashTarget | null = null;
  /** The run's own copy of the config: live changes write into its settings. */
  private readonly liveConfig: ExperimentConfig;
  private readonly live: LiveChanges;

  /** Throws ConfigError when one of `options.changes` cannot apply to `config`. */
  constructor(
    readonly config: ExperimentConfig,
    private readonly emit: (record: RunRecord) => void,
    private readonly platform: TrainerPlatform = {},
    private readonly options: TrainingRunOptions = {},
  ) {
    this.liveConfig = { preset: config.preset, settings: { ...config.settings } };
    this.live = new LiveChanges(this.liveConfig, options.changes ?? [], emit);
  }

  /**
   * Change a setting while the run trains: applied before the next update and sent back as a
   * 'change' record. Throws ConfigError when the setting cannot change live or the value is out of range.
   */
  change(key: string, value: unknown): void {
    this.live.request(key, value);
  }

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

  /**
   * Crash one actor's worker on purpose; the pool detects it and starts a replacement. Rejects,
   * for a caller that awaits it, when there is no such actor or no actors run; a caller that does
   * not (`void run.crashActor(0)`) never gets an unhandled rejection that would end its process.
   */
  crashActor(index: number): Promise<void> {
    const target = this.crashTarget;
    const crashed = target ? Promise.resolve().then(() => target.crashActor(index)) : Promise.reject(new Error('no actors are running'));
    crashed.catch(() => undefined);
    return crashed;
  }

  async run(): Promise<SummaryRecord> {
    const s = this.config.settings;
    const started = performance.now();
    const clock = () => (performance.now() - started) / 1000;
    const backend = await chooseBackend({ preferred: s.backend, wasmPaths: this.platform.wasmPaths });
    this.emit({ type: 'backend', ...backend });

    const loop = loopFor(s.algorithm);
    const base = { type: 'summary' as const, preset: this.config.preset, seed: s.seed, backend: backend.name };
    const ctx: LoopContext = {
      config: this.liveConfig,
      live: this.live,
      inspectEveryMs: this.options.inspectEveryMs,
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
