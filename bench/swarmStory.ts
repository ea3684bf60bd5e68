/**
 * The swarm's benchmarks (algorithm swarm, decomposition task):
 *
 * - swarm-story: rows = annealed, no shaping, λ1 only, λ2 only, constant λ1, each the preset of that
 *   name trained as the page trains it (its settings through the swarm loop's own mapping,
 *   swarmOptionsFrom). Each row trains one set policy per seed with the SAME learner as the swarm
 *   loop (SwarmLearner; actors in this thread, central inference, PPO), then plays --eval fixed
 *   evaluation tasks of that seed; the scripted baselines play the same tasks, and a last row gives
 *   their expected-steps floor (expectedChainFloor: what no policy that claims every subtask goes
 *   below on average). Seeds 1-5 and held-out seeds are reported in separate tables. Per seed:
 *   medians over its evaluation tasks; per row: medians over seeds. The evaluation plays the policy
 *   as PPO trains it (sampled actions, from the learner's seeded inference stream), since an argmax
 *   pointer keeps picking the same subtask (see swarmRollouts.ts).
 *     serial collapse       the median evaluation episode creates no subagent
 *     finish < 0.8          the median evaluation episode's finish rate (completed ÷ assigned) < 0.8:
 *                           a fifth of the work handed out came to nothing (timeout, lost context, cut)
 *     r_perf ≥ 0.9          median r_perf ≥ 0.9 and median critical ≤ serial / 3 (the target)
 *   Under the table, the story's verdict (swarmStoryVerdict.ts) when its three rows ran.
 * - swarm-scale: a learned orchestrator on 100-subtask tasks (sizes 1-10, serial baseline about
 *   1,700 steps; up to 100 subagents per stage): wall time per update, forward calls per tick, total
 *   compute per episode, and per update the medians over its episodes of r_perf, critical ÷ serial
 *   and finish rate (seedFigures, as swarm-story computes them). Its configuration (hidden 16, sizes
 *   1-10, the skill table known, anneal over --updates ÷ 2) is not the swarm-scale preset's: the
 *   table's intro prints both.
 *
 * swarm-story's flags change every row alike (defaults: each preset's own): --updates U (λ1 and λ2
 * then anneal over the same share of them), --rows a,b, --split tuning|heldout|both (default
 * heldout), --seeds LIST, --eval N (default 5), --level NAME, --subtasks N, --lr X,
 * --episodes-per-actor E, --gae-lambda X, --vf-coef X, --update-epochs N, --hidden N, --ent-coef X,
 * --run K / --runs R, --greedy true, --detail true; --log-updates N prints the training metrics
 * (r_perf, value explained variance, KL, entropy) every N updates to stderr.
 */
import { chooseBackend } from '../src/core/backend';
import { deriveSeed } from '../src/core/rng';
import { resolveExperiment } from '../src/config/config';
import type { DecompositionSim } from '../src/envs/swarm/decomposition';
import { expectedChainFloor } from '../src/envs/swarm/decompositionFeatures';
import { DEFAULT_SKILL_TABLE } from '../src/envs/swarm/decompositionSkills';
import { resolveDecompositionConfig } from '../src/envs/swarm/decompositionTask';
import { swarmOptionsFrom } from '../src/engine/loops/swarm';
import { makeSwarmSim, type SwarmEpisodeOutcome, type SwarmTaskSpec } from '../src/swarm/swarmActor';
import { SwarmLearner, validateCreditOptions, type SwarmTrainingOptions, type SwarmUpdateResult } from '../src/swarm/swarmLearner';
import { BASELINES } from '../src/swarm/baselines';
import { TASK_LEVELS, taskLevel } from '../src/swarm/levels';
import { markdownTable, median, type BenchArgs, type BenchFlag, type BenchResult } from './types';
import { mergeBenchResults, parseBenchResult, rowsFromSeedFigures, type BenchRow } from './results';
import { formatStoryVerdict, storyVerdict } from './swarmStoryVerdict';
import { readFileSync } from 'node:fs';

const TUNING = [1, 2, 3, 4, 5];
/** The table's row of expectedChainFloor (decompositionFeatures.ts). */
export const FLOOR_ROW = 'floor: every subtask once, its cheapest way (expected steps)';

/** Medians over `sims` of the floor and of the floor ÷ the serial baseline (not a policy: see FLOOR_ROW). */
export function floorFigures(sims: readonly DecompositionSim[]): { critical: number; criticalOverSerial: number } {
  const floors = sims.map(expectedChainFloor);
  return { critical: median(floors), criticalOverSerial: median(floors.map((f, i) => f / sims[i].serialBaseline)) };
}
const HELDOUT = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

export function storySpec(numSubtasks: number): SwarmTaskSpec {
  return { task: { numSubtasks }, rules: {}, skills: DEFAULT_SKILL_TABLE, maxDecisions: 4 * numSubtasks + 40, episodesPerTask: 4 };
}

/** The annealed row's training options for swarm-scale (hidden 16, 2 actors x 4 episodes; not a preset's). */
export function annealedOptions(seed: number, updates: number, spec: SwarmTaskSpec): SwarmTrainingOptions {
  const H = Math.max(1, Math.round(updates / 2));
  return {
    spec,
    seed,
    hidden: 16,
    lr: 3e-3,
    entCoef: 0.01,
    updateEpochs: 2,
    numMinibatches: 2,
    updates,
    actors: 2,
    episodesPerActor: 4,
    lambda1: { kind: 'linear', start: 0.3, horizon: H },
    lambda2: { kind: 'linear', start: 0.3, horizon: H },
    parallelCap: 16,
  };
}

/** A row of the story: a preset, trained as the page trains it (its settings, through the loop's own mapping). */
export interface StoryRow {
  name: string;
  preset: string;
}

export const STORY_ROWS: readonly StoryRow[] = [
  { name: 'annealed', preset: 'swarm-annealed' },
  { name: 'no shaping', preset: 'swarm-no-shaping' },
  { name: 'λ1 only', preset: 'swarm-lambda1-only' },
  { name: 'λ2 only', preset: 'swarm-lambda2-only' },
  { name: 'constant λ1', preset: 'swarm-constant-lambda1' },
];

/** A row's training options for a training seed: the preset's settings, as the swarm loop maps them. */
export function storyRowOptions(row: StoryRow, seed: number): SwarmTrainingOptions {
  // The seed only seeds (a run K > 0 derives one past the page's seed range).
  return { ...swarmOptionsFrom(resolveExperiment(row.preset).settings), seed };
}

/** Evaluation task seeds of a seed (never drawn in training: a different stream). */
export function evalTaskSeeds(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => deriveSeed(seed, 0xe7a1, i));
}

interface SeedFigures {
  seed: number;
  rPerf: number;
  critical: number;
  criticalOverSerial: number;
  totalCompute: number;
  subagents: number;
  finishRate: number;
  serialCollapse: boolean;
  spurious: boolean;
  target: boolean;
  trainSeconds: number;
  /** Where r_perf goes (medians over the seed's episodes): F1's two parts, claims submitted, work handed out, checks, context used ÷ budget. */
  precision: number;
  recall: number;
  submitted: number;
  assigned: number;
  checks: number;
  contextUsed: number;
}

type OutcomeFields = 'rPerf' | 'precision' | 'recall' | 'submitted' | 'criticalSteps' | 'serialBaseline' | 'totalCompute' | 'nSubagents' | 'nAssigned' | 'nCompleted' | 'nChecks' | 'contextUsed' | 'contextBudget';

/** The story's judgements of a seed's figures: serial collapse, spurious parallelism, and the target (r_perf ≥ 0.9 at ≤ 1/3 serial). */
function judged(f: Pick<SeedFigures, 'rPerf' | 'criticalOverSerial' | 'subagents' | 'finishRate'>): Pick<SeedFigures, 'serialCollapse' | 'spurious' | 'target'> {
  return { serialCollapse: f.subagents === 0, spurious: f.subagents > 0 && f.finishRate < 0.8, target: f.rPerf >= 0.9 && f.criticalOverSerial <= 1 / 3 };
}

export function seedFigures(seed: number, outcomes: readonly Pick<SwarmEpisodeOutcome, OutcomeFields>[], trainSeconds: number): SeedFigures {
  const rPerf = median(outcomes.map((o) => o.rPerf));
  const cos = median(outcomes.map((o) => o.criticalSteps / o.serialBaseline));
  const subagents = median(outcomes.map((o) => o.nSubagents));
  const finishRate = median(outcomes.map((o) => (o.nAssigned > 0 ? o.nCompleted / o.nAssigned : 1)));
  return {
    seed,
    rPerf,
    critical: median(outcomes.map((o) => o.criticalSteps)),
    criticalOverSerial: cos,
    totalCompute: median(outcomes.map((o) => o.totalCompute)),
    subagents,
    finishRate,
    ...judged({ rPerf, criticalOverSerial: cos, subagents, finishRate }),
    trainSeconds,
    precision: median(outcomes.map((o) => o.precision)),
    recall: median(outcomes.map((o) => o.recall)),
    submitted: median(outcomes.map((o) => o.submitted)),
    assigned: median(outcomes.map((o) => o.nAssigned)),
    checks: median(outcomes.map((o) => o.nChecks)),
    contextUsed: median(outcomes.map((o) => o.contextUsed / o.contextBudget)),
  };
}

/**
 * Each seed's median over several training runs (the runs' figures for the same seeds, in the same
 * order); the flags (target, serial collapse, spurious parallelism) are judged on the medians.
 */
export function medianOverRuns(runs: readonly SeedFigures[][]): SeedFigures[] {
  return runs[0].map((first, i) => {
    const m = (f: (x: SeedFigures) => number) => median(runs.map((r) => f(r[i])));
    const rPerf = m((x) => x.rPerf);
    const criticalOverSerial = m((x) => x.criticalOverSerial);
    const subagents = m((x) => x.subagents);
    const finishRate = m((x) => x.finishRate);
    return {
      seed: first.seed,
      rPerf,
      critical: m((x) => x.critical),
      criticalOverSerial,
      totalCompute: m((x) => x.totalCompute),
      subagents,
      finishRate,
      ...judged({ rPerf, criticalOverSerial, subagents, finishRate }),
      trainSeconds: m((x) => x.trainSeconds),
      precision: m((x) => x.precision),
      recall: m((x) => x.recall),
      submitted: m((x) => x.submitted),
      assigned: m((x) => x.assigned),
      checks: m((x) => x.checks),
      contextUsed: m((x) => x.contextUsed),
    };
  });
}

/** swarm-story's flags for the swarm (its --help). */
export const STORY_FLAGS: readonly BenchFlag[] = [
  { name: 'updates', value: 'N', text: "training updates per seed, every row (default the preset's; λ1 and λ2 then anneal over the same share of them)" },
  { name: 'rows', value: 'a,b', text: `the rows to train, by name: ${STORY_ROWS.map((r) => r.name).join(', ')} (default all; none: only the scripted baselines and the floor)` },
  { name: 'split', value: 'tuning|heldout|both', text: 'seeds 1-5 (where rules and hyperparameters were chosen), held-out seeds 6-15, or both (default heldout)' },
  { name: 'eval', value: 'N', text: 'evaluation tasks per seed (default 5)' },
  { name: 'subtasks', value: 'N', text: "subtasks per task (default the preset's)" },
  { name: 'level', value: 'NAME', text: `a harder level of the task, every row and baseline: ${TASK_LEVELS.map((l) => JSON.stringify(l.name)).join(', ')} (default "default"; swarm-baselines --levels true compares them)` },
  { name: 'lr', value: 'X', text: "the set policy's learning rate, every row (default the preset's)" },
  { name: 'episodes-per-actor', value: 'E', text: "episodes per actor and update, every row (default the preset's)" },
  { name: 'gae-lambda', value: 'X', text: 'GAE λ over an episode\'s decisions, in [0, 1], every row (default 1: Monte Carlo returns)' },
  { name: 'vf-coef', value: 'X', text: "PPO's value-loss weight, a positive number, every row (default PPO's)" },
  { name: 'update-epochs', value: 'N', text: 'PPO epochs per update, a positive integer, every row (default 2)' },
  { name: 'hidden', value: 'N', text: "the set policy's width (encoder, pointer and value heads), a positive integer, every row (default the preset's)" },
  { name: 'ent-coef', value: 'X', text: "PPO's entropy weight, a number >= 0, every row (default 0.01)" },
  { name: 'run', value: 'K', text: 'another training run of each seed (K >= 1): its training seed derives from (seed, K), the evaluation tasks stay the seed\'s (default 0: the seed itself)' },
  { name: 'runs', value: 'R', text: "train each learned row R times per seed (runs 0..R-1, as --run K): a row per run, and '<row> (median of R runs)' with each seed's median over its runs (the target judged on those medians)" },
  { name: 'greedy', value: 'true', text: "also judge each learned row's trained policy with its greedy version (the likeliest action type, then the likeliest action of that type), as the row '<row> (greedy)'; the sampled row, what PPO trains, is unchanged" },
  { name: 'detail', value: 'true', text: 'also print where r_perf goes: precision, recall, claims submitted, subtasks assigned, subagents, checks and context used per row' },
  { name: 'log-updates', value: 'N', text: 'print r_perf, value explained variance, KL and entropy every N updates to stderr' },
  { name: 'from', value: 'a.json,b.json', text: "train nothing: read swarm-story results written with --json (several over disjoint seeds are read as one) and print the story's verdict on each split" },
];

/** swarm-story's --seeds with the swarm: exactly the seeds to run, any positive seeds. */
export const STORY_SEEDS = 'runs exactly these seeds, any positive integers (default: the --split, held-out 6-15); with --split, every seed must belong to it';

/**
 * The seeds swarm-story runs, grouped as the table names them. `--seeds` alone runs exactly those seeds, so anyone can
 * check the table on seeds of their own; with `--split` as well, each seed must lie in that split (a check, not a filter).
 */
export function storySplits(splitFlag: string | undefined, seedsFlag: string | undefined): { name: string; seeds: number[] }[] {
  const split = splitFlag ?? 'heldout';
  if (!['tuning', 'heldout', 'both'].includes(split)) throw new Error(`swarm-story: --split must be tuning, heldout or both, got ${split}`);
  const named = [
    ...(split !== 'heldout' ? [{ name: 'seeds 1-5', seeds: TUNING }] : []),
    ...(split !== 'tuning' ? [{ name: 'held-out 6-15', seeds: HELDOUT }] : []),
  ];
  if (seedsFlag === undefined) return named;
  const seeds = seedsFlag.split(',').map((x) => Number(x.trim()));
  if (!seeds.length || seeds.some((x) => !Number.isInteger(x) || x < 1)) throw new Error(`swarm-story: --seeds must be positive integers, got ${seedsFlag}`);
  if (splitFlag === undefined) return [{ name: `seeds ${seeds.join(',')}`, seeds }];
  const outside = seeds.filter((x) => !named.some((s) => s.seeds.includes(x)));
  if (outside.length) throw new Error(`swarm-story: seed ${outside.join(', ')} is not in --split ${split}; leave out --split to run any seeds`);
  return named.map((s) => ({ ...s, seeds: s.seeds.filter((x) => seeds.includes(x)) })).filter((s) => s.seeds.length > 0);
}

/** swarm-scale's flags for the swarm. */
export const SCALE_FLAGS: readonly BenchFlag[] = [
  { name: 'updates', value: 'N', text: 'updates to train, one row each (default 3)' },
];


/** A true/false flag, false when absent. */
function boolFlag(flags: Record<string, string>, name: string): boolean {
  const raw = flags[name];
  if (raw !== undefined && raw !== 'true' && raw !== 'false') throw new Error(`swarm-story: --${name} must be true or false, got ${raw}`);
  return raw === 'true';
}

/** A numeric flag, null when absent; throws with `what` when present and not accepted. */
function numberFlag(flags: Record<string, string>, name: string, ok: (x: number) => boolean, what: string): number | null {
  const raw = flags[name];
  if (raw === undefined) return null;
  const x = Number(raw);
  if (raw.trim() === '' || !ok(x)) throw new Error(`--${name} must be ${what}, got ${raw}`);
  return x;
}

function logUpdate(label: string, r: SwarmUpdateResult, every: number): void {
  if ((r.update + 1) % every !== 0) return;
  const m = r.metrics;
  const f = (x: number | undefined, d: number) => (x === undefined ? '-' : x.toFixed(d));
  process.stderr.write(`    ${label} update ${r.update + 1}: r_perf ${f(m.rPerf, 3)}, value explained variance ${f(m.explainedVariance, 3)}, value loss ${f(m.valueLoss, 4)}, KL ${f(m.approxKl, 4)}, entropy ${f(m.entropy, 2)}, decisions ${f(m.decisions, 0)}, ${r.seconds.toFixed(1)} s\n`);
}

/** A learned row's figures for one seed: sampled actions, and with `greedy` the same policy played greedily. */
interface TrainedFigures {
  sampled: SeedFigures;
  greedy: SeedFigures | null;
}

async function trainAndEvaluate(o: SwarmTrainingOptions, evalSeeds: number[], onUpdate: ((r: SwarmUpdateResult) => void) | null = null, greedy = false): Promise<TrainedFigures> {
  const t0 = performance.now();
  const learner = SwarmLearner.create(o);
  try {
    for (let u = 0; u < o.updates; u++) {
      const r = await learner.update();
      onUpdate?.(r);
    }
    const secs = (performance.now() - t0) / 1000;
    // Sampled first, so its figures do not depend on whether the greedy ones are asked for.
    const sampled = seedFigures(o.seed, await learner.evaluate(evalSeeds, 'sample'), secs);
    return { sampled, greedy: greedy ? seedFigures(o.seed, await learner.evaluate(evalSeeds, 'typeArgmax'), secs) : null };
  } finally {
    learner.dispose();
  }
}

function rowLine(split: string, name: string, per: SeedFigures[]): (string | number)[] {
  const n = per.length;
  return [
    split,
    name,
    median(per.map((p) => p.rPerf)).toFixed(3),
    median(per.map((p) => p.critical)).toFixed(0),
    median(per.map((p) => p.criticalOverSerial)).toFixed(3),
    median(per.map((p) => p.totalCompute)).toFixed(0),
    median(per.map((p) => p.subagents)).toFixed(0),
    median(per.map((p) => p.finishRate)).toFixed(2),
    `${per.filter((p) => p.serialCollapse).length}/${n}`,
    `${per.filter((p) => p.spurious).length}/${n}`,
    `${per.filter((p) => p.target).length}/${n}`,
    per.some((p) => p.trainSeconds > 0) ? median(per.map((p) => p.trainSeconds)).toFixed(0) : '-',
  ];
}

function detailLine(split: string, name: string, per: SeedFigures[]): (string | number)[] {
  const m = (f: (p: SeedFigures) => number, digits: number) => median(per.map(f)).toFixed(digits);
  return [split, name, m((p) => p.rPerf, 3), m((p) => p.precision, 2), m((p) => p.recall, 2), m((p) => p.submitted, 0), m((p) => p.assigned, 0), m((p) => p.subagents, 0), m((p) => p.checks, 0), m((p) => p.contextUsed, 2), m((p) => p.criticalOverSerial, 3)];
}

/** --from: the verdict of results already written, for each split that has the story's rows. */
function verdictOfFiles(list: string): BenchResult {
  const files = list.split(',').map((f) => f.trim()).filter((f) => f.length > 0);
  if (files.length === 0) throw new Error('swarm-story: --from needs one or more result files written with --json');
  const parts = files.map((f) => {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch (e) {
      throw new Error(`swarm-story: cannot read ${f}: ${(e as Error).message}`, { cause: e });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new Error(`swarm-story: ${f} is not JSON: ${(e as Error).message}`, { cause: e });
    }
    const parsed = parseBenchResult(data, f);
    if (parsed.benchmark !== 'swarm-story') throw new Error(`swarm-story: ${f} is a ${parsed.benchmark} result, not swarm-story's`);
    return parsed;
  });
  // Rows trained in separate processes share the scripted rows, which are the same on the same seeds: kept once.
  const seen = new Map<string, string>();
  const own = parts.map((p, i) => ({
    ...p,
    rows: p.rows.filter((r) => {
      const key = JSON.stringify([r.split, r.row, r.level ?? null, r.seeds]);
      const body = JSON.stringify(r.perSeed);
      const had = seen.get(key);
      if (had === undefined) {
        seen.set(key, body);
        return true;
      }
      if (had !== body) throw new Error(`swarm-story: ${r.row} on seeds ${r.seeds.join(', ')} differs between the files (${files[i]})`);
      return false;
    }),
  }));
  const merged = own.length === 1 ? own[0] : mergeBenchResults(own);
  const splits = [...new Set(merged.rows.map((r) => r.split))];
  const verdicts = splits.map((split) => ({ split, verdict: storyVerdict(merged, split) }));
  return { table: verdicts.map((v) => formatStoryVerdict(v.split, v.verdict)).join('\n\n'), figures: { from: files, verdicts } };
}

/** The story's rows, when all of them ran on the split. */
const VERDICT_ROWS = ['annealed', 'no shaping', 'constant λ1'];

export async function runSwarmStory({ flags }: BenchArgs): Promise<BenchResult> {
  if (flags.from !== undefined) return verdictOfFiles(flags.from);
  await chooseBackend({ preferred: 'wasm' });
  const positiveInt = (x: number) => Number.isInteger(x) && x >= 1;
  const nEval = numberFlag(flags, 'eval', positiveInt, 'a positive integer') ?? 5;
  const numSubtasks = numberFlag(flags, 'subtasks', positiveInt, 'a positive integer');
  // 'none': no policy row, only the scripted baselines and the floor.
  const wanted = flags.rows === 'none' ? [] : flags.rows ? flags.rows.split(',').map((x) => x.trim()) : null;
  const unknownRows = (wanted ?? []).filter((w) => !STORY_ROWS.some((r) => r.name === w));
  if (unknownRows.length) throw new Error(`swarm-story: no row named ${unknownRows.map((w) => JSON.stringify(w)).join(', ')} (rows: ${STORY_ROWS.map((r) => r.name).join(', ')})`);
  const rows = STORY_ROWS.filter((r) => !wanted || wanted.includes(r.name));
  const splits = storySplits(flags.split, flags.seeds);
  const lr = numberFlag(flags, 'lr', (x) => x > 0 && Number.isFinite(x), 'a positive number');
  const level = taskLevel(flags.level ?? 'default');
  const updates = numberFlag(flags, 'updates', positiveInt, 'a positive integer');
  const perActor = numberFlag(flags, 'episodes-per-actor', positiveInt, 'a positive integer');
  const gaeLambda = numberFlag(flags, 'gae-lambda', (x) => x >= 0 && x <= 1, 'a number in [0, 1]');
  const vfCoef = numberFlag(flags, 'vf-coef', (x) => x > 0 && Number.isFinite(x), 'a positive number');
  const updateEpochs = numberFlag(flags, 'update-epochs', (x) => Number.isInteger(x) && x >= 1, 'a positive integer');
  const hidden = numberFlag(flags, 'hidden', (x) => Number.isInteger(x) && x >= 1 && x <= 256, 'an integer in 1..256');
  const entCoef = numberFlag(flags, 'ent-coef', (x) => x >= 0 && Number.isFinite(x), 'a number >= 0');
  const detail = boolFlag(flags, 'detail');
  const greedy = boolFlag(flags, 'greedy');
  const detailRows: (string | number)[][] = [];
  const verdicts: string[] = [];
  const run = numberFlag(flags, 'run', (x) => Number.isInteger(x) && x >= 0, 'an integer >= 0') ?? 0;
  const logEvery = numberFlag(flags, 'log-updates', (x) => Number.isInteger(x) && x >= 1, 'a positive integer');
  // Run K > 0 trains from another seed (tasks, initial weights, sampling) and is judged on the same evaluation tasks.
  const runs = numberFlag(flags, 'runs', (x) => Number.isInteger(x) && x >= 1 && x <= 10, 'an integer in 1..10') ?? 1;
  if (runs > 1 && flags.run !== undefined) throw new Error('swarm-story: give --run K (one run) or --runs R (runs 0..R-1), not both');
  const trainingSeed = (seed: number, k: number) => (k === 0 ? seed : deriveSeed(seed, 0x7a, k));
  /** The task every row and baseline plays: the preset's, with the level's and --subtasks' changes. */
  const withTask = (spec: SwarmTaskSpec): SwarmTaskSpec => ({
    ...spec,
    task: { ...spec.task, ...level.task, ...(numSubtasks === null ? {} : { numSubtasks }) },
    rules: { ...spec.rules, ...level.rules },
    ...(level.latentSkills ? { latentSkills: true } : {}),
  });
  const optionsOf = (row: StoryRow, seed: number, k = run): SwarmTrainingOptions => {
    const o = storyRowOptions(row, trainingSeed(seed, k));
    const horizon = updates === null ? o.lambda1.horizon : Math.max(1, Math.round((updates * o.lambda1.horizon) / o.updates));
    return {
      ...o,
      spec: withTask(o.spec),
      ...(updates === null ? {} : { updates, lambda1: { ...o.lambda1, horizon }, lambda2: { ...o.lambda2, horizon } }),
      ...(lr === null ? {} : { lr }),
      ...(perActor === null ? {} : { episodesPerActor: perActor }),
      ...(gaeLambda === null ? {} : { gaeLambda }),
      ...(vfCoef === null ? {} : { vfCoef }),
      ...(updateEpochs === null ? {} : { updateEpochs }),
      ...(hidden === null ? {} : { hidden }),
      ...(entCoef === null ? {} : { entCoef }),
    };
  };
  const base = optionsOf(STORY_ROWS[0], 0);
  validateCreditOptions(base);
  const spec = base.spec;
  const table: (string | number)[][] = [];
  const dataRows: BenchRow[] = [];
  const figures: Record<string, unknown> = { updates: base.updates, evalTasksPerSeed: nEval, numSubtasks: spec.task.numSubtasks, lr: base.lr, hidden: base.hidden, actors: base.actors, episodesPerActor: base.episodesPerActor, latentSkills: spec.latentSkills === true };
  // Only the flags given are recorded (the records of a run without them stay as they were).
  if (level.name !== 'default') figures.level = level.name;
  if (gaeLambda !== null) figures.gaeLambda = gaeLambda;
  if (vfCoef !== null) figures.vfCoef = vfCoef;
  if (updateEpochs !== null) figures.updateEpochs = updateEpochs;
  if (entCoef !== null) figures.entCoef = entCoef;
  if (run !== 0) figures.run = run;
  if (runs > 1) figures.runs = runs;
  if (greedy) figures.greedy = true;
  for (const split of splits) {
    const perRow: Record<string, SeedFigures[]> = {};
    for (const row of rows) {
      const runIndices = runs > 1 ? Array.from({ length: runs }, (_, k) => k) : [run];
      const sampledRuns: SeedFigures[][] = [];
      const greedyRuns: SeedFigures[][] = [];
      for (const k of runIndices) {
        const per: SeedFigures[] = [];
        const perGreedy: SeedFigures[] = [];
        const label = runs > 1 ? `${row.name} run ${k}` : row.name;
        for (const seed of split.seeds) {
          const trained = await trainAndEvaluate(optionsOf(row, seed, k), evalTaskSeeds(seed, nEval), logEvery === null ? null : (r) => logUpdate(`${split.name} ${label} seed ${seed}`, r, logEvery), greedy);
          // Figures keep the split's seed (with --run K the training seed differs).
          const f = { ...trained.sampled, seed };
          per.push(f);
          if (trained.greedy) perGreedy.push({ ...trained.greedy, seed });
          const g = trained.greedy ? `; greedy r_perf ${trained.greedy.rPerf.toFixed(3)}, critical ÷ serial ${trained.greedy.criticalOverSerial.toFixed(3)}` : '';
          process.stderr.write(`  ${split.name} ${label} seed ${seed}: r_perf ${f.rPerf.toFixed(3)}, critical ÷ serial ${f.criticalOverSerial.toFixed(3)}, subagents ${f.subagents}, finish ${f.finishRate.toFixed(2)}${g} (${f.trainSeconds.toFixed(0)} s)\n`);
        }
        sampledRuns.push(per);
        if (greedy) greedyRuns.push(perGreedy);
      }
      const suffix = (k: number) => (runs > 1 ? ` (run ${k})` : '');
      const named: [string, SeedFigures[]][] = [];
      runIndices.forEach((k, i) => {
        named.push([`${row.name}${suffix(k)}`, sampledRuns[i]]);
        if (greedy) named.push([`${row.name} (greedy)${suffix(k)}`, greedyRuns[i]]);
      });
      if (runs > 1) {
        named.push([`${row.name} (median of ${runs} runs)`, medianOverRuns(sampledRuns)]);
        if (greedy) named.push([`${row.name} (greedy, median of ${runs} runs)`, medianOverRuns(greedyRuns)]);
      }
      for (const [name, figs] of named) {
        perRow[name] = figs;
        table.push(rowLine(split.name, name, figs));
        detailRows.push(detailLine(split.name, name, figs));
      }
    }
    for (const b of BASELINES) {
      const per = split.seeds.map((seed) => seedFigures(seed, evalTaskSeeds(seed, nEval).map((t) => b.run(makeSwarmSim(spec, t))), 0));
      perRow[`baseline: ${b.name}`] = per;
      table.push(rowLine(split.name, `baseline: ${b.name}`, per));
      detailRows.push(detailLine(split.name, `baseline: ${b.name}`, per));
    }
    // Not a policy: how low critical steps can go for one that claims every subtask (per seed, the median over its tasks).
    const floors = split.seeds.map((seed) => floorFigures(evalTaskSeeds(seed, nEval).map((t) => makeSwarmSim(spec, t))));
    figures[`${split.name} floor`] = floors;
    const splitRows = rowsFromSeedFigures(split.name, perRow, level.name);
    dataRows.push(...splitRows);
    if (VERDICT_ROWS.every((r) => r in perRow)) {
      const verdict = storyVerdict({ benchmark: 'swarm-story', rows: splitRows }, split.name);
      figures[`${split.name} verdict`] = verdict;
      verdicts.push(formatStoryVerdict(split.name, verdict));
    }
    table.push([split.name, FLOOR_ROW, '-', median(floors.map((f) => f.critical)).toFixed(0), median(floors.map((f) => f.criticalOverSerial)).toFixed(3), '-', '-', '-', '-', '-', '-', '-']);
    figures[split.name] = perRow;
  }
  return {
    table:
      markdownTable(['seeds', 'row', 'r_perf', 'critical', '÷ serial', 'total compute', 'subagents', 'finish rate', 'serial collapse', 'finish < 0.8', 'r_perf ≥ 0.9', 'train s'], table) +
      (verdicts.length ? `\n\n${verdicts.join('\n\n')}` : '') +
      (detail ? `\n\nWhere r_perf goes (medians per seed over its evaluation tasks, then over seeds):\n\n${markdownTable(['seeds', 'row', 'r_perf', 'precision', 'recall', 'claims submitted', 'subtasks assigned', 'subagents', 'checks', 'context used', '÷ serial'], detailRows)}` : ''),
    figures,
    rows: dataRows,
  };
}

/** What swarm-scale trains: not the swarm-scale preset's settings (see the table's intro). */
export function scaleOptions(updates: number): SwarmTrainingOptions {
  // Sizes up to 10 units: the serial baseline of 100 subtasks is then about 1,700 steps.
  const spec: SwarmTaskSpec = { ...storySpec(100), task: { numSubtasks: 100, maxSize: 10 }, maxDecisions: 500 };
  return { ...annealedOptions(1, updates, spec), actors: 1, episodesPerActor: 4 };
}

/** The figures the intro compares: the CLI's configuration or the swarm-scale preset's. */
export function scaleConfig(o: SwarmTrainingOptions) {
  return {
    hidden: o.hidden,
    subtasks: o.spec.task.numSubtasks,
    maxSize: resolveDecompositionConfig(o.spec.task).maxSize,
    updates: o.updates,
    annealUpdates: o.lambda1.horizon,
    actors: o.actors,
    episodesPerActor: o.episodesPerActor,
    maxDecisions: o.spec.maxDecisions,
  };
}

/** The table's intro: this configuration's values beside the swarm-scale preset's, which it is not. */
export function scaleIntro(cli: ReturnType<typeof scaleConfig>, preset: ReturnType<typeof scaleConfig>): string {
  const same = cli.subtasks === preset.subtasks && cli.actors === preset.actors && cli.episodesPerActor === preset.episodesPerActor && cli.maxDecisions === preset.maxDecisions;
  return (
    "This CLI configuration is not the swarm-scale preset's (what the page trains): " +
    `hidden size ${cli.hidden} (the preset: ${preset.hidden}), subtask sizes 1-${cli.maxSize} (the preset: 1-${preset.maxSize}), ` +
    `λ1 and λ2 annealed to zero over --updates ÷ 2 (rounded, at least 1) = ${cli.annealUpdates} of ${cli.updates} updates (the preset: over ${preset.annealUpdates} of ${preset.updates}). ` +
    `${same ? 'As in the preset: ' : 'Here: '}${cli.subtasks} subtasks, ${cli.actors} actor × ${cli.episodesPerActor} episodes per update, at most ${cli.maxDecisions} decisions per episode. ` +
    "critical ÷ serial and finish rate (completed ÷ assigned, 1 when nothing is assigned) are medians over the update's episodes, as swarm-story computes them."
  );
}

export async function runSwarmScale({ flags }: BenchArgs): Promise<BenchResult> {
  await chooseBackend({ preferred: 'wasm' });
  const updates = numberFlag(flags, 'updates', (x) => Number.isInteger(x) && x >= 1, 'a positive integer') ?? 3;
  const o = scaleOptions(updates);
  const learner = SwarmLearner.create(o);
  const rows: (string | number)[][] = [];
  const per: Array<Record<string, number>> = [];
  try {
    for (let u = 0; u < updates; u++) {
      const r = await learner.update();
      const most = Math.max(0, ...r.outcomes.flatMap((x) => x.launches));
      // The headline figures as swarm-story computes them, over this update's episodes.
      const headline = seedFigures(o.seed, r.outcomes, r.seconds);
      const f = {
        update: u + 1,
        seconds: r.seconds,
        forwardCallsPerTick: r.metrics.forwardCallsPerTick,
        ticks: r.rollouts.ticks,
        decisions: r.rollouts.decisions,
        totalCompute: median(r.outcomes.map((x) => x.totalCompute)),
        serial: median(r.outcomes.map((x) => x.serialBaseline)),
        mostSubagents: most,
        rPerf: median(r.outcomes.map((x) => x.rPerf)),
        criticalOverSerial: headline.criticalOverSerial,
        finishRate: headline.finishRate,
      };
      per.push(f);
      rows.push([f.update, f.seconds.toFixed(1), f.forwardCallsPerTick, f.ticks, f.decisions, f.totalCompute.toFixed(0), f.serial.toFixed(0), f.mostSubagents, f.rPerf.toFixed(3), f.criticalOverSerial.toFixed(3), f.finishRate.toFixed(2)]);
    }
  } finally {
    learner.dispose();
  }
  const table = markdownTable(['update', 'wall s', 'forward calls / tick', 'ticks', 'decisions', 'total compute / episode (median)', 'serial baseline', 'most subagents in a stage', 'r_perf', 'critical ÷ serial (median)', 'finish rate (median)'], rows);
  const cli = scaleConfig(o);
  const preset = scaleConfig(swarmOptionsFrom(resolveExperiment('swarm-scale', {}).settings));
  return {
    table: `${scaleIntro(cli, preset)}\n\n${table}`,
    figures: { updates: per, subtasks: cli.subtasks, episodesPerUpdate: cli.actors * cli.episodesPerActor, config: cli, presetConfig: preset },
  };
}
