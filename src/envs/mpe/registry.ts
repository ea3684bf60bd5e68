/**
 * MPE env ids to envs, like PettingZoo's `simple_spread_v3.parallel_env(...)`, with PettingZoo's
 * defaults (N = 3, local_ratio = 0.5, 1 prey / 3 adversaries / 2 obstacles, max_cycles = 25).
 */
import { MpeEnv, type MpeEnvOptions } from './mpeEnv';
import type { Scenario } from './scenario';
import { SimpleSpeakerListenerScenario, SPEAKER_LISTENER } from './simpleSpeakerListener';
import { SIMPLE_SPREAD, SimpleSpreadScenario } from './simpleSpread';
import { SIMPLE_TAG, SimpleTagScenario } from './simpleTag';

export const MPE_ENV_IDS = [SIMPLE_SPREAD.id, SIMPLE_TAG.id, SPEAKER_LISTENER.id] as const;
export type MpeEnvId = (typeof MPE_ENV_IDS)[number];

export interface MakeMpeOptions extends Omit<MpeEnvOptions, 'localRatio'> {
  /** simple_spread: number of agents and landmarks (default 3). */
  n?: number;
  /** simple_spread: local ratio (default 0.5). */
  localRatio?: number;
  /** simple_tag: prey, adversaries and obstacles (defaults 1, 3, 2). */
  numGood?: number;
  numAdversaries?: number;
  numObstacles?: number;
}

export function isMpeEnvId(id: string): id is MpeEnvId {
  return (MPE_ENV_IDS as readonly string[]).includes(id);
}

export function makeMpeEnv(id: string, options: MakeMpeOptions = {}): MpeEnv {
  const { n, localRatio, numGood, numAdversaries, numObstacles, ...env } = options;
  let scenario: Scenario;
  let ratio: number | null = null;
  switch (id) {
    case SIMPLE_SPREAD.id:
      scenario = new SimpleSpreadScenario(n ?? SIMPLE_SPREAD.defaultN);
      ratio = localRatio ?? SIMPLE_SPREAD.defaultLocalRatio;
      break;
    case SIMPLE_TAG.id:
      scenario = new SimpleTagScenario({ numGood, numAdversaries, numObstacles });
      break;
    case SPEAKER_LISTENER.id:
      scenario = new SimpleSpeakerListenerScenario();
      break;
    default:
      throw new Error(`Unknown MPE env id "${id}". Known ids: ${MPE_ENV_IDS.join(', ')}`);
  }
  const unused = Object.entries({ n, localRatio, numGood, numAdversaries, numObstacles })
    .filter(([k, v]) => v !== undefined && !optionAppliesTo(id, k))
    .map(([k]) => k);
  if (unused.length > 0) throw new Error(`${id}: option(s) ${unused.join(', ')} do not apply to this env`);
  return new MpeEnv(scenario, { ...env, localRatio: ratio });
}

function optionAppliesTo(id: string, key: string): boolean {
  if (id === SIMPLE_SPREAD.id) return key === 'n' || key === 'localRatio';
  if (id === SIMPLE_TAG.id) return key === 'numGood' || key === 'numAdversaries' || key === 'numObstacles';
  return false;
}
