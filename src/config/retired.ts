/**
 * Presets and algorithms that were removed, and what replaces them, so an old link or run file gets
 * a sentence naming the replacement instead of "unknown preset".
 *
 * The first agent swarm (algorithm 'swarm-ppo', settings 'swarm.*') was retired: its story came from
 * choices made for it (a single-agent start bias, an over-spawn action that is waste by definition,
 * an oracle verifier), not from learning under fair rules. The decomposition swarm ('swarm')
 * replaces it.
 */
export interface Retirement {
  replacement: string;
  /** The sentence to show: what was retired, why, and what opened instead. */
  reason: string;
  /** Why alone (for the CLI's refusal). */
  why: string;
}

const FIRST_SWARM = 'the first agent swarm was retired (its results came from a tuned start, not from learning)';
const OWN_START = "every swarm preset now starts from the same initial policy (this one started from a scripted orchestrator's demonstrations)";

const RETIRED_PRESETS: ReadonlyMap<string, { replacement: string; why: string }> = new Map([
  ['swarm-annealed', { replacement: 'swarm-annealed', why: FIRST_SWARM }],
  ['swarm-no-shaping', { replacement: 'swarm-no-shaping', why: FIRST_SWARM }],
  ['swarm-no-anneal', { replacement: 'swarm-constant-lambda1', why: FIRST_SWARM }],
  ['swarm-curriculum', { replacement: 'swarm-annealed', why: FIRST_SWARM }],
  ['swarm-taskgraph', { replacement: 'swarm-annealed', why: FIRST_SWARM }],
  ['swarm-demo-start', { replacement: 'swarm-annealed', why: OWN_START }],
]);

/** The setting prefix of the retired first swarm: settings under it are dropped from old links. */
export const RETIRED_SETTING_PREFIX = 'swarm.';
export const RETIRED_ALGORITHMS: ReadonlyMap<string, string> = new Map([['swarm-ppo', 'swarm']]);

/** The replacement of a retired preset, with the sentence to show; null for any other name. */
export function retiredPreset(name: string): Retirement | null {
  const retired = RETIRED_PRESETS.get(name);
  if (retired === undefined) return null;
  return { replacement: retired.replacement, why: retired.why, reason: `preset "${name}" is retired: ${retired.why}; opened its replacement "${retired.replacement}"` };
}

/** The sentence for a retired algorithm id; null for any other id. */
export function retiredAlgorithm(id: string): Retirement | null {
  const replacement = RETIRED_ALGORITHMS.get(id);
  if (replacement === undefined) return null;
  return { replacement, why: FIRST_SWARM, reason: `algorithm "${id}" is retired: ${FIRST_SWARM}; its replacement is "${replacement}"` };
}
