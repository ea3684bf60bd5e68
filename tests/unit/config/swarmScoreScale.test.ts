import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { swarmScoreScaleOf } from '../../../src/config/swarmScoreScale';
import { SWARM_FIGURES } from '../../../src/config/swarmStoryFigures';

describe("the swarm's score scale: working alone and the scripted packer beside the task score", () => {
  it("holds on the story presets' task, whatever the reward or the learning, as the committed figures", () => {
    for (const name of ['swarm-annealed', 'swarm-no-shaping', 'swarm-constant-lambda1', 'swarm-lambda1-only', 'swarm-lambda2-only']) {
      expect(swarmScoreScaleOf(resolveExperiment(name).settings), name).toEqual({ alone: SWARM_FIGURES.storySerialRPerf.value, packer: SWARM_FIGURES.storyAdaptivePackerRPerf.value });
    }
    const changedLearning = resolveExperiment('swarm-annealed', { 'swarm.lr': 1e-3, 'swarm.lambda1': 0.9, actors: 1 }).settings;
    expect(swarmScoreScaleOf(changedLearning)).not.toBeNull();
    // The same object each time: a store selector returning it does not re-render the chart.
    expect(swarmScoreScaleOf(changedLearning)).toBe(swarmScoreScaleOf(resolveExperiment('swarm-annealed').settings));
  });

  it('is absent on another task (size, budget, known skills), where those figures were not measured, and outside the swarm', () => {
    expect(swarmScoreScaleOf(resolveExperiment('swarm-scale').settings)).toBeNull();
    expect(swarmScoreScaleOf(resolveExperiment('swarm-annealed', { 'swarm.budgetFraction': 0.5 }).settings)).toBeNull();
    expect(swarmScoreScaleOf(resolveExperiment('swarm-annealed', { 'swarm.skills': 'table' }).settings)).toBeNull();
    expect(swarmScoreScaleOf(resolveExperiment('swarm-annealed', { 'swarm.subtasks': 39 }).settings)).toBeNull();
    expect(swarmScoreScaleOf(resolveExperiment('quickstart').settings)).toBeNull();
    expect(swarmScoreScaleOf(resolveExperiment('mappo-spread').settings)).toBeNull();
  });
});
