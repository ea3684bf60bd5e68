/**
 * swarm-baselines: the scripted orchestrators of src/swarm/baselines.ts on the decomposition task
 * (src/envs/swarm/decomposition.ts, default rules), on the same tasks and seeds: seeds 1-5 (where
 * the rules were chosen) and held-out seeds 6-15, reported separately. Medians over seeds of r_perf
 * (F1 of the submitted answers), critical steps, critical ÷ serial baseline, total compute, finish
 * rate (completed ÷ assigned, over the seeds that assigned anything) and context used ÷ budget; a
 * last row per split gives the tasks' expected-steps floor (expectedChainFloor).
 * `--subtasks N` sets the task size (default 40).
 */
import { DecompositionSim, type DecompositionOutcome } from '../../envs/swarm/decomposition';
import { generateDecomposition } from '../../envs/swarm/decompositionTask';
import { BASELINES } from '../../swarm/baselines';
import { FLOOR_ROW, floorFigures } from './swarmV2';
import { markdownTable, median, type Benchmark } from './types';

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
    flags: [{ name: 'subtasks', value: 'N', text: 'subtasks per task (default 40); the seeds are always 1-5 and held-out 6-15' }],
  },
  async run({ flags }) {
    const numSubtasks = flags.subtasks === undefined ? 40 : Number(flags.subtasks);
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = { numSubtasks };
    for (const split of SPLITS) {
      const per: Record<string, BaselineFigures> = {};
      for (const b of BASELINES) {
        const outcomes = split.seeds.map((seed) => b.run(new DecompositionSim(generateDecomposition({ numSubtasks }, seed))));
        const f = summarise(outcomes);
        per[b.name] = f;
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
    };
  },
};
