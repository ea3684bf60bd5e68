// Browser host for remote actors: the Web Worker that browserSpawner starts.
import type { Endpoint } from 'comlink';
import './actorClasses';
import { dedupingEndpoint } from '../core/remote/endpoint';
import { runActorHost } from '../core/remote/host';
import { answerWarmRequests } from './actorWarmup';

// The DOM lib types `self` as Window; in a dedicated worker it is a DedicatedWorkerGlobalScope,
// whose postMessage(message, transfer) matches comlink's Endpoint.
// An unhandled rejection does not reach the Worker's 'error' event on its own; rethrow it as an
// uncaught error so the caller sees the actor die (as worker_threads does in Node).
self.addEventListener('unhandledrejection', (ev: PromiseRejectionEvent) => {
  ev.preventDefault();
  setTimeout(() => {
    throw ev.reason;
  });
});

runActorHost(dedupingEndpoint(self as unknown as Endpoint));
// A worker the learner starts ahead of a run sets up its backend before it gets its actor.
answerWarmRequests(self);
