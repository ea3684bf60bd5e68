/**
 * Who is good at what in the decomposition task (src/envs/swarm/decomposition.ts): the subtask
 * kinds, the agent kinds, and the draws that turn "agent kind k works on subtask s" into a result.
 *
 * The interface frozen networks plug into is `SkillSource`: a function from (agent kind, subtask)
 * to a `ResultDistribution`. A table (`skillTable`, `DEFAULT_SKILLS`) provides one now; a frozen
 * checkpoint can provide one by measuring its success rate and speed on the subtask's kind and
 * size (as src/cli/trainSubagents.ts measures its held-out success per grid), and its confidence
 * calibration on held-out claims.
 *
 * A run of agent kind k on subtask s (size n units, difficulty d in [0, 1]) with distribution
 * D = (p, think, κ):
 *   steps       = Σ_{u=1..n} (think + ℓ_u),  ℓ_u ~ Geometric(1/μ) on {1, 2, ...}, mean μ
 *                 (each unit is `think` reasoning steps plus one tool call of variable latency)
 *   right       = input right ∧ (U < p_d),   p_d = p^(1 + HARDNESS · d)
 *                 (a wrong input, from a wrong claim upstream in a chain, gives a wrong answer)
 *   confidence  = clip(b + κ · (c − b) + σ · z, 0, 1),  c = 1 if right else 0,  z ~ N(0, 1)
 *                 (κ = 1: the confidence tells right from wrong up to noise; κ = 0: it says b
 *                 whatever happens, an overconfident agent)
 * The orchestrator's own direct work uses the same model under the agent kind 'orchestrator'.
 */
import { log } from '../../core/portableMath';
import type { Rng } from '../../core/rng';

export const SUBTASK_KINDS = ['lookup', 'search', 'reason'] as const;
export type SubtaskKind = (typeof SUBTASK_KINDS)[number];

/** The agent kind of the orchestrator's own (direct) work. */
export const ORCHESTRATOR_KIND = 'orchestrator';
/** How much difficulty lowers success: p_d = p^(1 + HARDNESS · d). */
export const HARDNESS = 2;

/** What an agent kind knows about a subtask before working on it (no answer, no truth). */
export interface SubtaskView {
  kind: SubtaskKind;
  /** Work units (each one think block plus one tool call). */
  size: number;
  /** In [0, 1]. */
  difficulty: number;
}

export interface ResultDistribution {
  /** Probability that the claim is right, given a right input. */
  pCorrect: number;
  /** Reasoning steps per unit of work (an integer >= 1), on top of each unit's tool latency. */
  thinkStepsPerUnit: number;
  /** κ in [0, 1]: how far the reported confidence follows correctness. */
  calibration: number;
  /** b in [0, 1]: what it reports when its confidence follows nothing (default: the task's `confidenceBase`). */
  confidenceBase?: number;
}

/** The interface frozen networks plug into: (agent kind, subtask) -> result distribution. */
export interface SkillSource {
  /** Agent kinds this source answers for, 'orchestrator' included. */
  readonly kinds: readonly string[];
  distribution(agentKind: string, subtask: SubtaskView): ResultDistribution;
}

/** One row of a skill table: an agent kind on a subtask kind, at difficulty 0. */
export interface SkillProfile {
  /** Success probability at difficulty 0, in (0, 1]. */
  success: number;
  /** Reasoning steps per unit, an integer >= 1. */
  think: number;
  /** κ in [0, 1]. */
  calibration: number;
  /** b in [0, 1] (default: the task's `confidenceBase`). */
  confidenceBase?: number;
}

export type SkillTable = Readonly<Record<string, Readonly<Record<SubtaskKind, SkillProfile>>>>;

export class SkillError extends Error {
  override name = 'SkillError';
}

export function validateDistribution(d: ResultDistribution, where: string): void {
  if (!(d.pCorrect >= 0 && d.pCorrect <= 1)) throw new SkillError(`${where}: pCorrect must be in [0, 1], got ${d.pCorrect}`);
  if (!(Number.isInteger(d.thinkStepsPerUnit) && d.thinkStepsPerUnit >= 1)) {
    throw new SkillError(`${where}: thinkStepsPerUnit must be an integer >= 1, got ${d.thinkStepsPerUnit}`);
  }
  if (!(d.calibration >= 0 && d.calibration <= 1)) throw new SkillError(`${where}: calibration must be in [0, 1], got ${d.calibration}`);
  if (d.confidenceBase !== undefined && !(d.confidenceBase >= 0 && d.confidenceBase <= 1)) throw new SkillError(`${where}: confidenceBase must be in [0, 1], got ${d.confidenceBase}`);
}

/** A skill source read from a table; p_d = success^(1 + HARDNESS · difficulty). */
export function skillTable(table: SkillTable): SkillSource {
  const kinds = Object.keys(table);
  if (!kinds.includes(ORCHESTRATOR_KIND)) throw new SkillError(`skill table: needs a row for '${ORCHESTRATOR_KIND}' (its direct work)`);
  for (const k of kinds) {
    for (const sk of SUBTASK_KINDS) {
      const p = table[k][sk];
      if (!p) throw new SkillError(`skill table: agent kind '${k}' has no profile for subtask kind '${sk}'`);
      if (!(p.success > 0 && p.success <= 1)) throw new SkillError(`skill table: ${k}/${sk}: success must be in (0, 1], got ${p.success}`);
      validateDistribution({ pCorrect: p.success, thinkStepsPerUnit: p.think, calibration: p.calibration, ...(p.confidenceBase === undefined ? {} : { confidenceBase: p.confidenceBase }) }, `skill table: ${k}/${sk}`);
    }
  }
  return {
    kinds,
    distribution(agentKind, s) {
      const row = Object.hasOwn(table, agentKind) ? table[agentKind] : undefined;
      if (!row) throw new SkillError(`unknown agent kind '${agentKind}' (known: ${kinds.join(', ')})`);
      const p = row[s.kind];
      return { pCorrect: p.success ** (1 + HARDNESS * s.difficulty), thinkStepsPerUnit: p.think, calibration: p.calibration, ...(p.confidenceBase === undefined ? {} : { confidenceBase: p.confidenceBase }) };
    },
  };
}

/**
 * The default table, after the shipped checkpoints (public/subagents/manifest.json): 'small' is
 * the early small network (fast, unreliable, overconfident), 'large' the late large one (slower,
 * reliable, well calibrated), 'searcher' a specialist trained on search (fast and sure on search,
 * weak on reasoning). The orchestrator is as reliable as 'large' and as slow.
 * No kind is best at everything: routing matters.
 */
export const DEFAULT_SKILL_TABLE: SkillTable = {
  [ORCHESTRATOR_KIND]: {
    lookup: { success: 0.99, think: 2, calibration: 0.9 },
    search: { success: 0.93, think: 2, calibration: 0.9 },
    reason: { success: 0.95, think: 2, calibration: 0.9 },
  },
  large: {
    lookup: { success: 0.98, think: 2, calibration: 0.8 },
    search: { success: 0.9, think: 2, calibration: 0.8 },
    reason: { success: 0.92, think: 2, calibration: 0.8 },
  },
  small: {
    lookup: { success: 0.95, think: 1, calibration: 0.3 },
    search: { success: 0.7, think: 1, calibration: 0.2 },
    reason: { success: 0.5, think: 1, calibration: 0.2 },
  },
  searcher: {
    lookup: { success: 0.9, think: 1, calibration: 0.6 },
    search: { success: 0.98, think: 1, calibration: 0.85 },
    reason: { success: 0.55, think: 2, calibration: 0.4 },
  },
};

export const DEFAULT_SKILLS: SkillSource = skillTable(DEFAULT_SKILL_TABLE);
export const DEFAULT_SUBAGENT_KINDS: readonly string[] = ['large', 'small', 'searcher'];

/**
 * One tool call's latency, ℓ ~ Geometric(1/μ) on {1, 2, ...}: P(ℓ = k) = (1/μ)(1 − 1/μ)^(k−1),
 * mean μ, variance μ(μ − 1). Drawn by inversion: ℓ = 1 + floor(ln U / ln(1 − 1/μ)). μ = 1 gives 1.
 */
export function drawToolLatency(rng: Rng, mean: number): number {
  if (!(Number.isFinite(mean) && mean >= 1)) throw new SkillError(`tool latency mean must be >= 1, got ${mean}`);
  if (mean === 1) return 1;
  let u = rng.uniform();
  while (u === 0) u = rng.uniform();
  return 1 + Math.floor(log(u) / log(1 - 1 / mean));
}

/** Steps of one run over `size` units: Σ_u (think + ℓ_u). */
export function drawWorkSteps(rng: Rng, size: number, think: number, latencyMean: number): number {
  let steps = 0;
  for (let u = 0; u < size; u++) steps += think + drawToolLatency(rng, latencyMean);
  return steps;
}

/** confidence = clip(b + κ (c − b) + σ z, 0, 1). */
export function drawConfidence(rng: Rng, right: boolean, calibration: number, base: number, noise: number): number {
  const c = right ? 1 : 0;
  const q = base + calibration * (c - base) + noise * rng.normal();
  return Math.min(1, Math.max(0, q));
}

/** A stable 31-bit id of an agent kind's name (FNV-1a), so its random stream does not depend on list order. */
export function kindStream(kind: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < kind.length; i++) {
    h ^= kind.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 1) & 0x7fffffff;
}
