// The actor classes the worker hosts (actor.worker.ts, actor.node.ts) can construct.
// Import here, for its side effect, every module that registers an actor class
// (registerActorClass / @actorClass), e.g.:
//
//   import '../experiments/rolloutActor';
//
// Node callers may instead pass `remoteClass(Cls, { module: <file URL> })`; the browser bundle
// only knows the classes imported here.
export {};
