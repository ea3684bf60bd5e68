/**
 * How training runs in Node: actors run in worker_threads started from src/workers/. Importing
 * this module installs that spawner for the process, as src/workers/learner.worker.ts installs
 * browserSpawner in the page. The workers register every class in src/workers/actorClasses.ts,
 * so the actor classes need no module paths here.
 */
import { nodeWorkerSpawner, setActorSpawner } from '../core/remote/spawner';
import type { TrainerPlatform } from '../engine/loops/types';

/** Node's actor spawner: the .mjs bootstrap registers tsx, then imports the TypeScript host. */
export const nodeActorSpawner = nodeWorkerSpawner({
  host: new URL('../workers/actorHost.node.mjs', import.meta.url),
  entry: new URL('../workers/actor.node.ts', import.meta.url),
});

setActorSpawner(nodeActorSpawner);

export function nodePlatform(): TrainerPlatform {
  return {};
}
