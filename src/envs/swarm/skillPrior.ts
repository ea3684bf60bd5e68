/**
 * Latent subagent skills: a new skill table for every task, drawn from one documented prior, so
 * that which subagent kind is good at what must be learned from what the task shows (checks,
 * agreements, latencies), not read off a fixed table.
 *
 * The prior. Three archetypes, each a profile over the three subtask kinds (success at
 * difficulty 0) and a speed (reasoning steps per unit of work):
 *   generalist   0.97, 0.95, 0.93   think 2   (slow, reliable everywhere)
 *   fast         0.95, 0.72, 0.55   think 1   (quick, good at one kind only)
 *   specialist   0.98, 0.90, 0.55   think 1   (excellent at one kind, poor at another)
 * For each task:
 *   - the subagent kinds get the archetypes in a uniformly random order (which kind is the
 *     specialist is permuted);
 *   - each archetype's profile is laid on the subtask kinds in a uniformly random order (what the
 *     specialist excels at is permuted);
 *   - each success is moved in logit space: logit(p') = logit(p) + N(0, 0.3²), clipped to
 *     [0.05, 0.995];
 *   - the reported confidence of each kind has its own calibration κ ~ U(0.1, 0.9) and base
 *     b ~ U(0.55, 0.95): with a high b and a low κ a kind is over-confident (it reports high
 *     confidence whether or not it is right), with a low b under-confident.
 * The orchestrator's own row is fixed (it knows its own work): DEFAULT_SKILL_TABLE's.
 *
 * Prior means: every subagent kind has the same prior mean on every subtask kind (the archetypes
 * are permuted over both), the mean of the nine archetype values before the logit jitter, and the
 * mean speed 4/3 steps per unit. A rule that knows only the prior cannot tell the kinds apart.
 */
import { exp, log } from '../../core/portableMath';
import { Rng } from '../../core/rng';
import { DEFAULT_SKILL_TABLE, ORCHESTRATOR_KIND, SUBTASK_KINDS, type SkillProfile, type SkillTable, type SubtaskKind } from './decompositionSkills';

interface Archetype {
  name: string;
  /** Success at difficulty 0 on the subtask kinds, before they are laid on SUBTASK_KINDS in a random order. */
  success: readonly [number, number, number];
  think: number;
}

export const ARCHETYPES: readonly Archetype[] = [
  { name: 'generalist', success: [0.97, 0.95, 0.93], think: 2 },
  { name: 'fast', success: [0.95, 0.72, 0.55], think: 1 },
  { name: 'specialist', success: [0.98, 0.9, 0.55], think: 1 },
];

export const PRIOR = {
  logitJitter: 0.3,
  successRange: [0.05, 0.995] as const,
  calibration: [0.1, 0.9] as const,
  confidenceBase: [0.55, 0.95] as const,
};

/** The subagent kinds a latent-skill task has (one per archetype). */
export const LATENT_KINDS: readonly string[] = ['large', 'small', 'searcher'];

const logit = (p: number) => log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + exp(-x));

/** The skill table of one task, drawn from the prior with `seed` (the task's own seed). */
export function drawTaskSkills(seed: number, kinds: readonly string[] = LATENT_KINDS): SkillTable {
  if (kinds.length !== ARCHETYPES.length) throw new Error(`latent skills: the prior has ${ARCHETYPES.length} archetypes, one per subagent kind; got ${kinds.length} kinds`);
  const rng = new Rng(seed).fork(0x5411);
  const order = rng.shuffle(ARCHETYPES.map((_, i) => i));
  const table: Record<string, Record<SubtaskKind, SkillProfile>> = { [ORCHESTRATOR_KIND]: { ...DEFAULT_SKILL_TABLE[ORCHESTRATOR_KIND] } };
  kinds.forEach((kind, k) => {
    const a = ARCHETYPES[order[k]];
    const onKinds = rng.shuffle([0, 1, 2]);
    const calibration = rng.uniformRange(PRIOR.calibration[0], PRIOR.calibration[1]);
    const confidenceBase = rng.uniformRange(PRIOR.confidenceBase[0], PRIOR.confidenceBase[1]);
    const row = {} as Record<SubtaskKind, SkillProfile>;
    SUBTASK_KINDS.forEach((sk, j) => {
      const p = sigmoid(logit(a.success[onKinds[j]]) + PRIOR.logitJitter * rng.normal());
      row[sk] = { success: Math.min(PRIOR.successRange[1], Math.max(PRIOR.successRange[0], p)), think: a.think, calibration, confidenceBase };
    });
    table[kind] = row;
  });
  return table;
}

/** Prior mean success of any subagent kind on any subtask kind (before the jitter). */
export const PRIOR_MEAN_SUCCESS = ARCHETYPES.reduce((a, x) => a + x.success.reduce((b, p) => b + p, 0), 0) / (3 * ARCHETYPES.length);
/** Prior mean reasoning steps per unit of any subagent kind. */
export const PRIOR_MEAN_THINK = ARCHETYPES.reduce((a, x) => a + x.think, 0) / ARCHETYPES.length;
