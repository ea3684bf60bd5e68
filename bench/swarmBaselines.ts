/**
 * swarm-baselines: the scripted orchestrators of src/swarm/baselines.ts on the decomposition task
 * (src/envs/swarm/decomposition.ts, default rules), on the same tasks and seeds: seeds 1-5 (where
 * the rules were chosen) and held-out seeds 6-15, reported separately. Medians over seeds of r_perf
 * (F1 of the submitted answers), critical steps, critical ÷ serial baseline, total compute, finish
 * rate (completed ÷ assigned, over the seeds that assigned anything) and context used ÷ budget; a
 * last row per split gives the tasks' expected-steps floor (expectedChainFloor).
 * `--subtasks N` sets the task size (default 40). `--levels true` asks instead how much room each
 * level of the task (src/swarm/levels.ts) leaves above the best scripted orchestrator: the best one
 * by median r_perf, the per-episode best of them all, and the loose context ceiling, on 5 tasks per seed.
 */
import { DecompositionSim, type DecompositionOutcome } from '../src/envs/swarm/decomposition';
import { generateDecomposition } from '../src/envs/swarm/decompositionTask';
import { BASELINES } from '../src/swarm/baselines';
import { playLevel, taskLevel, TASK_LEVELS, type LevelEpisode, type TaskLevel } from '../src/swarm/levels';
import { FLOOR_ROW, floorFigures } from './swarmStory';
import { markdownTable, median, type Benchmark } from './types';
import type { BenchRow } from './results';

const SPLITS = [
  { name: 'seeds 1-5', seeds: [1, 2, 3, 4, 5] },
  { name: 'held-out 6-15', seeds: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15] },
] as const;

export interface BaselineFigures {
  rPerf: number;
  critical: number;
  criticalOverSerial: number;
  totalCompute: number;
  /** null when no seed assigned anything. */
  finishRate: number | null;
  contextUsed: number;
  budgetEnds: number;
}

export function summarise(outcomes: readonly DecompositionOutcome[]): BaselineFigures {
  const assigned = outcomes.filter((o) => o.nAssigned > 0);
  return {
    rPerf: median(outcomes.map((o) => o.rPerf)),
    critical: median(outcomes.map((o) => o.criticalSteps)),
    criticalOverSerial: median(outcomes.map((o) => o.criticalSteps / o.serialBaseline)),
    totalCompute: median(outcomes.map((o) => o.totalCompute)),
    finishRate: assigned.length > 0 ? median(assigned.map((o) => o.nCompleted / o.nAssigned)) : null,
    contextUsed: median(outcomes.map((o) => o.contextUsed / o.contextBudget)),
    budgetEnds: outcomes.filter((o) => o.endReason === 'budget').length,
  };
}

export const swarmBaselinesBenchmark: Benchmark = {
  name: 'swarm-baselines',
  description: 'Scripted orchestrators (serial, assign-all, greedy, planner, packer) on the decomposition task: r_perf, critical steps, ÷ serial, compute, finish rate, context; seeds 1-5 and held-out 6-15',
  help: {
    seeds: null,
    flags: [
      { name: 'subtasks', value: 'N', text: 'subtasks per task (default 40); the seeds are always 1-5 and held-out 6-15' },
      { name: 'level', value: 'NAME', text: 'with --levels true: only this level (e.g. "latent skills")' },
      { name: 'levels', value: 'true', text: 'instead: per level of the task (budget, context, latency, chains, and all mixed), the best scripted orchestrator, the per-episode best of them and the context ceiling: the room a learned one has above them' },
    ],
  },
  async run({ flags }) {
    const numSubtasks = flags.subtasks === undefined ? 40 : Number(flags.subtasks);
    if (!(Number.isInteger(numSubtasks) && numSubtasks >= 1 && numSubtasks <= 100)) throw new Error(`--subtasks: expected an integer in 1..100, got ${flags.subtasks}`);
    if (flags.levels !== undefined && flags.levels !== 'true' && flags.levels !== 'false') throw new Error(`--levels: expected true or false, got ${flags.levels}`);
    if (flags.levels === 'true') return levelsReport(numSubtasks, flags.level === undefined ? TASK_LEVELS : [taskLevel(flags.level)]);
    const rows: (string | number)[][] = [];
    const dataRows: BenchRow[] = [];
    const figures: Record<string, unknown> = { numSubtasks };
    for (const split of SPLITS) {
      const per: Record<string, BaselineFigures> = {};
      for (const b of BASELINES) {
        const outcomes = split.seeds.map((seed) => b.run(new DecompositionSim(generateDecomposition({ numSubtasks }, seed))));
        const f = summarise(outcomes);
        per[b.name] = f;
        dataRows.push(baselineRow(split, b.name, f, outcomes));
        rows.push([
          split.name, b.name, f.rPerf.toFixed(3), f.critical.toFixed(0), f.criticalOverSerial.toFixed(3), f.totalCompute.toFixed(0),
          f.finishRate === null ? '- (none assigned)' : f.finishRate.toFixed(2), f.contextUsed.toFixed(2), `${f.budgetEnds}/${outcomes.length}`,
        ]);
      }
      // Not a policy: the expected-steps floor of one that claims every subtask.
      const floor = floorFigures(split.seeds.map((seed) => new DecompositionSim(generateDecomposition({ numSubtasks }, seed))));
      rows.push([split.name, FLOOR_ROW, '-', floor.critical.toFixed(0), floor.criticalOverSerial.toFixed(3), '-', '-', '-', '-']);
      figures[split.name] = { ...per, floor };
    }
    return {
      table: markdownTable(['seeds', 'baseline', 'r_perf', 'critical steps', '÷ serial', 'total compute', 'finish rate', 'context used', 'ended by budget'], rows),
      figures,
      rows: dataRows,
    };
  },
};

/** A scripted orchestrator's row for --json: one task per seed. */
function baselineRow(split: (typeof SPLITS)[number], name: string, f: BaselineFigures, outcomes: readonly DecompositionOutcome[]): BenchRow {
  const { finishRate, ...rest } = f;
  return {
    split: split.name,
    row: name,
    seeds: [...split.seeds],
    medians: finishRate === null ? rest : { ...rest, finishRate },
    perSeed: split.seeds.map((seed, i) => {
      const o = outcomes[i];
      return { seed, values: { rPerf: [o.rPerf], critical: [o.criticalSteps], criticalOverSerial: [o.criticalSteps / o.serialBaseline], totalCompute: [o.totalCompute], contextUsed: [o.contextUsed / o.contextBudget] } };
    }),
  };
}

/** The measures of a level's rows for --json: each scripted orchestrator, the per-episode best and the ceiling. */
function levelRows(split: (typeof SPLITS)[number], level: string, f: LevelFigures, episodes: readonly SeededEpisode[]): BenchRow[] {
  const seeds = [...split.seeds];
  const perSeed = (values: (e: LevelEpisode) => Record<string, number>) =>
    seeds.map((seed) => {
      const mine = episodes.filter((e) => e.seed === seed).map((e) => values(e.episode));
      const keys = mine.length > 0 ? Object.keys(mine[0]) : [];
      return { seed, values: Object.fromEntries(keys.map((k) => [k, mine.map((m) => m[k])])) };
    });
  return [
    ...Object.entries(f.byBaseline).map(([name, b]): BenchRow => ({
      split: split.name,
      row: name,
      level,
      seeds,
      medians: { rPerf: b.rPerf, criticalOverSerial: b.criticalOverSerial },
      perSeed: perSeed((e) => ({ rPerf: e.rPerf[name], criticalOverSerial: e.criticalOverSerial[name] })),
    })),
    { split: split.name, row: PER_EPISODE_BEST_ROW, level, seeds, medians: { rPerf: f.perEpisodeBest }, perSeed: perSeed((e) => ({ rPerf: e.perEpisodeBest })) },
    { split: split.name, row: CEILING_ROW, level, seeds, medians: { rPerf: f.ceiling }, perSeed: perSeed((e) => ({ rPerf: e.ceiling })) },
  ];
}

/** Row names of --json beside the scripted orchestrators'. */
export const PER_EPISODE_BEST_ROW = 'per-episode best';
export const CEILING_ROW = 'context ceiling';

interface SeededEpisode {
  seed: number;
  episode: LevelEpisode;
}

const TASKS_PER_SEED = 5;

export interface LevelFigures {
  bestSingle: string;
  bestSingleRPerf: number;
  perEpisodeBest: number;
  ceiling: number;
  /** r_perf the bar asks for: 1.1 × the best single one. */
  bar: number;
  /** Tasks played (the level's rules make the others impossible). */
  tasks: number;
  /** Median r_perf and critical ÷ serial of every scripted orchestrator. */
  byBaseline: Record<string, { rPerf: number; criticalOverSerial: number }>;
}

/** Medians over a level's episodes; the best single orchestrator is the one with the highest median r_perf. */
export function levelFigures(episodes: readonly LevelEpisode[]): LevelFigures {
  const names = Object.keys(episodes[0].rPerf);
  const medians = names.map((n) => ({ n, r: median(episodes.map((e) => e.rPerf[n])) })).sort((a, b) => b.r - a.r);
  return {
    bestSingle: medians[0].n,
    bestSingleRPerf: medians[0].r,
    perEpisodeBest: median(episodes.map((e) => e.perEpisodeBest)),
    ceiling: median(episodes.map((e) => e.ceiling)),
    bar: 1.1 * medians[0].r,
    tasks: episodes.length,
    byBaseline: Object.fromEntries(names.map((n) => [n, { rPerf: median(episodes.map((e) => e.rPerf[n])), criticalOverSerial: median(episodes.map((e) => e.criticalOverSerial[n])) }])),
  };
}

function levelsReport(numSubtasks: number, levels: readonly TaskLevel[]) {
  const rows: (string | number)[][] = [];
  const dataRows: BenchRow[] = [];
  const figures: Record<string, unknown> = { numSubtasks, tasksPerSeed: TASKS_PER_SEED };
  for (const split of SPLITS) {
    const pooled: SeededEpisode[] = [];
    const per: Record<string, LevelFigures> = {};
    const row = (name: string, f: LevelFigures) =>
      rows.push([split.name, name, f.tasks, f.bestSingle, f.bestSingleRPerf.toFixed(3), f.perEpisodeBest.toFixed(3), f.ceiling.toFixed(3), f.bar.toFixed(3), f.bar > f.ceiling ? 'no' : 'yes']);
    for (const level of levels) {
      const seeded = split.seeds.flatMap((seed) => Array.from({ length: TASKS_PER_SEED }, (_, k) => playLevel(level, numSubtasks, seed, k, BASELINES)).flatMap((episode) => (episode === null ? [] : [{ seed, episode }])));
      const episodes = seeded.map((e) => e.episode);
      if (episodes.length === 0) throw new Error(`swarm-baselines: at level '${level.name}' every task of ${numSubtasks} subtasks is impossible (its budget is below the task's lower bound); try more --subtasks`);
      pooled.push(...seeded);
      per[level.name] = levelFigures(episodes);
      row(level.name, per[level.name]);
      dataRows.push(...levelRows(split, level.name, per[level.name], seeded));
    }
    if (levels.length > 1) {
      per.mixed = levelFigures(pooled.map((e) => e.episode));
      row('mixed (every level, equally)', per.mixed);
      dataRows.push(...levelRows(split, 'mixed', per.mixed, pooled));
    }
    figures[split.name] = per;
  }
  const table = markdownTable(['seeds', 'level', 'tasks', 'best scripted (median r_perf)', 'its r_perf', 'per-episode best', 'context ceiling', '1.1 × best', 'room for +10 %'], rows);
  if (levels.length > 1) return { table, figures, rows: dataRows };
  // One level: every scripted orchestrator on it too.
  const level = levels[0].name;
  const each = SPLITS.flatMap((split) => {
    const f = (figures[split.name] as Record<string, LevelFigures>)[level];
    return Object.entries(f.byBaseline).map(([name, b]) => [split.name, name, b.rPerf.toFixed(3), b.criticalOverSerial.toFixed(3)]);
  });
  return { table: `${table}\n\n${markdownTable(['seeds', 'scripted orchestrator', 'median r_perf', 'critical ÷ serial'], each)}`, figures, rows: dataRows };
}
