export { registerActorClass, registerExportedActorClasses, declaredActorKey, getActorClass, getActorKey, registeredActorKeys, type ActorClass } from './registry';
export { registerTransferHandlers, collectTransferables, TRANSFER_HANDLER_NAME } from './transfer';
export {
  RemoteActorError,
  ActorDiedError,
  ActorCallTimeoutError,
  serializeError,
  type ActorDeath,
  type ActorDeathReason,
  type SerializedError,
} from './errors';
export {
  remoteClass,
  type RemoteActor,
  type RemoteClassHandle,
  type RemoteClassOptions,
  type ActorControl,
  type AsyncMethods,
  type CallOptions,
  type MethodKeys,
  type MethodArgs,
  type MethodResult,
} from './remoteClass';
export { setActorSpawner, getActorSpawner, nodeWorkerSpawner, isNodeRuntime, type ActorSpawner, type NodeWorkerFiles, type SpawnedWorker, type WorkerExit } from './spawner';
export { nodeEndpoint, dedupingEndpoint, type NodeMessageTarget } from './endpoint';
export { runActorHost } from './host';
export { ActorPool, ActorPoolStartError, type ActorPoolOptions, type PoolActorState, type PoolActorStatus, type PoolEvent } from './actorPool';
export { CallDeadlines, type CallDeadlineOptions } from './callDeadlines';
