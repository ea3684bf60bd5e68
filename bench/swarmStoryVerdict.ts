/**
 * The swarm story's verdict: the three claims a class is shown, judged from swarm-story's rows
 * (one file, or several over disjoint seeds read as one), seed by seed where a claim is about
 * seeds and on the medians over seeds where it is about the row.
 *
 *   serial collapse       "no shaping" ends serial (its median evaluation episode creates no
 *                         subagent) in ≥ 70 % of the seeds, while "annealed" ends using subagents
 *                         in ≥ 80 %
 *   spurious parallelism  on ≥ 70 % of the seeds, "constant λ1" creates ≥ 1.5 × annealed's
 *                         subagents on the same seed, and either scores ≥ 0.05 lower r_perf or
 *                         finishes < 0.7 of what it assigns
 *   learned orchestrator  annealed's median r_perf ≥ the adaptive packer's and ≥ 1.1 × the
 *                         fixed-table packer's, at median critical ≤ serial / 3
 */
import { findRow, type BenchResultFile, type BenchRow } from './results';
import { median } from './types';

export const PACKER_ROW = 'baseline: packer (fuller subagents, no second opinions)';
export const FIXED_TABLE_ROW = 'baseline: fixed-table packer (routes by the prior means)';

export interface StoryVerdict {
  seeds: number;
  collapse: { noShapingSerial: number; annealedDelegating: number; met: boolean };
  spurious: { seeds: number; subagentRatio: number; met: boolean };
  learned: { annealed: number; adaptivePacker: number; fixedTablePacker: number; criticalOverSerial: number; met: boolean };
}

/** A measure of a row on one seed: the seed's own median (swarm-story stores one value per seed). */
function valueOf(row: BenchRow, seed: number, measure: string): number {
  const s = row.perSeed.find((p) => p.seed === seed);
  const v = s?.values[measure];
  if (!v || v.length === 0) throw new Error(`swarm-story verdict: ${row.row} has no ${measure} for seed ${seed}`);
  return median(v);
}

/** The verdict on split `split` of a swarm-story result; throws naming a row or seed that is missing. */
export function storyVerdict(file: Pick<BenchResultFile, 'rows' | 'benchmark'>, split: string): StoryVerdict {
  const row = (name: string) => findRow(file, split, name);
  const annealed = row('annealed');
  const noShaping = row('no shaping');
  const constant = row('constant λ1');
  const packer = row(PACKER_ROW);
  const fixed = row(FIXED_TABLE_ROW);
  const seeds = annealed.seeds;
  for (const r of [noShaping, constant, packer, fixed]) {
    const missing = seeds.filter((s) => !r.seeds.includes(s));
    if (missing.length) throw new Error(`swarm-story verdict: ${r.row} lacks seed ${missing.join(', ')} that annealed has`);
  }
  const n = seeds.length;
  const at = (r: BenchRow, measure: string) => seeds.map((s) => valueOf(r, s, measure));
  const annealedSubagents = at(annealed, 'subagents');
  const noShapingSerial = at(noShaping, 'subagents').filter((x) => x === 0).length;
  const annealedDelegating = annealedSubagents.filter((x) => x > 0).length;
  const aPerf = at(annealed, 'rPerf');
  const cSub = at(constant, 'subagents');
  const cPerf = at(constant, 'rPerf');
  const cFinish = at(constant, 'finishRate');
  const spuriousSeeds = seeds.filter((_, i) => cSub[i] >= 1.5 * annealedSubagents[i] && cSub[i] > 0 && (cPerf[i] <= aPerf[i] - 0.05 + 1e-9 || cFinish[i] < 0.7)).length;
  const learned = {
    annealed: median(aPerf),
    adaptivePacker: median(at(packer, 'rPerf')),
    fixedTablePacker: median(at(fixed, 'rPerf')),
    criticalOverSerial: median(at(annealed, 'criticalOverSerial')),
  };
  return {
    seeds: n,
    collapse: { noShapingSerial, annealedDelegating, met: noShapingSerial >= 0.7 * n && annealedDelegating >= 0.8 * n },
    spurious: { seeds: spuriousSeeds, subagentRatio: median(cSub) / Math.max(median(annealedSubagents), 1e-9), met: spuriousSeeds >= 0.7 * n },
    learned: { ...learned, met: learned.annealed >= learned.adaptivePacker && learned.annealed >= 1.1 * learned.fixedTablePacker && learned.criticalOverSerial <= 1 / 3 },
  };
}

/** The verdict as the bench prints it under its table. */
export function formatStoryVerdict(split: string, v: StoryVerdict): string {
  const yes = (met: boolean) => (met ? 'met' : 'not met');
  const ratio = Number.isFinite(v.spurious.subagentRatio) ? `${v.spurious.subagentRatio.toFixed(2)} ×` : 'n/a (annealed creates none)';
  return [
    `The story on ${split} (${v.seeds} seeds):`,
    `- serial collapse by learning: ${yes(v.collapse.met)}. "no shaping" ends serial on ${v.collapse.noShapingSerial}/${v.seeds} (target ≥ 70 %); "annealed" ends using subagents on ${v.collapse.annealedDelegating}/${v.seeds} (target ≥ 80 %).`,
    `- spurious parallelism by learning: ${yes(v.spurious.met)}. "constant λ1" over-spawns (≥ 1.5 × annealed's subagents, and r_perf ≥ 0.05 lower or finish < 0.7) on ${v.spurious.seeds}/${v.seeds} (target ≥ 70 %); median subagents ${ratio} annealed's.`,
    `- the learned orchestrator: ${yes(v.learned.met)}. annealed r_perf ${v.learned.annealed.toFixed(3)} against the adaptive packer's ${v.learned.adaptivePacker.toFixed(3)} and 1.1 × the fixed-table packer's ${(1.1 * v.learned.fixedTablePacker).toFixed(3)}, at ${v.learned.criticalOverSerial.toFixed(3)} × serial (target ≤ 0.333).`,
  ].join('\n');
}
