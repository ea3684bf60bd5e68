/**
 * What a task score (r_perf) means on the swarm presets' task: drawn beside the reward chart so that
 * a curve can be read against working alone and the best scripted orchestrator. Both come from
 * swarm-story's held-out tasks (src/config/swarmStoryFigures.ts, BENCHMARKS.md "swarm-story").
 */
import { resolveExperiment } from './config';
import { descriptorOf } from './registry';
import type { ExperimentSettings } from './settings';
import { SWARM_FIGURES } from './swarmStoryFigures';

/** What a task score (r_perf) means on the swarm presets' task: working alone's and the best scripted orchestrator's. */
export interface SwarmScoreScale {
  /** The orchestrator working alone (r_perf of the serial orchestrator on the same tasks). */
  alone: number;
  /** The scripted adaptive packer, which routes by what its checks showed. */
  packer: number;
}

/** The settings that make the task (not the learning): the scale holds only where they are the story's. */
const SWARM_TASK_KEYS = ['swarm.subtasks', 'swarm.chainFraction', 'swarm.maxChainLength', 'swarm.skills', 'swarm.budgetFraction', 'swarm.contextFraction', 'swarm.subagentStepCap', 'swarm.maxDecisions'] as const;

/** One object, so that a store selector returning it stays the same between renders. */
const STORY_SCALE: SwarmScoreScale = Object.freeze({ alone: SWARM_FIGURES.storySerialRPerf.value, packer: SWARM_FIGURES.storyAdaptivePackerRPerf.value });

/** The story presets' settings, resolved on first use (the registry is complete by then). */
let storySettings: ExperimentSettings | undefined;

/**
 * The scale measured by swarm-story on its held-out tasks (src/config/swarmStoryFigures.ts), for a run
 * whose task is that of the story's presets; null for any other task (another size or budget, the
 * skill table known) and for other families, where those figures would not hold.
 */
export function swarmScoreScaleOf(settings: ExperimentSettings): SwarmScoreScale | null {
  if (descriptorOf(settings.algorithm).family !== 'swarm') return null;
  const story = (storySettings ??= resolveExperiment('swarm-annealed').settings);
  if (SWARM_TASK_KEYS.some((key) => settings[key] !== story[key])) return null;
  return STORY_SCALE;
}
