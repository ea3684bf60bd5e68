/**
 * The decomposition task's subtasks: heterogeneous in kind, size and difficulty, some linked in
 * chains that must run in order, some too small to be worth a subagent. Each subtask has a hidden
 * true answer (an integer in 0..ANSWER_SPACE-1); nobody sees it, the orchestrator sees only claims.
 *
 * Generator (same config and seed, same task):
 *   size        1 with probability `tinyFraction`, else uniform in 2..maxSize
 *   difficulty  uniform in [0, 1)
 *   kind        drawn with weights `kindWeights` (lookup, search, reason)
 *   chains      ids are shuffled; about `chainFraction` of the subtasks are cut into chains of
 *               2..maxChainLength links (a chained subtask takes its predecessor's answer as input,
 *               so it cannot start before the predecessor has a claim); the rest stand alone.
 */
import { Rng } from '../../core/rng';
import { SUBTASK_KINDS, type SubtaskKind, type SubtaskView } from './decompositionSkills';

export const DECOMPOSITION_MAX_SUBTASKS = 100;
export const ANSWER_SPACE = 1000;

export interface DecompositionConfig {
  /** Subtasks N, 1..100. */
  numSubtasks: number;
  /** Largest size (work units), 2..32 (default 8). */
  maxSize?: number;
  /** Share of size-1 subtasks, in [0, 1] (default 0.35). */
  tinyFraction?: number;
  /** Share of subtasks in chains, in [0, 1] (default 0.3). */
  chainFraction?: number;
  /** Longest chain, 2..10 (default 3). */
  maxChainLength?: number;
  /** Weights of lookup, search, reason (default [1, 1, 1]). */
  kindWeights?: readonly [number, number, number];
}

export interface DecompSubtask extends SubtaskView {
  id: number;
  /** The previous link of its chain (whose answer is this one's input), or null. */
  after: number | null;
  /** The next link of its chain, or null. */
  next: number | null;
  /** Chain index, or null for a subtask that stands alone. */
  chain: number | null;
  /** 0-based position in its chain (0 for one that stands alone). */
  position: number;
  /** The hidden true answer. */
  truth: number;
}

export interface DecompositionTask {
  readonly seed: number;
  readonly config: Required<DecompositionConfig>;
  readonly subtasks: readonly DecompSubtask[];
  /** Each chain's ids, in order. */
  readonly chains: readonly (readonly number[])[];
}

export class DecompositionError extends Error {
  override name = 'DecompositionError';
}

export function resolveDecompositionConfig(c: DecompositionConfig): Required<DecompositionConfig> {
  const r: Required<DecompositionConfig> = {
    maxSize: 8,
    tinyFraction: 0.35,
    chainFraction: 0.3,
    maxChainLength: 3,
    kindWeights: [1, 1, 1],
    ...c,
  };
  const fail = (m: string) => {
    throw new DecompositionError(`decomposition: ${m}`);
  };
  if (!Number.isInteger(r.numSubtasks) || r.numSubtasks < 1 || r.numSubtasks > DECOMPOSITION_MAX_SUBTASKS) fail(`numSubtasks must be an integer in 1..${DECOMPOSITION_MAX_SUBTASKS}, got ${r.numSubtasks}`);
  if (!Number.isInteger(r.maxSize) || r.maxSize < 2 || r.maxSize > 32) fail(`maxSize must be an integer in 2..32, got ${r.maxSize}`);
  if (!(r.tinyFraction >= 0 && r.tinyFraction <= 1)) fail(`tinyFraction must be in [0, 1], got ${r.tinyFraction}`);
  if (!(r.chainFraction >= 0 && r.chainFraction <= 1)) fail(`chainFraction must be in [0, 1], got ${r.chainFraction}`);
  if (!Number.isInteger(r.maxChainLength) || r.maxChainLength < 2 || r.maxChainLength > 10) fail(`maxChainLength must be an integer in 2..10, got ${r.maxChainLength}`);
  const w = r.kindWeights;
  if (w.length !== SUBTASK_KINDS.length || w.some((x) => !(x >= 0 && Number.isFinite(x))) || w.every((x) => x === 0)) {
    fail(`kindWeights must be ${SUBTASK_KINDS.length} non-negative numbers, not all 0, got [${w.join(', ')}]`);
  }
  return r;
}

/** A task from explicit subtasks (for hand-made tests): links `after` are checked to form simple chains. */
export function decompositionTaskFrom(
  specs: ReadonlyArray<{ kind: SubtaskKind; size: number; difficulty?: number; after?: number | null; truth?: number }>,
  seed = 0,
): DecompositionTask {
  const n = specs.length;
  if (n < 1 || n > DECOMPOSITION_MAX_SUBTASKS) throw new DecompositionError(`decomposition: need 1..${DECOMPOSITION_MAX_SUBTASKS} subtasks, got ${n}`);
  const subtasks: DecompSubtask[] = specs.map((s, id) => {
    if (!SUBTASK_KINDS.includes(s.kind)) throw new DecompositionError(`decomposition: subtask ${id} has unknown kind '${String(s.kind)}' (kinds: ${SUBTASK_KINDS.join(', ')})`);
    if (!Number.isInteger(s.size) || s.size < 1) throw new DecompositionError(`decomposition: subtask ${id} has size ${s.size}; sizes are integers >= 1`);
    const d = s.difficulty ?? 0;
    if (!(d >= 0 && d <= 1)) throw new DecompositionError(`decomposition: subtask ${id} has difficulty ${d}; it must be in [0, 1]`);
    const after = s.after ?? null;
    if (after !== null && !(Number.isInteger(after) && after >= 0 && after < id)) {
      throw new DecompositionError(`decomposition: subtask ${id} comes after ${after}; a chain link must name an earlier subtask`);
    }
    return { id, kind: s.kind, size: s.size, difficulty: d, after, next: null, chain: null, position: 0, truth: s.truth ?? (id * 37) % ANSWER_SPACE };
  });
  for (const s of subtasks) {
    if (s.after === null) continue;
    const prev = subtasks[s.after];
    if (prev.next !== null) throw new DecompositionError(`decomposition: subtasks ${prev.next} and ${s.id} both come after ${prev.id}; chains do not branch`);
    prev.next = s.id;
  }
  const chains: number[][] = [];
  for (const s of subtasks) {
    if (s.after !== null || s.next === null) continue;
    const chain: number[] = [];
    for (let v: number | null = s.id; v !== null; v = subtasks[v].next) {
      subtasks[v].chain = chains.length;
      subtasks[v].position = chain.length;
      chain.push(v);
    }
    chains.push(chain);
  }
  return { seed, config: resolveDecompositionConfig({ numSubtasks: n, maxSize: Math.max(2, ...subtasks.map((s) => s.size)) }), subtasks, chains };
}

/** A random task (see the file comment). */
export function generateDecomposition(config: DecompositionConfig, seed: number): DecompositionTask {
  const c = resolveDecompositionConfig(config);
  const rng = new Rng(seed).fork(0xdec0);
  const n = c.numSubtasks;
  const wsum = c.kindWeights.reduce((a, b) => a + b, 0);
  const specs = Array.from({ length: n }, () => {
    const size = rng.uniform() < c.tinyFraction ? 1 : 2 + rng.int(c.maxSize - 1);
    const difficulty = rng.uniform();
    let u = rng.uniform() * wsum;
    let k = 0;
    while (k < SUBTASK_KINDS.length - 1 && (u -= c.kindWeights[k]) >= 0) k++;
    return { kind: SUBTASK_KINDS[k], size, difficulty, truth: rng.int(ANSWER_SPACE), after: null as number | null };
  });
  // Chains over a shuffled order, linked in increasing id order so `after` always names an earlier id.
  const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  let budget = Math.round(c.chainFraction * n);
  let at = 0;
  while (budget >= 2 && at + 2 <= n) {
    const len = Math.min(budget, n - at, 2 + rng.int(c.maxChainLength - 1));
    if (len < 2) break;
    const ids = order.slice(at, at + len).sort((a, b) => a - b);
    for (let j = 1; j < ids.length; j++) specs[ids[j]].after = ids[j - 1];
    at += len;
    budget -= len;
  }
  const task = decompositionTaskFrom(specs, seed);
  return { ...task, config: c };
}
