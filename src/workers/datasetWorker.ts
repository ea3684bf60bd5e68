// The dataset Web Worker: plays a finished run's final policy (greedy, noisy and random episodes,
// src/engine/datasetMaker.ts) and answers with the dataset file text, so the page never loads the
// engine. One request per worker; the page terminates it after the reply.
import { datasetFileFromCheckpoint } from '../engine/datasetMaker';
import type { DatasetReply, DatasetRequest } from './datasetProtocol';

self.addEventListener('message', (ev: MessageEvent<DatasetRequest>) => {
  const { config, checkpoint, episodes } = ev.data;
  datasetFileFromCheckpoint(config, checkpoint, episodes).then(
    (file): void => self.postMessage({ ok: true, text: file.text, size: file.size, summary: file.summary } satisfies DatasetReply),
    (err: unknown): void => self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies DatasetReply),
  );
});
