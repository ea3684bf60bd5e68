/**
 * A training loop places one algorithm's learner and actors. TrainingRun picks the loop for the
 * config's algorithm and gives it this context; the loop returns how the run went.
 */
import type { BackendChoice } from '../../core/backend';
import type { ExperimentConfig } from '../../config/config';
import type { RunRecord, SummaryRecord } from '../../runs/records';
import type { RunGate } from '../runGate';
import type { LiveChanges } from '../liveChanges';

export interface TrainerPlatform {
  /** Browser only: URL prefix of the tfjs wasm binaries served by the app. */
  wasmPaths?: string;
  /**
   * Node only: per actor class key, the module URL worker threads load it from, or a module and
   * the key of a stand-in class registered there (tests use this to inject faulty actors).
   */
  actorModules?: Record<string, string | { module: string; key: string }>;
  /** How often a running loop sends its weights (default CHECKPOINT_EVERY_MS); tests use 0. */
  checkpointEveryMs?: number;
  /** The longest a loop computes before it lets the event loop turn (default SLICE_MS); tests vary it. */
  sliceMs?: number;
}

/** An actor the playground can crash on purpose (to show detection and replacement). */
export interface CrashTarget {
  crashActor(index: number): Promise<void>;
}

export interface LoopContext {
  config: ExperimentConfig;
  emit(record: RunRecord): void;
  gate: RunGate;
  platform: TrainerPlatform;
  backend: BackendChoice;
  /** Seconds since the run started. */
  clock(): number;
  /** Lets TrainingRun.crashActor reach the loop's actors while it runs. */
  setCrashTarget(target: CrashTarget | null): void;
  /** Live changes (settings changed while the run trains), applied before each update; absent when none can come. */
  live?: LiveChanges;
  /** Learner only: how often to send a look inside the network (an 'inspect' record); absent or 0 = never. */
  inspectEveryMs?: number;
}

export type LoopOutcome = Omit<SummaryRecord, 'type' | 'preset' | 'seed' | 'backend' | 'wallSeconds'>;

export type TrainingLoop = (ctx: LoopContext) => Promise<LoopOutcome>;
