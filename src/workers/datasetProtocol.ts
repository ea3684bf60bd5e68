/** Messages between the page and the dataset worker (types and checks only: the page imports this, never tfjs). */
import type { ExperimentConfig } from '../config/config';

export interface DatasetRequest {
  config: ExperimentConfig;
  /** The run's saved weights (a PARLCKPT file of the actor network). */
  checkpoint: Uint8Array;
  episodes: number;
}

export type DatasetReply = { ok: true; text: string; size: number; summary: string } | { ok: false; error: string };
