/**
 * Swarm task configs: which task (wide search or task graph), its size and difficulty, and the
 * orchestrator's limits. `validateSwarmTaskConfig` rejects a config that cannot be satisfied
 * (K out of range, a cyclic or malformed graph, limits too small to run a single subagent) with
 * a message that names the problem, before any training starts.
 */
import { Rng, deriveSeed } from '../core/rng';
import { resolveLimits, type OrchestrationLimits } from '../envs/swarm/orchestration';
import {
  TASK_GRAPH_PRESETS,
  TaskGraphTask,
  findCycle,
  generateTaskGraph,
  validateTaskGraph,
  type TaskGraph,
  type TaskGraphDifficulty,
} from '../envs/swarm/taskGraph';
import type { SwarmTask } from '../envs/swarm/types';
import { WIDE_SEARCH_MAX_ITEMS, generateWideSearch, type WideSearchDifficulty } from '../envs/swarm/wideSearch';

export interface SwarmTaskConfig {
  kind: 'wideSearch' | 'taskGraph';
  /** Wide search: items K (1..100). */
  numItems: number;
  difficulty: WideSearchDifficulty;
  /** Task graph: generator preset. */
  graphDifficulty: TaskGraphDifficulty;
  /** Task graph: a fixed graph instead of generated ones (checked for cycles). */
  graph?: TaskGraph;
  limits: OrchestrationLimits;
}

export class SwarmConfigError extends Error {
  override name = 'SwarmConfigError';
}

export function validateSwarmTaskConfig(c: SwarmTaskConfig): void {
  if (c.kind !== 'wideSearch' && c.kind !== 'taskGraph') throw new SwarmConfigError(`swarm.task: must be wideSearch or taskGraph, got ${String(c.kind)}`);
  if (c.kind === 'wideSearch' && !(Number.isInteger(c.numItems) && c.numItems >= 1 && c.numItems <= WIDE_SEARCH_MAX_ITEMS)) {
    throw new SwarmConfigError(`swarm.items: wide search needs K in 1..${WIDE_SEARCH_MAX_ITEMS} items, got ${c.numItems}`);
  }
  if (c.graph) {
    const cycle = findCycle(c.graph);
    if (cycle) throw new SwarmConfigError(`swarm.graph: the task graph has a cycle (${[...cycle, cycle[0]].join(' → ')}), so no subtask on it can ever start`);
    try {
      validateTaskGraph(c.graph);
    } catch (e) {
      throw new SwarmConfigError(`swarm.graph: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  try {
    resolveLimits(c.limits);
  } catch (e) {
    throw new SwarmConfigError(`swarm limits: ${e instanceof Error ? e.message : String(e)}`);
  }
  const l = c.limits;
  if (l.contextBudget < l.contextPerResult) {
    throw new SwarmConfigError(`swarm.contextBudget: ${l.contextBudget} cannot hold even one subagent result (${l.contextPerResult} each)`);
  }
}

/** The task of episode `index` of a run: same seed and index, same task. */
export function makeSwarmTask(c: SwarmTaskConfig, seed: number): SwarmTask {
  if (c.kind === 'wideSearch') return generateWideSearch({ numItems: c.numItems, difficulty: c.difficulty }, seed);
  if (c.graph) return new TaskGraphTask(c.graph, seed);
  return generateTaskGraph(TASK_GRAPH_PRESETS[c.graphDifficulty], seed);
}

/** A seed per (run seed, update, actor, episode), never 0-collisions across them. */
export function episodeSeed(runSeed: number, update: number, actor: number, episode: number): number {
  return deriveSeed(runSeed, 0x7a5c, update, actor, episode);
}

/** Held-out task seeds for evaluation (a stream training never draws). */
export function evalSeeds(runSeed: number, n: number): number[] {
  const rng = new Rng(deriveSeed(runSeed, 0xe7a1));
  return Array.from({ length: n }, () => rng.nextUint32());
}
