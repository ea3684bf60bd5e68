/**
 * How training runs in Node: worker threads load actor classes from their module files (the
 * browser bundle knows them through src/workers/actorClasses.ts instead).
 */
import type { TrainerPlatform } from '../engine/loops/types';

const ACTOR_MODULES: Record<string, string> = {
  RolloutActor: new URL('../engine/rolloutActor.ts', import.meta.url).href,
  SwarmActor: new URL('../swarm/swarmActor.ts', import.meta.url).href,
};

export function nodePlatform(): TrainerPlatform {
  return { actorModules: { ...ACTOR_MODULES } };
}
