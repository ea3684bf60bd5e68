/**
 * TaskGraph: a DAG of subtasks with dependencies and work lengths. A subtask can start only when
 * every subtask it depends on is done. Subtask v's work is an ItemSearch problem whose fewest
 * steps are exactly `work[v]` (see `problemForWork`): a longer work length means a longer walk
 * on a larger grid, so more steps to search and more chances to fail.
 *
 *   serialBaseline(graph) = sum of work lengths (one worker does everything, perfectly)
 *   lowerBound(graph)     = the longest chain of dependent work: the max over paths of the summed
 *                           work lengths (perfect workers, unlimited parallelism)
 *
 * r_perf (choice documented here): by default the fraction of SINK subtasks (those nothing depends
 * on: the deliverables) done at the end. Because of the gating, a done sink implies every subtask
 * it needs is done. `perf: 'all'` uses the fraction of all subtasks instead (denser credit).
 *
 * Generator: `depth` layers of `width` subtasks each (ids layer by layer: layer l holds ids
 * l*width .. l*width + width - 1). Each subtask of layer l >= 1 depends on each subtask of layer
 * l - 1 with probability `edgeDensity` (and on at least one of them, so the depth is real), and on
 * each subtask of earlier layers with probability `skipDensity`.
 */
import { Rng } from '../../core/rng';
import { ITEM_MAX_GRID, problemForWork } from './itemSearch';
import type { SubtaskSpec, SwarmTask } from './types';

export interface TaskNode {
  id: number;
  /** Ids of the subtasks whose output this one needs. */
  deps: number[];
  /** Work length: the fewest worker steps that complete the subtask. */
  work: number;
}

export interface TaskGraph {
  /** nodes[i].id === i. */
  nodes: TaskNode[];
}

/** The longest work an ItemSearch problem can encode (a corner-to-corner walk on the largest grid, plus the claim). */
export const TASK_MAX_WORK = 2 * (ITEM_MAX_GRID - 1) + 1;
export const TASK_GRAPH_MAX_NODES = 200;

export type TaskGraphPerf = 'sinks' | 'all';

export interface TaskGraphConfig {
  /** Subtasks per layer, >= 1. */
  width: number;
  /** Layers, >= 1 (width * depth <= 200). */
  depth: number;
  /** Probability of each edge from the previous layer, in [0, 1]. */
  edgeDensity: number;
  /** Probability of each edge from an earlier layer (default 0), in [0, 1]. */
  skipDensity?: number;
  /** Work lengths are drawn uniformly from minWork..maxWork (defaults 1..8, at most 31). */
  minWork?: number;
  maxWork?: number;
  perf?: TaskGraphPerf;
  /** Extra grid side on top of the smallest grid that fits the work (default 1). */
  gridSlack?: number;
}

export type TaskGraphDifficulty = 'easy' | 'medium' | 'hard';

export const TASK_GRAPH_PRESETS: Readonly<Record<TaskGraphDifficulty, TaskGraphConfig>> = {
  easy: { width: 3, depth: 2, edgeDensity: 0.5, minWork: 1, maxWork: 4 },
  medium: { width: 5, depth: 4, edgeDensity: 0.4, skipDensity: 0.1, minWork: 1, maxWork: 8 },
  hard: { width: 8, depth: 6, edgeDensity: 0.3, skipDensity: 0.1, minWork: 2, maxWork: 14 },
};

/** A cycle through the "depends on" edges as a list of ids (first id repeated implicitly), or null. */
export function findCycle(graph: TaskGraph): number[] | null {
  const n = graph.nodes.length;
  const color = new Uint8Array(n); // 0 new, 1 on the DFS stack, 2 finished
  const parent = new Int32Array(n).fill(-1);
  for (let root = 0; root < n; root++) {
    if (color[root] !== 0) continue;
    const stack: Array<{ v: number; next: number }> = [{ v: root, next: 0 }];
    color[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const deps = graph.nodes[top.v].deps;
      if (top.next >= deps.length) {
        color[top.v] = 2;
        stack.pop();
        continue;
      }
      const u = deps[top.next++];
      if (color[u] === 1) {
        // Back edge top.v -> u: the cycle is u -> ... -> top.v -> u along the DFS stack.
        const cycle: number[] = [top.v];
        for (let w = top.v; w !== u; ) {
          w = parent[w];
          cycle.push(w);
        }
        return cycle.reverse();
      }
      if (color[u] === 0) {
        color[u] = 1;
        parent[u] = top.v;
        stack.push({ v: u, next: 0 });
      }
    }
  }
  return null;
}

/**
 * Throw a clear error unless the graph is a valid DAG: ids 0..n-1 in order, deps that name
 * existing subtasks without repeats, positive integer work up to TASK_MAX_WORK, and no cycle
 * (the message names a subtask on the cycle and the cycle itself).
 */
export function validateTaskGraph(graph: TaskGraph): void {
  const n = graph.nodes.length;
  if (n < 1) throw new Error('taskGraph: the graph has no subtasks');
  graph.nodes.forEach((node, i) => {
    if (node.id !== i) throw new Error(`taskGraph: nodes[${i}] has id ${node.id}; ids must be 0..${n - 1} in order`);
    if (!Number.isInteger(node.work) || node.work < 1 || node.work > TASK_MAX_WORK) {
      throw new Error(`taskGraph: subtask ${i} has work ${node.work}; work must be an integer in 1..${TASK_MAX_WORK}`);
    }
    const seen = new Set<number>();
    for (const d of node.deps) {
      if (!Number.isInteger(d) || d < 0 || d >= n) throw new Error(`taskGraph: subtask ${i} depends on unknown subtask ${d}`);
      if (seen.has(d)) throw new Error(`taskGraph: subtask ${i} lists dependency ${d} twice`);
      seen.add(d);
    }
  });
  const cycle = findCycle(graph);
  if (cycle) {
    throw new Error(
      `taskGraph: cycle through subtask ${cycle[0]} (${[...cycle, cycle[0]].join(' -> ')}, each depending on the next)`,
    );
  }
}

/** Ids in an order where every subtask comes after its deps (Kahn's algorithm, smallest ready id first). */
export function topologicalOrder(graph: TaskGraph): number[] {
  validateTaskGraph(graph);
  const n = graph.nodes.length;
  const missing = graph.nodes.map((v) => v.deps.length);
  const dependents = successors(graph);
  const order: number[] = [];
  const ready = graph.nodes.filter((v) => v.deps.length === 0).map((v) => v.id);
  while (ready.length > 0) {
    ready.sort((a, b) => b - a);
    const v = ready.pop() as number;
    order.push(v);
    for (const w of dependents[v]) if (--missing[w] === 0) ready.push(w);
  }
  if (order.length !== n) throw new Error('taskGraph: internal error, topological order incomplete');
  return order;
}

/** successors(graph)[v] = the subtasks that depend on v. */
export function successors(graph: TaskGraph): number[][] {
  const out: number[][] = graph.nodes.map(() => []);
  for (const v of graph.nodes) for (const d of v.deps) out[d].push(v.id);
  return out;
}

/** Subtasks nothing depends on (the deliverables). */
export function sinks(graph: TaskGraph): number[] {
  return successors(graph)
    .map((s, v) => (s.length === 0 ? v : -1))
    .filter((v) => v >= 0);
}

/** Sum of work lengths: the time of one perfect worker doing everything. */
export function serialBaseline(graph: TaskGraph): number {
  validateTaskGraph(graph);
  return graph.nodes.reduce((a, v) => a + v.work, 0);
}

/** The longest chain of dependent work: max over paths of the summed work lengths. */
export function lowerBound(graph: TaskGraph): number {
  const finish = new Array<number>(graph.nodes.length).fill(0);
  let best = 0;
  for (const v of topologicalOrder(graph)) {
    const node = graph.nodes[v];
    let start = 0;
    for (const d of node.deps) start = Math.max(start, finish[d]);
    finish[v] = start + node.work;
    best = Math.max(best, finish[v]);
  }
  return best;
}

function checkProb(name: string, p: number): void {
  if (!(p >= 0 && p <= 1)) throw new Error(`taskGraph: ${name} must be in [0, 1], got ${p}`);
}

export function validateTaskGraphConfig(c: TaskGraphConfig): void {
  for (const [name, v] of [['width', c.width], ['depth', c.depth]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`taskGraph: ${name} must be a positive integer, got ${v}`);
  }
  if (c.width * c.depth > TASK_GRAPH_MAX_NODES) {
    throw new Error(`taskGraph: width * depth must be at most ${TASK_GRAPH_MAX_NODES}, got ${c.width * c.depth}`);
  }
  checkProb('edgeDensity', c.edgeDensity);
  checkProb('skipDensity', c.skipDensity ?? 0);
  const lo = c.minWork ?? 1;
  const hi = c.maxWork ?? 8;
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 1 || hi < lo || hi > TASK_MAX_WORK) {
    throw new Error(`taskGraph: need integers 1 <= minWork <= maxWork <= ${TASK_MAX_WORK}, got ${lo}..${hi}`);
  }
  if (c.perf !== undefined && c.perf !== 'sinks' && c.perf !== 'all') {
    throw new Error(`taskGraph: perf must be 'sinks' or 'all', got ${String(c.perf)}`);
  }
}

/** A random layered DAG (see the file comment). The same config and seed give the same graph. */
export function generateGraph(config: TaskGraphConfig, rng: Rng): TaskGraph {
  validateTaskGraphConfig(config);
  const { width, depth, edgeDensity } = config;
  const skip = config.skipDensity ?? 0;
  const lo = config.minWork ?? 1;
  const hi = config.maxWork ?? 8;
  const nodes: TaskNode[] = [];
  for (let l = 0; l < depth; l++) {
    for (let j = 0; j < width; j++) {
      const id = l * width + j;
      const deps: number[] = [];
      if (l > 0) {
        for (let e = 0; e < (l - 1) * width; e++) if (rng.uniform() < skip) deps.push(e);
        const prev: number[] = [];
        for (let e = (l - 1) * width; e < l * width; e++) if (rng.uniform() < edgeDensity) prev.push(e);
        if (prev.length === 0) prev.push((l - 1) * width + rng.int(width));
        deps.push(...prev);
      }
      nodes.push({ id, deps, work: lo + rng.int(hi - lo + 1) });
    }
  }
  return { nodes };
}

export interface TaskGraphTaskOptions {
  perf?: TaskGraphPerf;
  gridSlack?: number;
}

export class TaskGraphTask implements SwarmTask {
  readonly kind = 'taskGraph' as const;
  readonly subtasks: readonly SubtaskSpec[];
  readonly serialBaseline: number;
  readonly lowerBound: number;
  readonly sinks: readonly number[];
  readonly perf: TaskGraphPerf;

  /** A task on a given graph; `seed` draws each subtask's item problem. */
  constructor(
    readonly graph: TaskGraph,
    readonly seed: number,
    options: TaskGraphTaskOptions = {},
  ) {
    validateTaskGraph(graph);
    this.perf = options.perf ?? 'sinks';
    const rng = new Rng(seed).fork(0x7a5c);
    this.subtasks = graph.nodes.map((v) => {
      const problem = problemForWork(rng.fork(v.id), v.work, options.gridSlack ?? 1);
      return { id: v.id, deps: [...v.deps], problem, minSteps: v.work };
    });
    this.serialBaseline = serialBaseline(graph);
    this.lowerBound = lowerBound(graph);
    this.sinks = sinks(graph);
  }

  performance(_reported: ReadonlyMap<number, number>, done: ReadonlySet<number>): number {
    const pool = this.perf === 'sinks' ? this.sinks : this.subtasks.map((s) => s.id);
    let n = 0;
    for (const v of pool) if (done.has(v)) n += 1;
    return n / pool.length;
  }
}

/** A random task graph with its item problems. The same config and seed give the same task. */
export function generateTaskGraph(config: TaskGraphConfig, seed: number): TaskGraphTask {
  const graph = generateGraph(config, new Rng(seed).fork(0x96a9));
  return new TaskGraphTask(graph, seed, { perf: config.perf, gridSlack: config.gridSlack });
}
