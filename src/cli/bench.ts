/**
 * Benchmarks: `npm run bench -- NAME [--seeds 1,2,3,4,5] [--json FILE]`. Each prints a table and
 * its figures; the latest figures are kept in BENCHMARKS.md with the command and the machine.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { actorScalingBenchmark, envThroughputBenchmark, policyLagBenchmark, solveCartpoleBenchmark } from './benchmarks/engine';
import { quickstartBenchmark } from './benchmarks/quickstart';
import { swarmScaleBenchmark, swarmStoryBenchmark } from './benchmarks/swarm';
import type { Benchmark } from './benchmarks/types';
import { uiBenchmark } from './benchmarks/ui';
import { runMain } from './runMain';

const BENCHMARKS: Benchmark[] = [
  quickstartBenchmark,
  envThroughputBenchmark,
  actorScalingBenchmark,
  solveCartpoleBenchmark,
  policyLagBenchmark, swarmStoryBenchmark, swarmScaleBenchmark, uiBenchmark];

function usage(): string {
  return `Usage: npm run bench -- NAME [--seeds 1,2,3,4,5] [--json FILE]\n\n${BENCHMARKS.map((b) => `  ${b.name.padEnd(16)} ${b.description}`).join('\n')}`;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const name = argv[0];
  const bench = BENCHMARKS.find((b) => b.name === name);
  if (!bench) {
    process.stderr.write(`${name ? `error: unknown benchmark ${JSON.stringify(name)}\n` : ''}${usage()}\n`);
    return 2;
  }
  const flags: Record<string, string> = {};
  for (let i = 1; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) {
      process.stderr.write(`error: expected --flag value pairs, got ${JSON.stringify(argv[i])}\n${usage()}\n`);
      return 2;
    }
    flags[argv[i].slice(2)] = argv[i + 1];
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
  if (flags.json) writeFileSync(flags.json, JSON.stringify({ benchmark: bench.name, machine, figures: result.figures }, null, 2));
  return 0;
}

runMain(main);
