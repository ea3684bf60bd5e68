// Node host for remote actors: runs inside a worker_threads Worker (bootstrapped by actorHost.node.mjs).
import { parentPort } from 'node:worker_threads';
import './actorClasses';
import { nodeEndpoint } from '../core/remote/endpoint';
import { runActorHost } from '../core/remote/host';

if (!parentPort) throw new Error('actor.node.ts must run in a worker thread');
runActorHost(nodeEndpoint(parentPort));
