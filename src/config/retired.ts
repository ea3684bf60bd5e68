/**
 * Presets and algorithms that were removed, and what replaces them, so an old link or run file gets
 * a sentence naming the replacement instead of "unknown preset".
 *
 * The first agent swarm (algorithm 'swarm-ppo', settings 'swarm.*') was retired: its story came from
 * choices made for it (a single-agent start bias, an over-spawn action that is waste by definition,
 * an oracle verifier), not from learning under fair rules. The decomposition swarm ('swarm-v2')
 * replaces it.
 */
export interface Retirement {
  replacement: string;
  reason: string;
}

const FIRST_SWARM = 'the first agent swarm was retired (its results came from a tuned start, not from learning)';

const RETIRED_PRESETS: ReadonlyMap<string, string> = new Map([
  ['swarm-annealed', 'swarm-v2-annealed'],
  ['swarm-no-shaping', 'swarm-v2-no-shaping'],
  ['swarm-no-anneal', 'swarm-v2-constant-lambda1'],
  ['swarm-curriculum', 'swarm-v2-annealed'],
  ['swarm-taskgraph', 'swarm-v2-annealed'],
]);

/** The setting prefix of the retired first swarm: settings under it are dropped from old links. */
export const RETIRED_SETTING_PREFIX = 'swarm.';
export const RETIRED_ALGORITHMS: ReadonlyMap<string, string> = new Map([['swarm-ppo', 'swarm-v2']]);

/** The replacement of a retired preset, with the sentence to show; null for any other name. */
export function retiredPreset(name: string): Retirement | null {
  const replacement = RETIRED_PRESETS.get(name);
  if (replacement === undefined) return null;
  return { replacement, reason: `preset "${name}" is retired: ${FIRST_SWARM}; opened its replacement "${replacement}"` };
}

/** The sentence for a retired algorithm id; null for any other id. */
export function retiredAlgorithm(id: string): Retirement | null {
  const replacement = RETIRED_ALGORITHMS.get(id);
  if (replacement === undefined) return null;
  return { replacement, reason: `algorithm "${id}" is retired: ${FIRST_SWARM}; its replacement is "${replacement}"` };
}
