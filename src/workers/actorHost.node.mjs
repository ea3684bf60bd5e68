// Node worker_threads bootstrap for remote actors (nodeActorSpawner in src/cli/nodePlatform.ts).
// Node 20 cannot load .ts in a worker through execArgv ('--import tsx' fails with
// ERR_UNKNOWN_FILE_EXTENSION), so this plain .mjs registers tsx's loader in the worker itself and
// then imports the TypeScript host named by workerData.entry (src/workers/actor.node.ts).
import { workerData } from 'node:worker_threads';

const entry = workerData && workerData.entry;
if (typeof entry !== 'string') throw new Error('actorHost.node.mjs: workerData.entry (a file URL) is required');
if (/\.[cm]?tsx?$/.test(entry)) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(entry);
