/** Collects the learner's record batches and hands them on at most once every `delayMs`. */
import type { RunRecord } from '../../runs/records';

export interface IngestBuffer {
  push(records: readonly RunRecord[]): void;
  /** Hand on what is buffered now. */
  flush(): void;
}

export function createIngestBuffer(delayMs: number, deliver: (batch: RunRecord[]) => void): IngestBuffer {
  let buffered: RunRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const batch = buffered;
    buffered = [];
    if (batch.length > 0) deliver(batch);
  };
  return {
    push(records) {
      buffered.push(...records);
      if (timer === null) timer = setTimeout(flush, delayMs);
    },
    flush,
  };
}
