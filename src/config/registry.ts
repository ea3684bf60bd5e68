/**
 * Every algorithm the playground knows, one line each. Adding an algorithm means writing its
 * update rule (src/algorithms/), its descriptor (src/config/algorithms/) and one line here.
 */
import { A2C } from './algorithms/a2c';
import { BC } from './algorithms/bc';
import { CQL } from './algorithms/cql';
import { DDPG } from './algorithms/ddpg';
import { SAC } from './algorithms/sac';
import { TD3 } from './algorithms/td3';
import { DQN } from './algorithms/dqn';
import { ES } from './algorithms/es';
import { IMPALA } from './algorithms/impala';
import { PPO } from './algorithms/ppo';
import { PPO_CONTINUOUS } from './algorithms/ppoContinuous';
import { REINFORCE } from './algorithms/reinforce';
import { SWARM } from './algorithms/swarm';
import { MAPPO } from './algorithms/mappo';
import { MADDPG } from './algorithms/maddpg';
import { QMIX } from './algorithms/qmix';
import { VDN } from './algorithms/vdn';
import { IQL } from './algorithms/iql';
import type { AlgorithmDescriptor, LoadedAlgorithm, NetworkKind, ParamsOf } from './algorithm';
import type { Setting } from './settingKinds';

export const ALGORITHM_DESCRIPTORS = [REINFORCE, PPO, A2C, IMPALA, DQN, ES, DDPG, TD3, SAC, PPO_CONTINUOUS, CQL, BC, MAPPO, MADDPG, QMIX, VDN, IQL, SWARM] as const;

type Descriptors = (typeof ALGORITHM_DESCRIPTORS)[number];
export type AlgorithmId = Descriptors['id'];

export const ALGORITHM_IDS = ALGORITHM_DESCRIPTORS.map((d) => d.id) as readonly AlgorithmId[];

/** The descriptor of an algorithm id (widened: what every descriptor has in common). */
export function descriptorOf(id: AlgorithmId): AlgorithmDescriptor {
  const found: AlgorithmDescriptor | undefined = ALGORITHM_DESCRIPTORS.find((d) => d.id === id);
  if (!found) throw new Error(`unknown algorithm ${JSON.stringify(id)}`);
  return found;
}

/**
 * The update rule of an algorithm, imported on demand; its `kind` says how to build it (from a
 * network, a Box env's sizes and bounds, or a multi-agent task). Null for evolution strategies and
 * the swarms, whose loops build their own learner.
 */
export function loadAlgorithm(id: AlgorithmId): Promise<LoadedAlgorithm<NetworkKind, ParamsOf<Record<string, Setting>>>> | null {
  return descriptorOf(id).load?.() ?? null;
}
