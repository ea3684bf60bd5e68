/**
 * Headless training from the command line, with the same experiment configs as the browser.
 *
 *   npm run train -- --preset quickstart --seed 3 --out run.jsonl --checkpoint policy.parlckpt
 *
 * Progress goes to stderr; one JSON line per update and a final summary line go to stdout (and
 * to --out). --checkpoint keeps the learner's newest weights in a file, rewritten about every
 * 10 s and at the end. A bad config exits with code 2 and one line naming the field.
 */
import { accessSync, constants, createWriteStream, renameSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../config/config';
import type { RunRecord } from '../runs/records';
import { nodePlatform } from './nodePlatform';
import { TrainingRun } from '../engine/trainer';
import { parseTrainArgs } from './args';
import { ProgressBar } from './progress';
import { runMain } from './runMain';

async function main(): Promise<number> {
  let args;
  try {
    args = parseTrainArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (args.checkpoint) {
    try {
      accessSync(dirname(args.checkpoint), constants.W_OK);
    } catch {
      process.stderr.write(`error: --checkpoint: cannot write to the folder ${dirname(args.checkpoint)}\n`);
      return 2;
    }
  }
  for (const part of args.ignored) process.stderr.write(`warning: link part ${part.field} ignored: ${part.reason}\n`);

  const s = args.config.settings;
  const file: WriteStream | null = args.out ? createWriteStream(args.out) : null;
  const bar = args.quiet ? null : new ProgressBar(s['run.envSteps']);
  const write = (record: RunRecord) => {
    const line = `${JSON.stringify(record)}\n`;
    process.stdout.write(line);
    file?.write(line);
  };

  let checkpointError: string | null = null;
  const run = new TrainingRun(
    args.config,
    (record) => {
      if (record.type === 'update' || record.type === 'summary') write(record);
      if (record.type === 'checkpoint' && args.checkpoint && !checkpointError) {
        try {
          // Write beside it, then rename: an interrupted run never leaves half a file.
          writeFileSync(`${args.checkpoint}.partial`, record.bytes);
          renameSync(`${args.checkpoint}.partial`, args.checkpoint);
        } catch (err) {
          checkpointError = err instanceof Error ? err.message : String(err);
          process.stderr.write(`${bar ? '\n' : ''}error: could not write the checkpoint: ${checkpointError}\n`);
          run.stop();
        }
      }
      if (record.type === 'backend') process.stderr.write(`backend: ${record.name} (${record.reason})\n`);
      if (record.type === 'notice') {
        process.stderr.write(`${bar ? '\n' : ''}${record.level}: ${record.message}\n`);
        // Headless there is nobody to press resume: a paused run (NaN loss) ends here.
        if (record.level === 'error') run.stop();
      }
      if (record.type === 'update' && bar) {
        const mean = record.meanReturn20 === null ? '-' : record.meanReturn20.toFixed(1);
        bar.update(record.envSteps, `update ${record.update}  episodes ${record.episodes}  mean20 ${mean}  ${Math.round(record.stepsPerSecond)} steps/s`);
      }
    },
    nodePlatform(),
  );
  const stopOnSignal = () => run.stop();
  process.once('SIGINT', stopOnSignal);
  const summary = await run.run();
  bar?.finish(`${summary.stopReason}: ${summary.episodes} episodes, ${summary.envSteps} steps, ${summary.wallSeconds.toFixed(1)} s`);
  await new Promise<void>((resolve) => (file ? file.end(resolve) : resolve()));
  return summary.stopReason === 'error' || checkpointError ? 1 : 0;
}

runMain(main);
