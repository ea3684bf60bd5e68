/**
 * Each update rule's exposed settings at their one default: its descriptor's (src/config/algorithms/).
 * Tests that build an algorithm directly pass these, as the engine passes a run's settings to `create`.
 */
import { defaultParams } from '../../../src/config/algorithm';
import { A2C } from '../../../src/config/algorithms/a2c';
import { DDPG } from '../../../src/config/algorithms/ddpg';
import { DQN } from '../../../src/config/algorithms/dqn';
import { IMPALA } from '../../../src/config/algorithms/impala';
import { PPO } from '../../../src/config/algorithms/ppo';
import { REINFORCE } from '../../../src/config/algorithms/reinforce';
import { SAC } from '../../../src/config/algorithms/sac';
import { TD3 } from '../../../src/config/algorithms/td3';

export const A2C_PARAMS = defaultParams(A2C.settings);
export const DDPG_PARAMS = defaultParams(DDPG.settings);
export const DQN_PARAMS = defaultParams(DQN.settings);
export const IMPALA_PARAMS = defaultParams(IMPALA.settings);
export const PPO_PARAMS = defaultParams(PPO.settings);
export const REINFORCE_PARAMS = defaultParams(REINFORCE.settings);
export const SAC_PARAMS = defaultParams(SAC.settings);
export const TD3_PARAMS = defaultParams(TD3.settings);
