/**
 * The swarm loop must give the same numbers for the same seed and config as the code did before
 * it was split into pieces. The fixture was written by the pre-refactor loop (commit 6ee9355) with
 * SWARM_FIXTURE_WRITE=1; regenerate it only when a change is meant to alter the numbers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { TrainingRun } from '../../../src/engine/trainer';
import type { RunRecord } from '../../../src/runs/records';

const FIXTURE = new URL('./fixtures/swarmLoopNumbers.json', import.meta.url);

/**
 * Four updates, small enough for a unit test; two actors so that the batch's actor order counts.
 * The direct bias is 0 so that subagents are used and r_parallel, r_finish are not all 0.
 */
const SMALL = {
  seed: 11,
  backend: 'cpu',
  actors: 2,
  envsPerActor: 2,
  'swarm.items': 8,
  'swarm.updates': 4,
  'swarm.annealUpdates': 3,
  'swarm.traceEvery': 2,
  'swarm.initDirectBias': 0,
} as const;

const CASES = [
  { name: 'annealed', preset: 'swarm-annealed', overrides: SMALL },
  // The curriculum's switch from small to large subagents, inside the four updates.
  { name: 'curriculum', preset: 'swarm-curriculum', overrides: { ...SMALL, 'swarm.curriculumSwitch': 2 } },
] as const;

/** The fields of the pre-refactor SwarmEpisodeStats (new fields are checked against these, not stored). */
const EPISODE_FIELDS = [
  'criticalSteps', 'totalSteps', 'serialBaseline', 'lowerBound', 'avgParallelism', 'maxParallelism',
  'finishRate', 'rPerf', 'rParallel', 'rFinish', 'lambda1', 'lambda2', 'total',
] as const;

/** Everything in the records that does not depend on wall-clock time. */
function numbersOf(records: RunRecord[]) {
  return {
    updates: records.flatMap((r) =>
      r.type === 'update'
        ? [{ update: r.update, envSteps: r.envSteps, episodes: r.episodes, returns: r.returns, lengths: r.lengths, meanReturn20: r.meanReturn20, lostSegments: r.lostSegments, metrics: r.metrics }]
        : [],
    ),
    swarm: records.flatMap((r) =>
      r.type === 'swarm'
        ? [{ update: r.update, trainSteps: r.trainSteps, episodes: r.episodes.map((e) => Object.fromEntries(EPISODE_FIELDS.map((k) => [k, e[k]]))) }]
        : [],
    ),
    traces: records.flatMap((r) => (r.type === 'trace' ? [{ update: r.update, trace: r.trace, serialTrace: r.serialTrace }] : [])),
  };
}

type Numbers = ReturnType<typeof numbersOf>;
type Fixture = { source: string; cases: Record<string, { preset: string; overrides: object } & Numbers> };

async function runNumbers(preset: string, overrides: object): Promise<{ numbers: Numbers; records: RunRecord[] }> {
  const records: RunRecord[] = [];
  const config = resolveExperiment(preset, overrides);
  const summary = await new TrainingRun(config, (r) => records.push(r), nodePlatform()).run();
  expect(summary.stopReason).toBe('budget');
  // NaN metrics (explained variance of a constant target) become null, as in the fixture.
  return { numbers: JSON.parse(JSON.stringify(numbersOf(records))) as Numbers, records };
}

describe('swarm loop numbers', () => {
  const written: Fixture = { source: 'pre-refactor swarm loop (src/engine/loops/swarm.ts at commit 6ee9355)', cases: {} };
  const fixture = (): Fixture => JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;

  for (const c of CASES) {
    it(`match the pre-refactor loop's for the same seed and config (${c.name})`, async () => {
      const { numbers, records } = await runNumbers(c.preset, c.overrides);
      if (process.env.SWARM_FIXTURE_WRITE === '1') {
        written.cases[c.name] = { preset: c.preset, overrides: c.overrides, ...numbers };
        writeFileSync(FIXTURE, `${JSON.stringify(written, null, 1)}\n`);
      }
      const want = fixture().cases[c.name];
      expect(want.updates.length).toBe(4);
      expect(numbers).toEqual({ updates: want.updates, swarm: want.swarm, traces: want.traces });
      // The shaped terms the records carry are those of the reward: λ1·r_parallel and λ2·r_finish.
      const episodes = records.flatMap((r) => (r.type === 'swarm' ? r.episodes : []));
      expect(episodes.some((e) => e.rParallel > 0 && e.lambda1 > 0)).toBe(true);
      for (const e of episodes) {
        expect(e.shapedParallel).toBe(e.lambda1 * e.rParallel);
        expect(e.shapedFinish).toBe(e.lambda2 * e.rFinish);
      }
    }, 120_000);
  }
});
