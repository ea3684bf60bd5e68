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

/** Training runs whose result files are not committed yet (their commands are in BENCHMARKS.md). */
const STORY_RUN = 'npm run bench -- swarm-story --split heldout --json bench/results/swarm-story-default.json';
const DEMO_RUN = "npm run bench -- swarm-story --split heldout --rows 'demo start (packer)' --parallel-credit launch --runs 5 --json bench/results/swarm-story-demo-launch.json";
const SCALE_RUN = "npm run bench -- swarm-story --split heldout --subtasks 100 --rows 'demo start (packer)' --parallel-credit launch --json bench/results/swarm-story-scale-launch.json";
const LEVEL_RUN = "npm run bench -- swarm-story --split tuning --rows 'demo start (packer)' --level LEVEL --json bench/results/swarm-story-LEVEL.json";
const TRACE_RUN = 'a training log of the link the note opens (not yet a benchmark row)';

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

  // Learned rows, 40 subtasks, from the presets' start.
  storyAnnealedRPerf: { value: 0.863, digits: 3, what: 'r_perf of the annealed row', source: story('swarm-story-default', 'annealed', 'medians.rPerf'), pending: STORY_RUN },
  storyAnnealedCriticalOverSerial: { value: 0.182, digits: 3, what: 'critical ÷ serial of the annealed row', source: story('swarm-story-default', 'annealed', 'medians.criticalOverSerial'), pending: STORY_RUN },
  storyAnnealedTargetSeeds: { value: 0, digits: 0, what: 'held-out seeds where the annealed row meets the target', source: story('swarm-story-default', 'annealed', 'counts.target'), pending: STORY_RUN },
  storyNoShapingRPerf: { value: 0.853, digits: 3, what: 'r_perf of the row without shaping', source: story('swarm-story-default', 'no shaping', 'medians.rPerf'), pending: STORY_RUN },
  storyShapedRPerfLowest: { value: 0.851, digits: 3, what: 'the lowest r_perf of the shaped rows (λ2 only)', source: story('swarm-story-default', 'λ2 only', 'medians.rPerf'), pending: STORY_RUN },
  storyBias6CollapseSeeds: { value: 4, digits: 0, what: 'held-out seeds in serial collapse with the start bias 6', source: story('swarm-story-default', 'start bias 6', 'counts.serialCollapse'), pending: STORY_RUN },
  storyBias6CollapseSeedsAt60: { value: 5, digits: 0, what: 'the same after 60 updates', source: story('swarm-story-60', 'start bias 6', 'counts.serialCollapse'), pending: `${STORY_RUN} --updates 60` },
  storySpuriousSharedReturnFewest: { value: 5, digits: 0, what: 'held-out seeds with spurious parallelism, fewest over the rows, each decision sharing the episode’s return', source: story('swarm-story-episode-credit', 'no shaping', 'counts.spurious'), pending: `${STORY_RUN} --credit episode` },
  storySpuriousSharedReturnMost: { value: 9, digits: 0, what: 'the same, most over the rows', source: story('swarm-story-episode-credit', 'constant λ1', 'counts.spurious'), pending: `${STORY_RUN} --credit episode` },
  storySpuriousCriticAt60Most: { value: 3, digits: 0, what: 'held-out seeds with spurious parallelism after 60 updates with the stage critic, most over the rows', source: story('swarm-story-60', 'constant λ1', 'counts.spurious'), pending: `${STORY_RUN} --updates 60` },
  storySpuriousGaeTuningSeeds: { value: 3, digits: 0, what: 'tuning seeds with spurious parallelism under GAE λ 0.8', source: story('swarm-story-gae', 'annealed', 'counts.spurious', TUNING), pending: 'npm run bench -- swarm-story --split tuning --gae-lambda 0.8' },

  // From the packer's demonstrations, 40 subtasks.
  demoLaunchTargetSeeds: { value: 8, digits: 0, what: 'held-out seeds at the target, each seed’s median over five runs, launch credit', source: story('swarm-story-demo-launch', 'demo start (packer) (median of 5 runs)', 'counts.target'), pending: DEMO_RUN },
  demoLaunchRPerf: { value: 0.914, digits: 3, what: 'median r_perf over the seeds of the five-run medians, launch credit', source: story('swarm-story-demo-launch', 'demo start (packer) (median of 5 runs)', 'medians.rPerf'), pending: DEMO_RUN },
  demoLaunchRun0TargetSeeds: { value: 7, digits: 0, what: 'held-out seeds at the target, run 0 alone', source: story('swarm-story-demo-launch', 'demo start (packer) (run 0)', 'counts.target'), pending: DEMO_RUN },
  demoLaunchRun2TargetSeeds: { value: 8, digits: 0, what: 'held-out seeds at the target, run 2 alone', source: story('swarm-story-demo-launch', 'demo start (packer) (run 2)', 'counts.target'), pending: DEMO_RUN },
  demoCreatorWithLambda1Lowest: { value: 0.88, digits: 2, what: 'r_perf of the demonstration rows with λ1 (creators’ shares), lowest', source: story('swarm-story-demo', 'constant λ1', 'medians.rPerf'), pending: "npm run bench -- swarm-story --split heldout --demos packer --json bench/results/swarm-story-demo.json" },
  demoCreatorWithLambda1Highest: { value: 0.89, digits: 2, what: 'the same, highest', source: story('swarm-story-demo', 'annealed', 'medians.rPerf'), pending: "npm run bench -- swarm-story --split heldout --demos packer --json bench/results/swarm-story-demo.json" },
  demoWithoutLambda1RPerf: { value: 0.91, digits: 2, what: 'r_perf of the demonstration rows without λ1', source: story('swarm-story-demo', 'no shaping', 'medians.rPerf'), pending: "npm run bench -- swarm-story --split heldout --demos packer --json bench/results/swarm-story-demo.json" },
  demoConstantLambda1Subagents: { value: 35, digits: 0, what: 'subagents at the end with λ1 constant, from the demonstrations', source: story('swarm-story-demo', 'constant λ1', 'medians.subagents'), pending: "npm run bench -- swarm-story --split heldout --demos packer --json bench/results/swarm-story-demo.json" },
  demoConstantLambda1Assigned: { value: 36, digits: 0, what: 'subtasks assigned then', source: story('swarm-story-demo', 'constant λ1', 'medians.assigned'), pending: "npm run bench -- swarm-story --split heldout --demos packer --json bench/results/swarm-story-demo.json" },
  demoNoShapingRunTargetSeedsFewest: { value: 5, digits: 0, what: 'held-out seeds at the target without shaping, single runs, fewest', source: story('swarm-story-demo-launch-unshaped', 'demo start (packer) (run 2)', 'counts.target'), pending: DEMO_RUN },
  demoNoShapingRunTargetSeedsMost: { value: 6, digits: 0, what: 'the same, most', source: story('swarm-story-demo-launch-unshaped', 'demo start (packer) (run 0)', 'counts.target'), pending: DEMO_RUN },
  linkSeed1SubtasksPerSubagentStart: { value: 1.75, digits: 2, what: 'subtasks per subagent at the start, the constant-λ1 link, seed 1', source: story('swarm-link-constant-lambda1', 'seed 1', 'medians.subtasksPerSubagentStart', TUNING), pending: TRACE_RUN },
  linkSeed1SubtasksPerSubagentEnd: { value: 1.0, digits: 1, what: 'the same after 30 updates', source: story('swarm-link-constant-lambda1', 'seed 1', 'medians.subtasksPerSubagentEnd', TUNING), pending: TRACE_RUN },
  linkSeed1Updates: { value: 30, digits: 0, what: 'updates it takes', source: story('swarm-link-constant-lambda1', 'seed 1', 'medians.updates', TUNING), pending: TRACE_RUN },
  linkSeed1RPerfEnd: { value: 0.84, digits: 2, what: 'r_perf then (from 0.91)', source: story('swarm-link-constant-lambda1', 'seed 1', 'medians.rPerfEnd', TUNING), pending: TRACE_RUN },

  // 100 subtasks.
  scaleSecondsFor60Updates: { value: 87, digits: 0, what: 'seconds the scale preset’s 60 updates take in the page', source: { file: 'ui', split: 'wasm', row: 'swarm-scale (60 updates)', measure: 'medians.seconds' }, pending: 'npm run bench -- ui (its swarm-scale row)' },
  scaleBestRPerf: { value: 0.869, digits: 3, what: 'best r_perf of an update of the scale preset in the page', source: { file: 'ui', split: 'wasm', row: 'swarm-scale (60 updates)', measure: 'medians.bestRPerf' }, pending: 'npm run bench -- ui (its swarm-scale row)' },
  scaleLaunchTargetSeeds: { value: 7, digits: 0, what: 'held-out seeds at the target at 100 subtasks, from the demonstrations with the launch credit', source: story('swarm-story-scale-launch', 'demo start (packer)', 'counts.target'), pending: SCALE_RUN },
  scaleLaunchRPerf: { value: 0.92, digits: 3, what: 'median r_perf then', source: story('swarm-story-scale-launch', 'demo start (packer)', 'medians.rPerf'), pending: SCALE_RUN },
  scaleCreatorTargetSeeds: { value: 4, digits: 0, what: 'the same with the creators’ shares', source: story('swarm-story-scale-creator', 'demo start (packer)', 'counts.target'), pending: SCALE_RUN },
  scaleCreatorSubagentsStart: { value: 50, digits: 0, what: 'subagents per episode at the start with the creators’ shares (about)', source: story('swarm-story-scale-creator', 'demo start (packer)', 'medians.subagentsStart'), pending: SCALE_RUN },
  scaleCreatorSubagentsMost: { value: 116, digits: 0, what: 'the most while λ1 lasts', source: story('swarm-story-scale-creator', 'demo start (packer)', 'medians.subagentsMost'), pending: SCALE_RUN },

  // Harder levels, a learned row against the best scripted one (seeds 1-5).
  levelContextLearnedRPerf: { value: 0.841, digits: 3, what: 'learned row, context 0.6', source: story('swarm-story-context-0.6', 'demo start (packer)', 'medians.rPerf', TUNING, 'context 0.6'), pending: LEVEL_RUN },
  levelContextPackerRPerf: { value: 0.857, digits: 3, what: 'the packer there', source: story('swarm-story-context-0.6', `baseline: ${PACKER}`, 'medians.rPerf', TUNING, 'context 0.6'), pending: LEVEL_RUN },
  levelChainsLearnedRPerf: { value: 0.861, digits: 3, what: 'learned row, chains', source: story('swarm-story-chains', 'demo start (packer)', 'medians.rPerf', TUNING, CHAINS), pending: LEVEL_RUN },
  levelChainsPlannerRPerf: { value: 0.889, digits: 3, what: 'the planner there', source: story('swarm-story-chains', 'baseline: planner (smarter hand policy)', 'medians.rPerf', TUNING, CHAINS), pending: LEVEL_RUN },
} as const satisfies Record<string, SwarmFigure>;

export type SwarmFigureName = keyof typeof SWARM_FIGURES;

/** A figure as the texts write it: its value at its digits (1,500 for a figure rounded to the hundred). */
export function stated(f: Pick<SwarmFigure, 'value' | 'digits'>): string {
  return f.digits >= 0 ? f.value.toFixed(f.digits) : f.value.toLocaleString('en-US');
}
