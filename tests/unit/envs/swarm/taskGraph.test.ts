import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/core/rng';
import { itemMinSteps } from '../../../../src/envs/swarm/itemSearch';
import {
  TASK_GRAPH_PRESETS,
  TaskGraphTask,
  findCycle,
  generateGraph,
  generateTaskGraph,
  lowerBound,
  serialBaseline,
  sinks,
  topologicalOrder,
  validateTaskGraph,
  type TaskGraph,
} from '../../../../src/envs/swarm/taskGraph';

/** Longest path by brute force: walk every chain of "depends on" edges from every node. */
function bruteForceLongestChain(g: TaskGraph): number {
  let best = 0;
  const walk = (v: number, sum: number): void => {
    const total = sum + g.nodes[v].work;
    best = Math.max(best, total);
    for (const d of g.nodes[v].deps) walk(d, total);
  };
  for (const v of g.nodes) walk(v.id, 0);
  return best;
}

/** A random DAG on n nodes: node j may depend on any i < j, then the ids are shuffled. */
function randomDag(rng: Rng, n: number, p: number): TaskGraph {
  const perm = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  const nodes = Array.from({ length: n }, (_, id) => ({ id, deps: [] as number[], work: 1 + rng.int(9) }));
  for (let j = 0; j < n; j++) for (let i = 0; i < j; i++) if (rng.uniform() < p) nodes[perm[j]].deps.push(perm[i]);
  return { nodes };
}

const g = (spec: Array<[number[], number]>): TaskGraph => ({ nodes: spec.map(([deps, work], id) => ({ id, deps, work })) });

describe('task graph bounds', () => {
  it('works out a diamond by hand', () => {
    // 0 (work 2) -> 1 (work 5) -> 3 (work 1);  0 -> 2 (work 3) -> 3
    // chains: 2+5+1 = 8, 2+3+1 = 6 -> lower bound 8; serial 2+5+3+1 = 11
    const d = g([[[], 2], [[0], 5], [[0], 3], [[1, 2], 1]]);
    expect(lowerBound(d)).toBe(8);
    expect(serialBaseline(d)).toBe(11);
    expect(sinks(d)).toEqual([3]);
    expect(topologicalOrder(d)).toEqual([0, 1, 2, 3]);
  });

  it('matches brute force on many small random DAGs', () => {
    const rng = new Rng(2024);
    for (let trial = 0; trial < 300; trial++) {
      const dag = randomDag(rng, 1 + rng.int(8), rng.uniform());
      expect(lowerBound(dag)).toBe(bruteForceLongestChain(dag));
      expect(serialBaseline(dag)).toBe(dag.nodes.reduce((a, v) => a + v.work, 0));
    }
  });

  it('matches brute force on generated layered graphs', () => {
    for (let seed = 0; seed < 40; seed++) {
      const graph = generateGraph({ width: 1 + (seed % 4), depth: 1 + (seed % 5), edgeDensity: 0.5, skipDensity: 0.2 }, new Rng(seed));
      expect(lowerBound(graph)).toBe(bruteForceLongestChain(graph));
    }
  });

  it('gives every node an order after its deps', () => {
    const rng = new Rng(3);
    for (let trial = 0; trial < 50; trial++) {
      const dag = randomDag(rng, 8, 0.4);
      const pos = new Map(topologicalOrder(dag).map((v, i) => [v, i]));
      for (const v of dag.nodes) for (const d of v.deps) expect(pos.get(d)).toBeLessThan(pos.get(v.id) as number);
    }
  });
});

describe('task graph validation', () => {
  it('rejects a cycle, naming a subtask on it', () => {
    // 1 depends on 0, 2 on 1, 0 on 2: 0 -> 2 -> 1 -> 0
    const cyc = g([[[2], 1], [[0], 1], [[1], 1]]);
    expect(findCycle(cyc)?.sort()).toEqual([0, 1, 2]);
    expect(() => validateTaskGraph(cyc)).toThrow(/cycle through subtask [012]/);
    expect(() => lowerBound(cyc)).toThrow(/cycle/);
    // a cycle away from node 0: 3 <-> 4, with 0..2 fine
    const side = g([[[], 1], [[0], 1], [[1], 1], [[2, 4], 1], [[3], 1]]);
    const msg = (() => {
      try {
        validateTaskGraph(side);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(msg).toMatch(/cycle through subtask [34] \((3 -> 4 -> 3|4 -> 3 -> 4)/);
    // a self-dependency is a cycle of one
    expect(() => validateTaskGraph(g([[[], 1], [[1], 2]]))).toThrow(/cycle through subtask 1 \(1 -> 1/);
  });

  it('rejects malformed graphs', () => {
    expect(() => validateTaskGraph({ nodes: [] })).toThrow(/no subtasks/);
    expect(() => validateTaskGraph(g([[[5], 1]]))).toThrow(/unknown subtask 5/);
    expect(() => validateTaskGraph(g([[[], 0]]))).toThrow(/work/);
    expect(() => validateTaskGraph(g([[[], 1], [[0, 0], 1]]))).toThrow(/twice/);
    expect(() => validateTaskGraph({ nodes: [{ id: 1, deps: [], work: 1 }] })).toThrow(/ids must be/);
  });

  it('rejects bad generator settings', () => {
    expect(() => generateTaskGraph({ width: 0, depth: 2, edgeDensity: 0.5 }, 0)).toThrow(/width/);
    expect(() => generateTaskGraph({ width: 20, depth: 20, edgeDensity: 0.5 }, 0)).toThrow(/at most 200/);
    expect(() => generateTaskGraph({ width: 2, depth: 2, edgeDensity: 1.5 }, 0)).toThrow(/edgeDensity/);
    expect(() => generateTaskGraph({ width: 2, depth: 2, edgeDensity: 0.5, minWork: 5, maxWork: 3 }, 0)).toThrow(/minWork/);
  });
});

describe('generateTaskGraph', () => {
  it('gives the same task for the same seed', () => {
    const a = generateTaskGraph(TASK_GRAPH_PRESETS.medium, 77);
    const b = generateTaskGraph(TASK_GRAPH_PRESETS.medium, 77);
    const c = generateTaskGraph(TASK_GRAPH_PRESETS.medium, 78);
    expect(b.graph).toEqual(a.graph);
    expect(b.subtasks).toEqual(a.subtasks);
    expect(c.subtasks).not.toEqual(a.subtasks);
  });

  it('builds width x depth layers, each below the first fed by the previous layer', () => {
    const t = generateTaskGraph({ width: 4, depth: 5, edgeDensity: 0.3, skipDensity: 0.2, minWork: 2, maxWork: 6 }, 5);
    expect(t.subtasks.length).toBe(20);
    for (const v of t.graph.nodes) {
      const layer = Math.floor(v.id / 4);
      if (layer === 0) expect(v.deps).toEqual([]);
      else expect(v.deps.some((d) => Math.floor(d / 4) === layer - 1)).toBe(true);
      expect(v.deps.every((d) => Math.floor(d / 4) < layer)).toBe(true);
      expect(v.work).toBeGreaterThanOrEqual(2);
      expect(v.work).toBeLessThanOrEqual(6);
    }
    // each subtask's item problem takes exactly `work` steps at best
    for (const s of t.subtasks) expect(itemMinSteps(s.problem)).toBe(t.graph.nodes[s.id].work);
    expect(t.lowerBound).toBe(lowerBound(t.graph));
    expect(t.serialBaseline).toBe(serialBaseline(t.graph));
  });

  it('scores sinks by default, all subtasks on request', () => {
    const d = g([[[], 2], [[0], 5], [[0], 3], [[1, 2], 1], [[], 1]]);
    // sinks: 3 and 4
    const bySinks = new TaskGraphTask(d, 0);
    const byAll = new TaskGraphTask(d, 0, { perf: 'all' });
    const done = new Set([0, 1, 4]);
    expect(bySinks.sinks).toEqual([3, 4]);
    expect(bySinks.performance(new Map(), done)).toBe(0.5); // 1 of 2 sinks
    expect(byAll.performance(new Map(), done)).toBe(0.6); // 3 of 5
  });
});
