import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchNamesFromUsage, COMPARE_USAGE } from '../../../bench/compare';
import { classroomBenchmark } from '../../../bench/classroom';
import { clusterScalingBenchmark } from '../../../bench/cluster';
import { offlinePendulumBenchmark, solveMountainCarContinuousBenchmark, solvePendulumBenchmark } from '../../../bench/continuous';
import { actorScalingBenchmark, envThroughputBenchmark, policyLagBenchmark, solveCartpoleBenchmark } from '../../../bench/engine';
import { fuzzBenchmark } from '../../../bench/fuzz';
import { gpuBenchmark } from '../../../bench/gpu';
import { marlBenchmark } from '../../../bench/marl';
import { profileBenchmark } from '../../../bench/profile';
import { quickstartBenchmark } from '../../../bench/quickstart';
import { soakBenchmark } from '../../../bench/soak';
import { signalsBenchmark } from '../../../bench/signals';
import { swarmScaleBenchmark, swarmStoryBenchmark } from '../../../bench/swarm';
import { swarmBaselinesBenchmark } from '../../../bench/swarmBaselines';
import type { Benchmark } from '../../../bench/types';
import { uiBenchmark } from '../../../bench/ui';
import { repoRoot as root, spawnScript } from '../cli/commandRuns';

/** `npm run bench -- ARGS`, spawned (the usage and the flag checks live in bench/bench.ts's entry). */
const bench = (...args: string[]) => spawnScript('bench/bench.ts', args, 300_000);

/** Each source file that reads benchmark flags, and the benchmarks it reads them for. */
const FILES: [string, Benchmark[]][] = [
  ['engine.ts', [envThroughputBenchmark, actorScalingBenchmark, solveCartpoleBenchmark, policyLagBenchmark]],
  ['quickstart.ts', [quickstartBenchmark]],
  ['signals.ts', [signalsBenchmark]],
  ['continuous.ts', [solvePendulumBenchmark, solveMountainCarContinuousBenchmark, offlinePendulumBenchmark]],
  ['swarm.ts', [swarmStoryBenchmark, swarmScaleBenchmark]],
  ['swarmStory.ts', [swarmStoryBenchmark, swarmScaleBenchmark]],
  ['swarmBaselines.ts', [swarmBaselinesBenchmark]],
  ['fuzz.ts', [fuzzBenchmark]],
  ['profile.ts', [profileBenchmark]],
  ['ui.ts', [uiBenchmark]],
  ['marl.ts', [marlBenchmark]],
  ['soak.ts', [soakBenchmark]],
  ['soakControl.ts', [soakBenchmark]],
  ['cluster.ts', [clusterScalingBenchmark]],
  ['classroom.ts', [classroomBenchmark]],
  ['gpu.ts', [gpuBenchmark]],
];

/** The flag names a source reads, in each way the benchmarks read them. */
function flagsRead(source: string): Set<string> {
  const patterns = [
    /\bflags\??\.([a-z][\w]*)/g, // flags.updates, args.flags.t
    /\bflags\[\s*'([\w-]+)'\s*\]/g, // flags['first-stage']
    /\b(?:numberFlag|choiceFlag|boolFlag)\(flags, '([\w-]+)'/g, // swarmStory.ts
    /\bcount\('([\w-]+)'/g, // marl.ts
    /\boverrides\('[^']*', '([\w-]+)'\)/g, // continuous.ts
  ];
  return new Set(patterns.flatMap((re) => [...source.matchAll(re)].map((m) => m[1])));
}

describe('npm run bench: --help', () => {
  it('--help and -h alone print the usage with every benchmark, exit 0', async () => {
    for (const r of await Promise.all([bench('--help'), bench('-h')])) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.startsWith('Usage: npm run bench --'), r.stdout).toBe(true);
      expect(r.stderr).toBe('');
      // Every benchmark the CLI knows (the compare line reads as "npm"), and only those FILES covers.
      const names = benchNamesFromUsage(r.stdout).filter((n) => n !== 'npm');
      expect(names.sort()).toEqual([...new Set(FILES.flatMap(([, bs]) => bs.map((b) => b.name)))].sort());
      expect(r.stdout).toContain('NAME --help');
    }
  });

  it('NAME --help prints the description and the flags of that benchmark, exit 0, wherever --help stands', async () => {
    const [r, ui] = await Promise.all([bench('swarm-scale', '--updates', '2', '--help'), bench('ui', '-h')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Usage: npm run bench -- swarm-scale');
    expect(r.stdout).toContain('learned set-policy orchestrator on 100-subtask tasks');
    for (const flag of ['--updates N', '--seeds', '--json FILE']) expect(r.stdout).toContain(flag);
    expect(r.stderr).toBe('');
    expect(ui.code, ui.stderr).toBe(0);
    for (const flag of ['--mode time-to-target|quickstart-start', '--preset NAME', '--timeout S', '--click backend|enabled', '--dist DIR']) expect(ui.stdout).toContain(flag);
  });

  it('compare --help prints its usage, exit 0', async () => {
    const r = await bench('compare', '--help');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(COMPARE_USAGE);
  });

  it('refuses a flag the benchmark does not take, naming its flags, before running anything (exit 2)', async () => {
    const started = Date.now();
    // 100k fuzz inputs per target would take minutes: nothing ran.
    const [r, other] = await Promise.all([bench('fuzz', '--runs', '100000', '--bogus', '1'), bench('swarm-scale', '--rows', 'annealed')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe('error: fuzz takes no --bogus (its flags: --runs, --seed, --seeds, --json; npm run bench -- fuzz --help says what each does)');
    expect(r.stdout).toBe('');
    // Another benchmark's flag is refused too (the swarm's scale bench has no --rows).
    expect(other.code, other.stderr).toBe(2);
    expect(other.stderr).toContain('swarm-scale takes no --rows');
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe('each benchmark\'s --help is its code\'s flags', () => {
  const all = [...new Set(FILES.flatMap(([, b]) => b))];

  it('lists each flag once, none of the shared ones', () => {
    for (const b of all) {
      const names = b.help.flags.map((f) => f.name);
      expect(new Set(names).size, b.name).toBe(names.length);
      for (const n of names) expect(['seeds', 'json', 'help', 'h'], `${b.name} --${n}`).not.toContain(n);
      for (const f of b.help.flags) {
        expect(f.name, b.name).toMatch(/^[a-z][a-z0-9-]*$/);
        expect(f.value.trim(), `${b.name} --${f.name}`).not.toBe('');
        expect(f.text.trim(), `${b.name} --${f.name}`).not.toBe('');
      }
    }
  });

  it('every flag a source reads is in the help of a benchmark of that source, and every flag in a help is read', () => {
    const readBy = new Map<Benchmark, Set<string>>();
    for (const [file, benches] of FILES) {
      const read = flagsRead(readFileSync(`${root}bench/${file}`, 'utf8'));
      const documented = new Set(['seeds', 'json', ...benches.flatMap((b) => b.help.flags.map((f) => f.name))]);
      expect([...read].filter((k) => !documented.has(k)), file).toEqual([]);
      for (const b of benches) readBy.set(b, new Set([...(readBy.get(b) ?? []), ...read]));
    }
    for (const b of all) expect(b.help.flags.map((f) => f.name).filter((k) => !readBy.get(b)?.has(k)), b.name).toEqual([]);
  });

  it('the check finds flags read in each of those ways', () => {
    const source = "flags.updates; args.flags.t; flags['first-stage']; numberFlag(flags, 'lr', ok, 'x'); count('tag-seeds', 3, 0); overrides('sac.initAlpha', 'sac-alpha')";
    expect([...flagsRead(source)].sort()).toEqual(['first-stage', 'lr', 'sac-alpha', 't', 'tag-seeds', 'updates']);
  });
});

describe('bad values of a benchmark flag are refused with the reason, before the run', () => {
  // The benchmark's own run refuses them (in this process: a spawn each would cost a second or more);
  // the spawned case shows that the command prints the refusal and fails.
  it.each([
    ['swarm-story', swarmStoryBenchmark, { rows: 'annealed,anealed' }, 'no row named "anealed"'],
    ['swarm-story', swarmStoryBenchmark, { updates: '0' }, '--updates must be a positive integer, got 0'],
    ['swarm-scale', swarmScaleBenchmark, { updates: 'ten' }, '--updates must be a positive integer, got ten'],
    ['solve-cartpole', solveCartpoleBenchmark, { algos: 'ppo,dpq' }, '--algos takes ppo, a2c, impala, dqn, got dpq'],
  ])('%s %j', async (_name, benchmark, flags, message) => {
    await expect(benchmark.run({ seeds: [1, 2, 3, 4, 5], flags })).rejects.toThrow(message);
  });

  it('npm run bench -- swarm-story --split everything fails with the reason', async () => {
    const r = await bench('swarm-story', '--split', 'everything');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--split must be tuning, heldout or both, got everything');
  });
});
