import { describe, expect, it } from 'vitest';
import { BENCH_RESULT_SCHEMA, mergeBenchResults, rowsFromSeedFigures, type BenchResultFile } from '../../../bench/results';
import { runSwarmStory } from '../../../bench/swarmStory';
import { FIXED_TABLE_ROW, PACKER_ROW, formatStoryVerdict, storyVerdict } from '../../../bench/swarmStoryVerdict';

interface Fig {
  seed: number;
  rPerf: number;
  subagents: number;
  finishRate: number;
  criticalOverSerial: number;
}

const fig = (seed: number, rPerf: number, subagents: number, finishRate = 1, criticalOverSerial = 0.2): Fig => ({ seed, rPerf, subagents, finishRate, criticalOverSerial });
const SPLIT = 'held-out 6-15';

/** A swarm-story result over `seeds`: each row's figures from a function of the seed. */
function result(seeds: number[], rows: Record<string, (seed: number) => Fig>): BenchResultFile {
  const perRow = Object.fromEntries(Object.entries(rows).map(([name, f]) => [name, seeds.map(f)]));
  return { schema: BENCH_RESULT_SCHEMA, benchmark: 'swarm-story', command: 'c', date: '2026-12-06T00:00:00Z', machine: 'm', tookSeconds: 1, rows: rowsFromSeedFigures(SPLIT, perRow, 'default'), figures: {} };
}

const story = (over: Partial<Record<string, (seed: number) => Fig>> = {}) => ({
  annealed: (s: number) => fig(s, 0.6, 20),
  'no shaping': (s: number) => fig(s, 0.36, 0),
  'constant λ1': (s: number) => fig(s, 0.5, 40, 0.6),
  [PACKER_ROW]: (s: number) => fig(s, 0.55, 15),
  [FIXED_TABLE_ROW]: (s: number) => fig(s, 0.5, 15),
  ...over,
});

describe('the swarm story verdict (swarm-story, --from)', () => {
  it('meets every claim when no shaping ends serial, constant λ1 over-spawns and annealed beats both packers', () => {
    const v = storyVerdict(result([6, 7, 8, 9, 10], story() as Record<string, (seed: number) => Fig>), SPLIT);
    expect(v.collapse).toEqual({ noShapingSerial: 5, annealedDelegating: 5, met: true });
    expect(v.spurious).toEqual({ seeds: 5, subagentRatio: 2, met: true });
    expect(v.learned).toMatchObject({ annealed: 0.6, adaptivePacker: 0.55, fixedTablePacker: 0.5, met: true });
    expect(formatStoryVerdict(SPLIT, v)).toContain('serial collapse by learning: met. "no shaping" ends serial on 5/5');
  });

  it('judges spurious parallelism seed by seed against annealed on the same seed', () => {
    // Seeds 6-7: 1.5 × annealed's subagents and 0.05 lower: over-spawning. Seed 8: 1.5 × but the same r_perf and finish 0.9: not.
    // Seeds 9-10: 1.4 × annealed's subagents: not, whatever its finish rate.
    const constant = (s: number) => (s <= 7 ? fig(s, 0.55, 30) : s === 8 ? fig(s, 0.6, 30, 0.9) : fig(s, 0.3, 28, 0.1));
    const v = storyVerdict(result([6, 7, 8, 9, 10], story({ 'constant λ1': constant }) as Record<string, (seed: number) => Fig>), SPLIT);
    expect(v.spurious.seeds).toBe(2);
    expect(v.spurious.met).toBe(false);
  });

  it('fails the collapse claim when annealed also ends serial, and the learned claim below 1.1 × the fixed-table packer', () => {
    const v = storyVerdict(
      result([6, 7, 8, 9, 10], story({ annealed: (s) => fig(s, 0.54, s <= 7 ? 0 : 20), [FIXED_TABLE_ROW]: (s) => fig(s, 0.5, 15) }) as Record<string, (seed: number) => Fig>),
      SPLIT,
    );
    expect(v.collapse).toEqual({ noShapingSerial: 5, annealedDelegating: 3, met: false });
    expect(v.learned.met).toBe(false);
  });

  it('reads results over disjoint seeds as one, and names a row or seed that is missing', () => {
    const a = result([6, 7], story() as Record<string, (seed: number) => Fig>);
    const b = result([8], story({ 'no shaping': (s) => fig(s, 0.5, 12) }) as Record<string, (seed: number) => Fig>);
    const v = storyVerdict(mergeBenchResults([a, b]), SPLIT);
    expect(v.seeds).toBe(3);
    expect(v.collapse.noShapingSerial).toBe(2);
    const noConstant = result([6], { annealed: story().annealed, 'no shaping': story()['no shaping'] });
    expect(() => storyVerdict(noConstant, SPLIT)).toThrow('no row "constant λ1"');
    const short = result([6, 7], story() as Record<string, (seed: number) => Fig>);
    short.rows = short.rows.map((r) => (r.row === PACKER_ROW ? { ...r, seeds: [6], perSeed: r.perSeed.slice(0, 1) } : r));
    expect(() => storyVerdict(short, SPLIT)).toThrow(`${PACKER_ROW} lacks seed 7 that annealed has`);
  });

  it('--from reads the committed held-out results as one, trains nothing, and names a file it cannot use', async () => {
    const files = 'bench/results/swarm-story-latent-6.json,bench/results/swarm-story-latent-11.json';
    const r = await runSwarmStory({ seeds: [], flags: { from: files } });
    const held = (r.figures.verdicts as Array<{ split: string; verdict: ReturnType<typeof storyVerdict> }>).find((v) => v.split === SPLIT);
    expect(held?.verdict.seeds).toBe(10);
    expect(r.table).toContain(`The story on ${SPLIT} (10 seeds)`);
    await expect(runSwarmStory({ seeds: [], flags: { from: 'bench/results/no-such.json' } })).rejects.toThrow('swarm-story: cannot read bench/results/no-such.json');
    await expect(runSwarmStory({ seeds: [], flags: { from: 'bench/results/swarm-baselines-latent.json' } })).rejects.toThrow('is a swarm-baselines result, not swarm-story');
    await expect(runSwarmStory({ seeds: [], flags: { from: ' , ' } })).rejects.toThrow('--from needs one or more result files');
  });
});
