/** The page's side of the dataset worker: one worker per dataset, ended once it answers. */
import type { DatasetReply, DatasetRequest } from './datasetProtocol';

/** A dataset of `request.episodes` episodes of the policy in `request.checkpoint`, made in a worker. */
export function makeDatasetInWorker(request: DatasetRequest): Promise<DatasetReply> {
  // Keep this exact literal form: Vite detects it and bundles datasetWorker.ts as a worker.
  const worker = new Worker(new URL('./datasetWorker.ts', import.meta.url), { type: 'module' });
  return new Promise<DatasetReply>((resolve) => {
    worker.addEventListener('message', (ev: MessageEvent<DatasetReply>) => resolve(ev.data));
    worker.addEventListener('error', (ev: ErrorEvent) => {
      ev.preventDefault();
      resolve({ ok: false, error: ev.message || 'the dataset worker stopped unexpectedly' });
    });
    worker.addEventListener('messageerror', () => resolve({ ok: false, error: 'the dataset worker sent a message that could not be read' }));
    // A copy of the bytes moves to the worker (a plain ArrayBuffer, which a transfer list takes).
    const checkpoint = new Uint8Array(request.checkpoint);
    worker.postMessage({ ...request, checkpoint } satisfies DatasetRequest, [checkpoint.buffer]);
  }).finally(() => worker.terminate());
}
