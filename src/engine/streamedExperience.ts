/**
 * The engine's port for streamed experience: what the async (IMPALA) loop needs when its segments
 * come through a stream instead of the actors' answers. The engine owns the interface and stays free
 * of NATS; the cluster implements it (src/cluster/jetstreamExperience.ts) and installs a factory
 * (src/cluster/learnerAttach.ts).
 */
import type { ExperimentConfig } from '../config/config';
import type { Segment } from './segments';

export interface StreamedExperience {
  /**
   * The learner's last checkpoint of this run, when it resumes one; `envSteps`: the steps it had
   * learned from (null in a checkpoint stored before they were kept).
   */
  readonly resumed: { weights: Float32Array[]; update: number; version: number; envSteps: number | null } | null;
  /** Segments each request asks for: its host packs them into one stream message (1: not packed). */
  readonly pack: number;
  /** Publishes weights under `version`; actors' hosts fetch them by version. Await before asking for segments with it. */
  publishWeights(version: number, weights: readonly Float32Array[]): Promise<void>;
  /** Resolves when the stream has room for one more request (backpressure), and counts its `n` segments as asked for. */
  reserve(n?: number): Promise<void>;
  /** A request for `n` segments failed: their reserved places are free again. */
  release(n?: number): void;
  /** Up to `n` checked segments (fewer only when closing: then possibly none). */
  take(n: number): Promise<Segment[]>;
  /** After the update that used the last segments taken: checkpoints now and then (asking for the learner's weights), and acks them. */
  commit(update: number, version: number, weights: () => Promise<readonly Float32Array[]>, envSteps?: number): Promise<void>;
  /** Stops taking and lets producers waiting for room go (synchronous: the loop is stopping). */
  stop(): void;
  /** The final checkpoint and acks. */
  close(state: { update: number; version: number; weights: readonly Float32Array[]; envSteps?: number }): Promise<void>;
}

export interface StreamedExperienceOptions {
  config: ExperimentConfig;
  capacity: number;
  check(seg: Segment): string | null;
}

type Factory = (o: StreamedExperienceOptions) => Promise<StreamedExperience>;
let factory: Factory | null = null;

export function setStreamedExperienceFactory(f: Factory | null): void {
  factory = f;
}

/** The stream for this run, or null when the run's actors answer directly (no cluster). */
export function openStreamedExperience(o: StreamedExperienceOptions): Promise<StreamedExperience> | null {
  return factory ? factory(o) : null;
}
