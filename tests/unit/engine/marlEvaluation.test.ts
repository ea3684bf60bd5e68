/**
 * The marl bench's greedy evaluation: it reads the learner's checkpoints and leaves the training
 * stream as it is; it plays the same starts at every call; predators can be greedy beside
 * sampling prey; and its EPyMARL returns are the parts' identities.
 */
import { describe, expect, it } from 'vitest';
import { trainWithCheckpoints } from '../../../bench/marl';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { agentInputDim } from '../../../src/algorithms/marl';
import { Rng } from '../../../src/core/rng';
import { mpeTaskSpec } from '../../../src/engine/marlActor';
import { evaluateMarl } from '../../../src/engine/marlEvaluation';
import { MarlPolicy } from '../../../src/engine/marlPolicy';
import { TrainingRun } from '../../../src/engine/trainer';
import type { UpdateRecord } from '../../../src/runs/records';

// 1 actor × 2 copies × 25 steps = 50 env steps per update, 6 updates.
const SMALL = { actors: 1, envsPerActor: 2, backend: 'cpu', 'run.envSteps': 300, 'qmix.batchSize': 2, 'qmix.hidden': 8, 'qmix.trainEvery': 1 };

describe('marl greedy evaluation', () => {
  it('training with evaluation checkpoints gives the same updates as a run without them', async () => {
    const withEval = await trainWithCheckpoints('qmix-spread', 3, SMALL, 100);
    const plain: UpdateRecord[] = [];
    await new TrainingRun(resolveExperiment('qmix-spread', { seed: 3, ...SMALL }), (r) => r.type === 'update' && plain.push(r), nodePlatform()).run();
    expect(withEval.updates).toHaveLength(6);
    expect(withEval.updates.map((u) => u.returns)).toEqual(plain.map((u) => u.returns));
    expect(withEval.updates.map((u) => u.metrics.loss)).toEqual(plain.map((u) => u.metrics.loss));
    // one set of weights at or past every 100 steps, and the last
    expect(withEval.checkpoints.map((c) => c.envSteps)).toEqual([100, 200, 300]);

    // evaluating is a function of the weights: the same in any order, and it does not move training's numbers
    const task = mpeTaskSpec('simple_spread_v3');
    const acting = { kind: 'rnnShared', hidden: 8 } as const;
    const opts = { task, acting, seed: 3, episodes: 4 };
    const forward = withEval.checkpoints.map((c) => evaluateMarl(c.weights, opts).teamReturns);
    const backward = [...withEval.checkpoints].reverse().map((c) => evaluateMarl(c.weights, opts).teamReturns).reverse();
    expect(backward).toEqual(forward);
  }, 120_000);

  it('on simple_spread, per episode: shared once = 2 · team − 75 and EPyMARL = 3 · shared once', () => {
    // Per step, PettingZoo: Σ_i r_i = 1.5 G − 0.5 Σ c_i; the fork: Σ_i r_i = 3 G − Σ c_i − 3 = 2 · (1.5 G − 0.5 Σ c_i) − 3;
    // over 25 steps the constant is 75; EPyMARL's code sums the shared reward over the 3 agents.
    const task = mpeTaskSpec('simple_spread_v3');
    const e = evaluateMarl('random', { task, acting: { kind: 'rnnShared', hidden: 8 }, seed: 5, episodes: 6 });
    expect(e.teamReturn).toBeCloseTo(e.teamReturns.reduce((a, b) => a + b, 0) / 6, 9);
    expect(e.sharedOnceReturn!).toBeCloseTo(2 * e.teamReturn - 75, 3);
    expect(e.epymarlReturn!).toBeCloseTo(3 * e.sharedOnceReturn!, 3);
    // the same starts at every call; another seed, other starts
    expect(evaluateMarl('random', { task, acting: { kind: 'rnnShared', hidden: 8 }, seed: 5, episodes: 6 }).teamReturns).toEqual(e.teamReturns);
    expect(evaluateMarl('random', { task, acting: { kind: 'rnnShared', hidden: 8 }, seed: 6, episodes: 6 }).teamReturns).not.toEqual(e.teamReturns);
  });

  it("the 'still' baseline is the greedy policy whose every Q prefers action 0", () => {
    const task = mpeTaskSpec('simple_spread_v3');
    const H = 4;
    const D = agentInputDim(task);
    // zero weights, Q = b2 = (1, 0, 0, 0, 0) for every agent at every step
    const weights = [D * H, H, H * 3 * H, 3 * H, H * 3 * H, 3 * H, H * 5].map((n) => new Float32Array(n)).concat([Float32Array.from([1, 0, 0, 0, 0])]);
    const opts = { task, acting: { kind: 'rnnShared', hidden: H } as const, seed: 2, episodes: 5 };
    const still = evaluateMarl('still', opts);
    expect(evaluateMarl(weights, opts).teamReturns).toEqual(still.teamReturns);
    expect(evaluateMarl('random', opts).teamReturns).not.toEqual(still.teamReturns);
  });

  it('greedy per agent: predators take the argmax, prey sample from the softmax', () => {
    const task = mpeTaskSpec('simple_tag_v3');
    const policy = new MarlPolicy(task, { kind: 'mlpPerAgent', hidden: [4] });
    // Every actor outputs the logits (0, 3, 0, 0, 0) whatever it sees: argmax 1, P(u ≠ 1) = 4 / (e³ + 4) ≈ 0.166.
    policy.setWeights(
      task.agents.flatMap((_, a) => [new Float32Array(task.obsDims[a] * 4), new Float32Array(4), new Float32Array(4 * 5), Float32Array.from([0, 3, 0, 0, 0])]),
    );
    const greedy = task.sides.map((side) => side === 0);
    const rng = new Rng(11);
    const state = new Float32Array(task.stateDim);
    const out = new Int32Array(task.agents.length);
    const other = task.agents.map(() => 0);
    const n = 300;
    for (let k = 0; k < n; k++) {
      policy.act(state, 0, 0, rng, greedy, out, 0);
      out.forEach((u, a) => (other[a] += u !== 1 ? 1 : 0));
    }
    task.sides.forEach((side, a) => {
      if (side === 0) expect(other[a], `predator ${a}`).toBe(0);
      else {
        // binomial(300, 0.166): mean 49.8, sd 6.4
        expect(other[a], `prey ${a}`).toBeGreaterThan(25);
        expect(other[a], `prey ${a}`).toBeLessThan(75);
      }
    });
  });
});
