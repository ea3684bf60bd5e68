// The actor classes the worker hosts (actor.worker.ts, actor.node.ts) can construct, registered
// by the key each declares (`static readonly actorKey`). To add an actor class, declare its key
// and list it here. Node callers may also pass `remoteClass(Cls, { module: <file URL> })` for a
// class outside this list (tests' stand-ins): the worker registers that module's actor classes.
import { registerActorClass } from '../core/remote/registry';
import { RolloutActor } from '../engine/rolloutActor';
import { ContinuousRolloutActor } from '../engine/continuousRolloutActor';
import { SwarmActor } from '../swarm/swarmActor';
import { MarlActor } from '../engine/marlActor';

export const ACTOR_CLASSES = [RolloutActor, ContinuousRolloutActor, MarlActor, SwarmActor] as const;

for (const Cls of ACTOR_CLASSES) registerActorClass(Cls);
