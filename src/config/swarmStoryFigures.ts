/**
 * Every figure the agent swarm's texts state (docs/swarm.md, the README, the teaching notes, the
 * chart explanations, the gallery's descriptions), named once, with where it was measured: a row of
 * a committed benchmark result, bench/results/<file>.json (bench/results.ts has the format).
 * tests/unit/docs/swarmFigures.test.ts checks each figure against its file, rounded as stated, and
 * fails when a text states a number that is neither one of these nor a documented exception (a
 * setting, a rule, a definition).
 *
 * A figure whose file is not committed yet is `pending`: the test names it until it is.
 * To add a figure: an entry here (value as stated, digits as stated, its source), then use
 * `stated(SWARM_FIGURES.name)` in a text of src/, or write the same number in the docs.
 */

/** Where a figure was measured: one number of one row of a committed result file. */
export interface FigureSource {
  /** bench/results/<file>.json */
  file: string;
  /** The row's split (which seeds), name, and level where the benchmark has several. */
  split: string;
  row: string;
  level?: string;
  /** `medians.<measure>` or `counts.<judgement>` (seeds a yes/no held for). */
  measure: string;
}

export interface SwarmFigure {
  /** As the texts state it (already rounded). */
  value: number;
  /** Decimal places as stated (-2: to the hundred). */
  digits: number;
  /** What it is, in words. */
  what: string;
  source: FigureSource;
  /** The figure is source − minus (a gain) ... */
  minus?: FigureSource;
  /** ... or source ÷ over (e.g. critical steps ÷ their share of serial: the serial baseline). */
  over?: FigureSource;
  /** Set while the source file is not committed: what run will give it. */
  pending?: string;
}

const HELD_OUT = 'held-out 6-15';
const TUNING = 'seeds 1-5';
const PACKER = 'packer (fuller subagents, no second opinions)';

const latent = (row: string, measure = 'medians.rPerf'): FigureSource => ({ file: 'swarm-baselines-latent', split: HELD_OUT, row, level: 'latent skills', measure });
/** A level's own file: bench/results/swarm-baselines-<file>.json (npm run bench -- swarm-baselines --levels true --level LEVEL). */
const levels = (file: string, split: string, level: string, row: string, measure = 'medians.rPerf'): FigureSource => ({ file: `swarm-baselines-${file}`, split, row, level, measure });
const CHAINS = 'chains: 60 %, up to 5 links';
const story = (file: string, row: string, measure: string, split = HELD_OUT, level = 'default'): FigureSource => ({ file, split, row, level, measure });
/** The presets' story under the current rules: held-out seeds run as two processes, read as one. */
const latentStory = (row: string, measure = 'medians.rPerf'): FigureSource => ({ file: 'swarm-story-latent-6+swarm-story-latent-11', split: HELD_OUT, row, level: 'default', measure });


export const SWARM_FIGURES = {
  // Latent skills: scripted orchestrators on held-out seeds (npm run bench -- swarm-baselines --levels true --level 'latent skills').
  latentSerialRPerf: { value: 0.333, digits: 3, what: 'r_perf of the serial orchestrator, latent skills', source: latent('serial') },
  latentSerialCriticalOverSerial: { value: 0.25, digits: 3, what: 'critical ÷ serial of the serial orchestrator, latent skills (it runs into the budget)', source: latent('serial', 'medians.criticalOverSerial') },
  latentAdaptivePackerRPerf: { value: 0.755, digits: 3, what: 'r_perf of the adaptive packer, latent skills', source: latent(PACKER) },
  latentFixedTablePackerRPerf: { value: 0.746, digits: 3, what: 'r_perf of the fixed-table packer, latent skills', source: latent('fixed-table packer (routes by the prior means)') },
  latentPerEpisodeBestRPerf: { value: 0.765, digits: 3, what: 'r_perf of the per-episode best scripted orchestrator, latent skills', source: latent('per-episode best') },

  // Levels of the task, one file each (the default level, and the one where choosing per task gains most).
  defaultPackerRPerf: { value: 0.933, digits: 3, what: 'r_perf of the packer with the skill table known (default level)', source: levels('default', HELD_OUT, 'default', PACKER) },
  levelsSmallestGain: { value: 0, digits: 3, what: 'per-episode best over the best scripted one, default level', source: levels('default', HELD_OUT, 'default', 'per-episode best'), minus: levels('default', HELD_OUT, 'default', PACKER) },
  levelsLargestGain: { value: 0.032, digits: 3, what: 'per-episode best over the best scripted one (greedy), chains level, seeds 1-5', source: levels('chains', TUNING, CHAINS, 'per-episode best'), minus: levels('chains', TUNING, CHAINS, 'greedy') },

  // swarm-story's scripted rows (npm run bench -- swarm-story --rows none --split heldout [--subtasks 100]) and
  // swarm-baselines at 100 subtasks (npm run bench -- swarm-baselines --subtasks 100).
  storyPackerRPerf: { value: 0.933, digits: 3, what: 'r_perf of the packer, 40 subtasks', source: story('swarm-story-baselines', `baseline: ${PACKER}`, 'medians.rPerf') },
  storyPackerCriticalOverSerial: { value: 0.163, digits: 3, what: 'critical ÷ serial of the packer, 40 subtasks', source: story('swarm-story-baselines', `baseline: ${PACKER}`, 'medians.criticalOverSerial') },
  storyPackerTargetSeeds: { value: 10, digits: 0, what: 'held-out seeds where the packer meets the target', source: story('swarm-story-baselines', `baseline: ${PACKER}`, 'counts.target') },
  scalePackerRPerf: { value: 0.959, digits: 3, what: 'r_perf of the packer, 100 subtasks (one task per seed)', source: { file: 'swarm-baselines-100', split: HELD_OUT, row: PACKER, measure: 'medians.rPerf' } },
  scaleSerialBaseline: { value: 1500, digits: -2, what: 'serial baseline of a 100-subtask task (the serial orchestrator’s critical steps ÷ its share of serial)', source: story('swarm-story-baselines-100', 'baseline: serial', 'medians.critical'), over: story('swarm-story-baselines-100', 'baseline: serial', 'medians.criticalOverSerial') },

  // The presets trained under the current rules, held-out seeds 6-15 (two processes: seeds 6-10 and 11-15),
  // with the scripted orchestrators on the same evaluation tasks (BENCHMARKS.md, swarm-story, its protocol).
  storyAnnealedRPerf: { value: 0.62, digits: 3, what: 'r_perf of the annealed preset', source: latentStory('annealed') },
  storyAnnealedCriticalOverSerial: { value: 0.145, digits: 3, what: 'critical ÷ serial of the annealed preset', source: latentStory('annealed', 'medians.criticalOverSerial') },
  storyAnnealedSubagents: { value: 38, digits: 0, what: 'subagents per episode of the annealed preset', source: latentStory('annealed', 'medians.subagents') },
  storyAnnealedFinish: { value: 0.54, digits: 2, what: 'finish rate of the annealed preset', source: latentStory('annealed', 'medians.finishRate') },
  storyNoShapingRPerf: { value: 0.656, digits: 3, what: 'r_perf of the no-shaping preset', source: latentStory('no shaping') },
  storyNoShapingCollapseSeeds: { value: 0, digits: 0, what: 'held-out seeds where the no-shaping preset ends working alone', source: latentStory('no shaping', 'counts.serialCollapse') },
  storyNoShapingSubagents: { value: 37, digits: 0, what: 'subagents per episode of the no-shaping preset', source: latentStory('no shaping', 'medians.subagents') },
  storyNoShapingSpuriousSeeds: { value: 8, digits: 0, what: 'held-out seeds where the no-shaping preset’s finish rate is below 0.8', source: latentStory('no shaping', 'counts.spurious') },
  storyConstantRPerf: { value: 0.62, digits: 3, what: 'r_perf of the constant-λ1 preset', source: latentStory('constant λ1') },
  storyConstantSubagents: { value: 49, digits: 0, what: 'subagents per episode of the constant-λ1 preset', source: latentStory('constant λ1', 'medians.subagents') },
  storyConstantSpuriousSeeds: { value: 9, digits: 0, what: 'held-out seeds where the constant-λ1 preset’s finish rate is below 0.8', source: latentStory('constant λ1', 'counts.spurious') },
  storyAnnealedSpuriousSeeds: { value: 7, digits: 0, what: 'held-out seeds where the annealed preset’s finish rate is below 0.8', source: latentStory('annealed', 'counts.spurious') },
  storySerialRPerf: { value: 0.36, digits: 3, what: 'r_perf of the serial orchestrator on the same tasks', source: latentStory('baseline: serial') },
  storyAdaptivePackerRPerf: { value: 0.8, digits: 3, what: 'r_perf of the adaptive packer on the same tasks', source: latentStory(`baseline: ${PACKER}`) },
  storyUntrainedRPerf: { value: 0.317, digits: 3, what: 'r_perf of the untrained orchestrator’s law (a legal type, then a legal action, at random) on the same tasks', source: story('swarm-story-latent-baselines', 'baseline: untrained (a legal type, then a legal action, at random)', 'medians.rPerf') },
  storyFixedTablePackerRPerf: { value: 0.772, digits: 3, what: 'r_perf of the fixed-table packer on the same tasks', source: latentStory('baseline: fixed-table packer (routes by the prior means)') },
} as const satisfies Record<string, SwarmFigure>;

export type SwarmFigureName = keyof typeof SWARM_FIGURES;

/** A figure as the texts write it: its value at its digits (1,500 for a figure rounded to the hundred). */
export function stated(f: Pick<SwarmFigure, 'value' | 'digits'>): string {
  return f.digits >= 0 ? f.value.toFixed(f.digits) : f.value.toLocaleString('en-US');
}
