import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { deriveSeed, Rng } from '../../../src/core/rng';
import { ContinuousRolloutActor } from '../../../src/engine/continuousRolloutActor';
import { TrainingRun } from '../../../src/engine/trainer';
import type { UpdateRecord } from '../../../src/runs/records';
import type { ExploreMode } from '../../../src/engine/continuousPolicy';

// Pendulum-v1: torque in [−2, 2] (scale 2, bias 0), never terminates, cut at 200 steps.
const NET = { obsDim: 3, actionDim: 1, hidden: [4], activation: 'relu' as const, actionLow: [-2], actionHigh: [2] };
const SEED = 5;
const ACTOR = 1;

/** A deterministic actor with every weight 0: μ(s) = 2·tanh(0) = 0, so an action is 2·clip(noise, −1, 1). */
function zeroActor(numEnvs: number): ContinuousRolloutActor {
  const actor = new ContinuousRolloutActor({ envId: 'Pendulum-v1', numEnvs, seed: SEED, actorIndex: ACTOR, policy: 'deterministic', net: NET });
  actor.setWeights([new Float32Array(3 * 4), new Float32Array(4), new Float32Array(4), new Float32Array(1)], 0);
  return actor;
}

/** The actor's exploration draws: its Rng stream, seeded as the actor documents (seed, actor index, 0xc0a7). */
const actorRng = () => new Rng(deriveSeed(SEED, ACTOR, 0xc0a7));
const clip1 = (x: number) => Math.min(1, Math.max(-1, x));

describe('Ornstein-Uhlenbeck exploration in the rollout actor', () => {
  it('acts with one OU process per env copy, x ← 0.9985·x + σ·0.1·z, started over at each episode start', () => {
    const N = 2;
    const T = 250;
    const sigma = 0.5;
    const seg = zeroActor(N).sampleTransitions(null, 0, T, { random: false, noise: sigma, process: 'ou', sample: true });
    const rng = actorRng();
    const x = [0, 0];
    for (let t = 0; t < T; t++) {
      for (let n = 0; n < N; n++) {
        // SB3: x ← x + θ(μ − x)dt + σ√dt·z with θ 0.15, dt 0.01, μ 0.
        x[n] = x[n] + 0.15 * (0 - x[n]) * 0.01 + sigma * Math.sqrt(0.01) * rng.normal();
        expect(seg.actions[t * N + n]).toBeCloseTo(2 * clip1(x[n]), 5);
      }
      // Both copies start together, so the time limit ends both episodes at their 200th step.
      expect(seg.ended[t * N]).toBe(t === 199 ? 1 : 0);
      for (let n = 0; n < N; n++) if (seg.ended[t * N + n]) x[n] = 0;
    }
    // The first action of the new episode is one increment from 0: |2·0.05·z| is small, unlike the action just before.
    expect(Math.abs(seg.actions[200 * N])).toBeLessThan(0.5);
  });

  it('keeps drawing independent Gaussian noise when no process (or gaussian) is asked for', () => {
    const sigma = 0.5;
    for (const mode of [{ random: false, noise: sigma, sample: true }, { random: false, noise: sigma, process: 'gaussian', sample: true }] satisfies ExploreMode[]) {
      const seg = zeroActor(1).sampleTransitions(null, 0, 20, mode);
      const rng = actorRng();
      for (let t = 0; t < 20; t++) expect(seg.actions[t]).toBeCloseTo(2 * clip1(sigma * rng.normal()), 5);
    }
  });

  it('draws no noise during the uniform warm-up', () => {
    const seg = zeroActor(1).sampleTransitions(null, 0, 10, { random: true, noise: 0.5, process: 'ou', sample: true });
    const rng = actorRng();
    // Uniform in the bounds: 0 + 2·(2u − 1).
    for (let t = 0; t < 10; t++) expect(seg.actions[t]).toBeCloseTo(2 * (2 * rng.uniform() - 1), 5);
  });
});

describe('the exploration process setting', () => {
  it('defaults to gaussian for TD3 and DDPG; the MountainCarContinuous TD3 preset uses the zoo’s OU σ 0.5', () => {
    expect(resolveExperiment('td3-pendulum').settings['td3.explorationProcess']).toBe('gaussian');
    expect(resolveExperiment('ddpg-pendulum').settings['ddpg.explorationProcess']).toBe('gaussian');
    const mc = resolveExperiment('td3-mountaincar-continuous').settings;
    expect([mc['td3.explorationProcess'], mc['td3.explorationNoise']]).toEqual(['ou', 0.5]);
    expect(resolveExperiment('td3-pendulum', { 'td3.explorationProcess': 'ou' }).settings['td3.explorationProcess']).toBe('ou');
    expect(() => resolveExperiment('td3-pendulum', { 'td3.explorationProcess': 'pink' })).toThrow(/explorationProcess/);
  });
});

describe('the off-policy loop hands the process to its actors', () => {
  /** The spread of the actions of the first segment (32 steps, no warm-up) of td3-mountaincar-continuous. */
  async function firstSegmentSpread(process: 'gaussian' | 'ou'): Promise<number> {
    const updates: UpdateRecord[] = [];
    const config = resolveExperiment('td3-mountaincar-continuous', { backend: 'cpu', seed: 2, 'td3.learningStarts': 0, 'td3.explorationProcess': process, 'model.hidden': 8 });
    const run = new TrainingRun(
      config,
      (r) => {
        if (r.type !== 'update') return;
        updates.push(r as UpdateRecord);
        run.stop();
      },
      nodePlatform(),
    );
    await run.run();
    expect(updates[0].envSteps).toBe(32);
    return updates[0].metrics.actionStd;
  }

  it('OU actions drift slowly from μ(s) while Gaussian ones scatter by σ', async () => {
    // μ(s) barely moves in 32 steps (the car hardly moves). Gaussian σ 0.5, clipped at ±1: std ≈ 0.46.
    // OU from 0: x_t is a walk of steps 0.05·z, so over 32 steps its spread is about 0.05·√(32/6) ≈ 0.12.
    expect(await firstSegmentSpread('gaussian')).toBeGreaterThan(0.35);
    expect(await firstSegmentSpread('ou')).toBeLessThan(0.25);
  }, 60_000);
});
