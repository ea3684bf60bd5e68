/**
 * Benchmarks: `npm run bench -- NAME [--seeds 1,2,3,4,5] [--json FILE]`. Each prints a table and
 * its figures; the latest figures are kept in BENCHMARKS.md with the command and the machine.
 * `npm run bench -- NAME --help` prints what NAME measures and its flags (each benchmark's `help`,
 * beside its flag parsing); a flag NAME does not take is refused before anything runs (exit 2).
 */
import { writeFileSync } from 'node:fs';
import { outputPathProblem } from '../src/cli/args';
import { cpus, totalmem } from 'node:os';
import { actorScalingBenchmark, envThroughputBenchmark, policyLagBenchmark, solveCartpoleBenchmark } from './engine';
import { quickstartBenchmark } from './quickstart';
import { offlinePendulumBenchmark, solveMountainCarContinuousBenchmark, solvePendulumBenchmark } from './continuous';
import { swarmScaleBenchmark, swarmStoryBenchmark } from './swarm';
import { swarmBaselinesBenchmark } from './swarmBaselines';
import type { Benchmark } from './types';
import { BENCH_RESULT_SCHEMA, formatBenchResult, type BenchResultFile } from './results';
import { fuzzBenchmark } from './fuzz';
import { profileBenchmark } from './profile';
import { uiBenchmark } from './ui';
import { marlBenchmark } from './marl';
import { soakBenchmark } from './soak';
import { oneLine, runMain } from '../src/cli/runMain';
import { isHelpFlag } from '../src/cli/help';
import { clusterScalingBenchmark } from './cluster';
import { classroomBenchmark } from './classroom';
import { gpuBenchmark } from './gpu';
import { signalsBenchmark } from './signals';
import { shellWords } from '../src/cli/commandLine';

const BENCHMARKS: Benchmark[] = [
  quickstartBenchmark,
  envThroughputBenchmark,
  actorScalingBenchmark,
  solveCartpoleBenchmark,
  policyLagBenchmark, swarmStoryBenchmark, swarmScaleBenchmark, uiBenchmark, fuzzBenchmark,
  swarmBaselinesBenchmark, profileBenchmark,
  solvePendulumBenchmark, solveMountainCarContinuousBenchmark, offlinePendulumBenchmark,
  soakBenchmark, marlBenchmark,
  clusterScalingBenchmark, classroomBenchmark, gpuBenchmark, signalsBenchmark];

function usage(): string {
  return `Usage: npm run bench -- NAME [--seeds 1,2,3,4,5] [--json FILE]\n       npm run bench -- NAME --help   (what NAME measures, and its flags)\n\n${BENCHMARKS.map((b) => `  ${b.name.padEnd(16)} ${b.description}`).join('\n')}\n\n  npm run bench -- compare --ref GITREF [--seeds 1,2,3,4,5] -- NAME [flags]\n                   runs NAME in GITREF's tree and in this one, seed by seed, and prints both side by side`;
}

/** `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The flags a benchmark takes: its own, then --seeds and --json (every benchmark's). */
function knownFlags(bench: Benchmark): string[] {
  return [...bench.help.flags.map((f) => f.name), 'seeds', 'json'];
}

/** `npm run bench -- NAME --help`: what the benchmark measures, and each flag it reads. */
function benchHelp(bench: Benchmark): string {
  const flags = [
    ...bench.help.flags.map((f) => [`--${f.name} ${f.value}`, f.text]),
    ['--seeds 1,2,3,4,5', bench.help.seeds ?? 'this benchmark uses no seeds (the flag is accepted, as compare passes it to every benchmark, and ignored)'],
    ['--json FILE', 'also write the table to FILE as JSON: each row\'s medians and per-seed values, the command, date and machine (bench/results.ts; checked before the run starts)'],
  ];
  // Flag names in a column (a longer one on a line of its own), the text wrapped beside them.
  const col = Math.min(28, Math.max(...flags.map(([f]) => f.length)) + 2);
  const pad = ' '.repeat(col + 2);
  const lines = flags.map(([f, text]) => `  ${f.length + 2 > col ? `${f}\n${pad}` : f.padEnd(col)}${wrap(text, 100 - col - 2).join(`\n${pad}`)}`);
  return `Usage: npm run bench -- ${bench.name} [--flag value]...\n\n${wrap(`${bench.name}: ${bench.description}.`, 100).join('\n')}\n\nFlags:\n${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const name = argv[0];
  if (isHelpFlag(name)) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  if (name === 'compare') {
    const compare = await import('./compare');
    // Its own flags come before "--"; what follows is the compared benchmark's.
    const own = argv.includes('--') ? argv.slice(1, argv.indexOf('--')) : argv.slice(1);
    if (own.some(isHelpFlag)) {
      process.stdout.write(`${compare.COMPARE_USAGE}\n\nRuns NAME in GITREF's tree and in this one, seed by seed (--seeds, default 1,2,3,4,5), and prints both side by side. --unread-ok KEY,... lets one side leave those flags of NAME unread. NAME's own flags: npm run bench -- NAME --help\n`);
      return 0;
    }
    return compare.compareMain(argv.slice(1));
  }
  const bench = BENCHMARKS.find((b) => b.name === name);
  if (!bench) {
    process.stderr.write(`${name ? `error: unknown benchmark ${JSON.stringify(name)}\n` : ''}${usage()}\n`);
    return 2;
  }
  // --help (or -h) anywhere after the name: no flag takes it as a value.
  if (argv.slice(1).some(isHelpFlag)) {
    process.stdout.write(benchHelp(bench));
    return 0;
  }
  // No prototype: a flag named --constructor or --__proto__ is just a flag.
  const flags = Object.create(null) as Record<string, string>;
  for (let i = 1; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) {
      process.stderr.write(`error: expected --flag value pairs, got ${JSON.stringify(argv[i])} (npm run bench -- ${bench.name} --help lists its flags)\n`);
      return 2;
    }
    const key = argv[i].slice(2);
    if (Object.hasOwn(flags, key)) {
      process.stderr.write(`error: ${argv[i]}: is given more than once\n`);
      return 2;
    }
    flags[key] = argv[i + 1];
  }
  // A flag the benchmark does not read would otherwise be ignored without a word.
  const known = knownFlags(bench);
  const unknown = Object.keys(flags).filter((k) => !known.includes(k));
  if (unknown.length) {
    process.stderr.write(`error: ${bench.name} takes no ${unknown.map((k) => `--${k}`).join(', ')} (its flags: ${known.map((k) => `--${k}`).join(', ')}; npm run bench -- ${bench.name} --help says what each does)\n`);
    return 2;
  }
  // Checked before the benchmark runs, not after minutes of it.
  const jsonProblem = flags.json === undefined ? null : outputPathProblem(flags.json);
  if (jsonProblem) {
    process.stderr.write(`error: --json: ${jsonProblem}\n`);
    return 2;
  }
  const seeds = (flags.seeds ?? '1,2,3,4,5').split(',').map(Number);
  if (seeds.some((s) => !Number.isInteger(s) || s < 0)) {
    process.stderr.write(`error: --seeds must be a comma-separated list of non-negative integers\n`);
    return 2;
  }
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const started = Date.now();
  const result = await bench.run({ seeds, flags });
  const text = `## ${bench.name}\n\n${bench.description}.\n\nCommand: \`npm run bench -- ${shellWords(argv)}\`  \nMachine: ${machine}  \nDate: ${new Date().toISOString().slice(0, 10)}, took ${((Date.now() - started) / 1000).toFixed(0)} s\n\n${result.table}\n`;
  process.stdout.write(`${text}\n`);
  if (flags.json !== undefined) {
    try {
      const file: BenchResultFile = {
        schema: BENCH_RESULT_SCHEMA,
        benchmark: bench.name,
        command: `npm run bench -- ${shellWords(argv)}`,
        date: new Date().toISOString(),
        machine,
        tookSeconds: Math.round((Date.now() - started) / 1000),
        rows: result.rows ?? [],
        figures: result.figures,
      };
      writeFileSync(flags.json, formatBenchResult(file));
    } catch (err) {
      process.stderr.write(`error: could not write --json ${flags.json}: ${oneLine(err)}\n`);
      return 1;
    }
  }
  return 0;
}

runMain(main);
