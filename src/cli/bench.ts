/**
 * Benchmarks: `npm run bench -- NAME [--seeds 1,2,3,4,5] [--json FILE]`. Each prints a table and
 * its figures; the latest figures are kept in BENCHMARKS.md with the command and the machine.
 */
import { writeFileSync } from 'node:fs';
import { outputPathProblem } from './args';
import { cpus, totalmem } from 'node:os';
import { actorScalingBenchmark, envThroughputBenchmark, policyLagBenchmark, solveCartpoleBenchmark } from './benchmarks/engine';
import { quickstartBenchmark } from './benchmarks/quickstart';
import { offlinePendulumBenchmark, solveMountainCarContinuousBenchmark, solvePendulumBenchmark } from './benchmarks/continuous';
import { swarmScaleBenchmark, swarmStoryBenchmark } from './benchmarks/swarm';
import { swarmBaselinesBenchmark } from './benchmarks/swarmBaselines';
import type { Benchmark } from './benchmarks/types';
import { fuzzBenchmark } from './benchmarks/fuzz';
import { profileBenchmark } from './benchmarks/profile';
import { uiBenchmark } from './benchmarks/ui';
import { marlBenchmark } from './benchmarks/marl';
import { soakBenchmark } from './benchmarks/soak';
import { oneLine, runMain } from './runMain';
import { clusterScalingBenchmark } from './benchmarks/cluster';
import { gpuBenchmark } from './benchmarks/gpu';

const BENCHMARKS: Benchmark[] = [
  quickstartBenchmark,
  envThroughputBenchmark,
  actorScalingBenchmark,
  solveCartpoleBenchmark,
  policyLagBenchmark, swarmStoryBenchmark, swarmScaleBenchmark, uiBenchmark, fuzzBenchmark,
  swarmBaselinesBenchmark, profileBenchmark,
  solvePendulumBenchmark, solveMountainCarContinuousBenchmark, offlinePendulumBenchmark,
  soakBenchmark, marlBenchmark,
  clusterScalingBenchmark, gpuBenchmark];

function usage(): string {
  return `Usage: npm run bench -- NAME [--seeds 1,2,3,4,5] [--json FILE]\n\n${BENCHMARKS.map((b) => `  ${b.name.padEnd(16)} ${b.description}`).join('\n')}\n\n  npm run bench -- compare --ref GITREF [--seeds 1,2,3,4,5] -- NAME [flags]\n                   runs NAME in GITREF's tree and in this one, seed by seed, and prints both side by side`;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const name = argv[0];
  if (name === 'compare') return (await import('./benchmarks/compare')).compareMain(argv.slice(1));
  const bench = BENCHMARKS.find((b) => b.name === name);
  if (!bench) {
    process.stderr.write(`${name ? `error: unknown benchmark ${JSON.stringify(name)}\n` : ''}${usage()}\n`);
    return 2;
  }
  // No prototype: a flag named --constructor or --__proto__ is just a flag.
  const flags = Object.create(null) as Record<string, string>;
  for (let i = 1; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) {
      process.stderr.write(`error: expected --flag value pairs, got ${JSON.stringify(argv[i])}\n${usage()}\n`);
      return 2;
    }
    const key = argv[i].slice(2);
    if (Object.hasOwn(flags, key)) {
      process.stderr.write(`error: ${argv[i]}: is given more than once\n`);
      return 2;
    }
    flags[key] = argv[i + 1];
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
  const text = `## ${bench.name}\n\n${bench.description}.\n\nCommand: \`npm run bench -- ${argv.join(' ')}\`  \nMachine: ${machine}  \nDate: ${new Date().toISOString().slice(0, 10)}, took ${((Date.now() - started) / 1000).toFixed(0)} s\n\n${result.table}\n`;
  process.stdout.write(`${text}\n`);
  if (flags.json !== undefined) {
    try {
      writeFileSync(flags.json, JSON.stringify({ benchmark: bench.name, machine, figures: result.figures }, null, 2));
    } catch (err) {
      process.stderr.write(`error: could not write --json ${flags.json}: ${oneLine(err)}\n`);
      return 1;
    }
  }
  return 0;
}

runMain(main);
