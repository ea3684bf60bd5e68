/**
 * Agent swarm benchmarks (Kimi K2.5's PARL) on the decomposition task, from the CLI's own training
 * runs (bench/swarmStory.ts holds both):
 * - swarm-story: the ablation rows and the scripted baselines on held-out seeds.
 * - swarm-scale: a learned set-policy orchestrator on 100-subtask tasks (up to 100 subagents per
 *   stage): wall time per update and forward calls per tick.
 */
import type { Benchmark } from './types';
import { runSwarmScale, runSwarmStory, SCALE_FLAGS, STORY_FLAGS, STORY_SEEDS } from './swarmStory';

export const swarmStoryBenchmark: Benchmark = {
  name: 'swarm-story',
  description: 'the swarm presets trained as the page trains them (annealed, no shaping, λ1 only, λ2 only, constant λ1) and scripted baselines with the task’s floor on the decomposition task, held-out seeds 6-15 (--split tuning|heldout|both, --updates, --rows, --eval)',
  help: { seeds: STORY_SEEDS, flags: [...STORY_FLAGS] },
  run: runSwarmStory,
};

export const swarmScaleBenchmark: Benchmark = {
  name: 'swarm-scale',
  description: 'swarm: a learned set-policy orchestrator on 100-subtask tasks (up to 100 subagents per stage): wall time per update, forward calls per tick (--updates)',
  help: { seeds: null, flags: [...SCALE_FLAGS] },
  run: runSwarmScale,
};
