// The actor classes the worker hosts (actor.worker.ts, actor.node.ts) can construct: every module
// imported here registers its class with registerActorClass. The browser bundle only knows these;
// Node callers may also pass `remoteClass(Cls, { module: <file URL> })`.
import '../engine/rolloutActor';
import '../swarm/swarmActor';
