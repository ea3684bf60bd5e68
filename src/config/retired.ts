/**
 * Presets and algorithms that were removed or renamed, and what replaces them, so an old link or
 * run file gets a sentence naming the replacement instead of "unknown preset".
 *
 * The first agent swarm (algorithm 'swarm-ppo', settings 'swarm.*') was retired: its story came from
 * choices made for it (a single-agent start bias, an over-spawn action that is waste by definition,
 * an oracle verifier), not from learning under fair rules. The decomposition swarm replaced it.
 *
 * Link version 4 gave that swarm the one name: algorithm 'swarm-v2' became 'swarm', its presets
 * 'swarm-v2-NAME' became 'swarm-NAME' and its settings 'swarm2.*' became 'swarm.*'. So in a link of
 * version 3 or older, 'swarm-annealed' and 'swarm.*' still mean the retired first swarm.
 */
export interface Retirement {
  replacement: string;
  /** The sentence to show: what was retired or renamed, why, and what opened instead. */
  reason: string;
  /** Why alone (for the command line's refusal). */
  why: string;
}

/** The link version that renamed the swarm (see above). */
export const SWARM_RENAME_VERSION = 4;

const FIRST_SWARM = 'the first agent swarm was retired (its results came from a tuned start, not from learning)';
const OWN_START = "every swarm preset now starts from the same initial policy (this one started from a scripted orchestrator's demonstrations)";

/** The swarm's presets before link version 4 → their names since. */
const RENAMED_PRESETS: ReadonlyMap<string, string> = new Map(
  ['annealed', 'no-shaping', 'lambda1-only', 'lambda2-only', 'constant-lambda1', 'demo-start', 'scale'].map((name) => [`swarm-v2-${name}`, `swarm-${name}`]),
);

/** Retired presets → today's presets that replace them, and why. */
const RETIRED_PRESETS: ReadonlyMap<string, { replacement: string; why: string }> = new Map([
  ['swarm-annealed', { replacement: 'swarm-annealed', why: FIRST_SWARM }],
  ['swarm-no-shaping', { replacement: 'swarm-no-shaping', why: FIRST_SWARM }],
  ['swarm-no-anneal', { replacement: 'swarm-constant-lambda1', why: FIRST_SWARM }],
  ['swarm-curriculum', { replacement: 'swarm-annealed', why: FIRST_SWARM }],
  ['swarm-taskgraph', { replacement: 'swarm-annealed', why: FIRST_SWARM }],
  ['swarm-demo-start', { replacement: 'swarm-annealed', why: OWN_START }],
  ['swarm-v2-demo-start', { replacement: 'swarm-annealed', why: OWN_START }],
]);

/**
 * Where the migrations put the settings of the retired first swarm (`swarm.*` in a link of version
 * 3 or older): no setting has this prefix, so they are dropped with a notice.
 */
export const RETIRED_SETTING_PREFIX = 'swarm-ppo.';
export const RETIRED_ALGORITHMS: ReadonlyMap<string, string> = new Map([['swarm-ppo', 'swarm']]);
/** Algorithm ids renamed in link version 4. */
export const RENAMED_ALGORITHMS: ReadonlyMap<string, string> = new Map([['swarm-v2', 'swarm']]);

/**
 * The replacement of a retired preset, with the sentence to show; null for any other name.
 * `fromVersion`: the version of the link or file that names it; omitted, today's names (the command
 * line). From version 4 on, a first-swarm name that the swarm's presets took over names that preset.
 */
export function retiredPreset(name: string, fromVersion?: number): Retirement | null {
  const retired = RETIRED_PRESETS.get(name);
  if (retired === undefined) return null;
  const { replacement, why } = retired;
  if ((fromVersion === undefined || fromVersion >= SWARM_RENAME_VERSION) && replacement === name) return null;
  const opened = replacement === name ? `today's "${replacement}" (the swarm's preset that took its name)` : `"${replacement}"`;
  return { replacement, why, reason: `preset "${name}" is retired: ${why}; opened its replacement ${opened}` };
}

/** Today's name of a preset renamed in link version 4 (`swarm-v2-annealed` → `swarm-annealed`), with the sentence to show; null for any other name. */
export function renamedPreset(name: string): Retirement | null {
  const replacement = RENAMED_PRESETS.get(name);
  if (replacement === undefined) return null;
  if (retiredPreset(replacement) !== null) return null;
  return { replacement, why: 'renamed', reason: `preset "${name}" was renamed "${replacement}" (link version ${SWARM_RENAME_VERSION}); opened it` };
}

/** The sentence for a retired algorithm id; null for any other id. */
export function retiredAlgorithm(id: string): Retirement | null {
  const replacement = RETIRED_ALGORITHMS.get(id);
  if (replacement === undefined) return null;
  return { replacement, why: FIRST_SWARM, reason: `algorithm "${id}" is retired: ${FIRST_SWARM}; its replacement is "${replacement}"` };
}
