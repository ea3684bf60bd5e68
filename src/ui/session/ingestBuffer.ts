/**
 * Collects the learner's record batches and hands them on at most once every `delayMs`: a batch
 * after a quiet spell of `delayMs` (a run's first records) at once, later ones when the delay is up;
 * a batch pushed as urgent (workers/urgentRecords.ts) goes at once with everything before it.
 */
import type { RunRecord } from '../../runs/records';

export interface IngestBuffer {
  push(records: readonly RunRecord[], urgent?: boolean): void;
  /** Hand on what is buffered now. */
  flush(): void;
}

export function createIngestBuffer(delayMs: number, deliver: (batch: RunRecord[]) => void): IngestBuffer {
  let buffered: RunRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastDelivery = -Infinity;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const batch = buffered;
    buffered = [];
    if (batch.length === 0) return;
    lastDelivery = performance.now();
    deliver(batch);
  };
  return {
    push(records, urgent = false) {
      buffered.push(...records);
      if (urgent) return flush();
      if (timer !== null) return;
      const wait = lastDelivery + delayMs - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    flush,
  };
}
