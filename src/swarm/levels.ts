/**
 * How much room the decomposition task leaves above its scripted orchestrators, level by level.
 *
 * The issue asks a learned orchestrator to beat the best scripted one by 10 %. Two figures say
 * whether a level leaves that much room at all:
 * - the per-episode best: on every task, the r_perf of whichever scripted orchestrator did best on
 *   it (an oracle that knows in advance which rule suits the task: what perfect adaptivity among the
 *   scripted behaviours would earn);
 * - the context ceiling: F1 if every claim were right and the context held the most subtasks it can
 *   (the smallest first, packed into the fewest subagents the step cap allows: each unit of work
 *   takes at least think + 1 ≥ 2 steps after `setupSteps`; the orchestrator's own work costs one unit
 *   of context per step, more than that). It ignores the critical budget and every failure, so it is
 *   loose: no policy does better.
 * Each level changes one or two rules of the default task (swarm-baselines --levels adds a 'mixed'
 * row that pools every level's tasks).
 */
import { DecompositionSim, type DecompositionOptions, type DecompositionOutcome } from '../envs/swarm/decomposition';
import { DecompositionError, generateDecomposition, type DecompositionConfig, type DecompositionTask } from '../envs/swarm/decompositionTask';
import { skillTable } from '../envs/swarm/decompositionSkills';
import { drawTaskSkills, LATENT_KINDS } from '../envs/swarm/skillPrior';
import { deriveSeed } from '../core/rng';
import type { Baseline } from './baselines';

export interface TaskLevel {
  name: string;
  /** Changes to the task generator. */
  task?: Omit<DecompositionConfig, 'numSubtasks'>;
  /** Changes to the rules (the skills stay the task's). */
  rules?: Omit<DecompositionOptions, 'skills'>;
  /** Each task draws its own skill table from the prior and hides it (src/envs/swarm/skillPrior.ts). */
  latentSkills?: boolean;
}

export const TASK_LEVELS: readonly TaskLevel[] = [
  { name: 'default' },
  { name: 'budget 0.15 × serial', rules: { budgetFraction: 0.15 } },
  { name: 'budget 0.12 × serial', rules: { budgetFraction: 0.12 } },
  { name: 'context 0.6', rules: { contextFraction: 0.6 } },
  { name: 'tool latency 4', rules: { limits: { toolLatencyMean: 4 } } },
  { name: 'tool latency 4, budget 0.15', rules: { budgetFraction: 0.15, limits: { toolLatencyMean: 4 } } },
  { name: 'chains: 60 %, up to 5 links', task: { chainFraction: 0.6, maxChainLength: 5 } },
  { name: 'latent skills', latentSkills: true },
];

/** A fresh simulation of `task` under the level's rules. */
export function levelSim(level: TaskLevel, task: DecompositionTask): DecompositionSim {
  if (!level.latentSkills) return new DecompositionSim(task, level.rules);
  return new DecompositionSim(task, { ...level.rules, skills: skillTable(drawTaskSkills(task.seed, LATENT_KINDS)), subagentKinds: LATENT_KINDS, skillsHidden: true });
}

/** The level named `name`; throws naming the levels when there is none. */
export function taskLevel(name: string): TaskLevel {
  const level = TASK_LEVELS.find((l) => l.name === name);
  if (!level) throw new Error(`no task level named ${JSON.stringify(name)} (levels: ${TASK_LEVELS.map((l) => l.name).join('; ')})`);
  return level;
}

/** The loose F1 ceiling of a task (see the file comment). */
export function contextCeiling(sim: DecompositionSim): number {
  const l = sim.limits;
  const n = sim.numSubtasks;
  const sizes = sim.task.subtasks.map((t) => t.size).sort((a, b) => a - b);
  const unitsPerSubagent = Math.max(1, Math.floor((l.subagentStepCap - l.setupSteps) / 2));
  let fit = 0;
  let units = 0;
  for (let c = 1; c <= n; c++) {
    units += sizes[c - 1];
    const context = l.contextPerResultUnit * units + l.resultOverhead * Math.ceil(units / unitsPerSubagent);
    if (context > l.contextBudget) break;
    fit = c;
  }
  return (2 * fit) / (fit + n);
}

export interface LevelEpisode {
  level: string;
  /** r_perf of each scripted orchestrator, by name. */
  rPerf: Record<string, number>;
  criticalOverSerial: Record<string, number>;
  perEpisodeBest: number;
  ceiling: number;
}

/**
 * The `k`-th task of `seed` at `level`, played by every baseline (each on a fresh simulation of the
 * same task); null when the level's rules make the task impossible (a budget below its lower bound).
 */
export function playLevel(level: TaskLevel, numSubtasks: number, seed: number, k: number, baselines: ReadonlyArray<{ name: string; run: Baseline }>): LevelEpisode | null {
  const task = generateDecomposition({ numSubtasks, ...level.task }, deriveSeed(seed, 0x1e7e1, k));
  let ceiling: number;
  try {
    ceiling = contextCeiling(levelSim(level, task));
  } catch (e) {
    if (e instanceof DecompositionError) return null;
    throw e;
  }
  const rPerf: Record<string, number> = {};
  const criticalOverSerial: Record<string, number> = {};
  let best = 0;
  for (const b of baselines) {
    const o: DecompositionOutcome = b.run(levelSim(level, task));
    rPerf[b.name] = o.rPerf;
    criticalOverSerial[b.name] = o.criticalSteps / o.serialBaseline;
    best = Math.max(best, o.rPerf);
  }
  return { level: level.name, rPerf, criticalOverSerial, perEpisodeBest: best, ceiling };
}
