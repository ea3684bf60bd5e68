/**
 * What `npm run train` does (src/cli/train.ts is its entry): parse the flags, train, write the
 * records and checkpoints. Exported so a test can run the same path in-process.
 */
import { closeSync, lstatSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { ConfigError } from '../config/config';
import { budgetDone, budgetOf, budgetValue } from '../config/budget';
import type { RunRecord, SummaryRecord } from '../runs/records';
import { formatSwarmHeadline, swarmHeadline, type SwarmHeadline } from '../swarm/headline';
import { nodePlatform } from './nodePlatform';
import { saveDataset } from './dataset';
import { canSaveDataset, SAVED_DATASET_EPISODES } from '../runs/dataset';
import { TrainingRun } from '../engine/trainer';
import { checkClusterUrl, checkOutputPath, parseTrainArgs, TRAIN_USAGE, type TrainArgs } from './args';
import { printHelpIfAsked } from './help';
import { ProgressBar } from './progress';
import { oneLine } from './runMain';
import { takeClusterFlags } from '../cluster/flags';
import { joinClusterAsLearner } from '../cluster/learner';

/** Parse the flags and check every output path; a ConfigError names the flag. */
function argsOrError(argv: string[]): TrainArgs {
  const args = parseTrainArgs(argv);
  if (args.out !== null) checkOutputPath('--out', args.out);
  if (args.saveDataset !== null) {
    if (!canSaveDataset(args.config)) throw new ConfigError('--save-dataset', `needs an off-policy Box-action run (DDPG, TD3, SAC), not ${args.config.settings.algorithm}`);
    checkOutputPath('--save-dataset', args.saveDataset, { regularFile: true });
  }
  if (args.checkpoint !== null) {
    checkOutputPath('--checkpoint', args.checkpoint, { regularFile: true });
    checkOutputPath('--checkpoint', `${args.checkpoint}.partial`, { regularFile: true });
  }
  return args;
}

/** Replace `path` with `bytes` (beside it, then rename), never renaming over anything but a regular file. */
function writeCheckpoint(path: string, bytes: Uint8Array): void {
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(path);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isFile()) throw new Error(`${path} is no longer a regular file; not replacing it`);
  writeFileSync(`${path}.partial`, bytes);
  renameSync(`${path}.partial`, path);
}

/**
 * How the entry's Ctrl-C / SIGTERM handler reaches the run: `stop` is set once the run exists, and
 * `signalled` says a signal came before it did (the entry installs its handler first thing).
 */
export interface StopRequests {
  stop: (() => void) | null;
  signalled: boolean;
}

/** Runs `npm run train` with these flags (argv without node and the script); resolves to the exit code. */
export async function trainCommand(argv: string[], stops: StopRequests = { stop: null, signalled: false }): Promise<number> {
  let run: TrainingRun | null = null;
  let args: TrainArgs;
  let cluster: ReturnType<typeof takeClusterFlags>['cluster'];
  if (printHelpIfAsked(argv, TRAIN_USAGE)) return 0;
  try {
    checkClusterUrl(argv);
    const taken = takeClusterFlags(argv);
    cluster = taken.cluster;
    args = argsOrError(taken.rest);
  } catch (err) {
    if (err instanceof Error && !(err instanceof ConfigError) && /^--(cluster|creds)/.test(err.message)) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  for (const part of args.ignored) process.stderr.write(`warning: link part ${part.field} ignored: ${part.reason}\n`);
  for (const c of args.changes) process.stderr.write(`change: ${c.key} = ${JSON.stringify(c.value)} before update ${c.update} (from the link)\n`);

  const s = args.config.settings;
  let outFd: number | null = null;
  try {
    if (args.out !== null) outFd = openSync(args.out, 'w');
  } catch (err) {
    process.stderr.write(`error: --out: ${oneLine(err)}\n`);
    return 2;
  }
  const budget = budgetOf(s.algorithm);
  const bar = args.quiet ? null : new ProgressBar(budgetValue(s));
  let writeError: string | null = null;
  // One line, once, then stop the run: its records can no longer be kept.
  const fail = (what: string, err: unknown) => {
    if (writeError) return;
    writeError = `${what}: ${oneLine(err)}`;
    process.stderr.write(`${bar ? '\n' : ''}error: ${writeError}\n`);
    run?.stop();
  };
  const write = (record: RunRecord) => {
    const line = `${JSON.stringify(record)}\n`;
    process.stdout.write(line);
    if (outFd !== null && !writeError) {
      try {
        writeSync(outFd, line);
      } catch (err) {
        fail(`could not write --out ${args.out}`, err);
      }
    }
  };

  // --cluster: actors run in the cluster's actor hosts instead of local worker threads.
  const clusterLink = cluster ? await joinClusterAsLearner(cluster.server, cluster.creds, (line) => process.stderr.write(`${line}\n`), cluster.pack) : null;
  let lastWeights: Uint8Array | null = null;
  let lastSwarm: SwarmHeadline | null = null;
  run = new TrainingRun(
    args.config,
    (record) => {
      if (record.type === 'swarm') lastSwarm = swarmHeadline(record.episodes);
      if (record.type === 'summary' && lastSwarm) {
        // A swarm run's summary line carries its headline figures (its last update's episodes).
        const withSwarm: SummaryRecord & { swarm: SwarmHeadline } = { ...record, swarm: lastSwarm };
        write(withSwarm);
      } else if (record.type === 'update' || record.type === 'summary' || record.type === 'change') write(record);
      if (record.type === 'checkpoint') lastWeights = record.bytes;
      if (record.type === 'checkpoint' && args.checkpoint && !writeError) {
        try {
          writeCheckpoint(args.checkpoint, record.bytes);
        } catch (err) {
          fail('could not write the checkpoint', err);
        }
      }
      if (record.type === 'backend') process.stderr.write(`backend: ${record.name} (${record.reason})\n`);
      if (record.type === 'notice') {
        process.stderr.write(`${bar ? '\n' : ''}${record.level}: ${record.message}\n`);
        // Headless there is nobody to press resume: a paused run (NaN loss) ends here.
        if (record.level === 'error') run?.stop();
      }
      if (record.type === 'update' && bar) {
        const mean = record.meanReturn20 === null ? '-' : record.meanReturn20.toFixed(1);
        const done = budgetDone(budget.unit, record);
        const of = budget.unit === 'envSteps' ? '' : `${done} ${budget.label}  `;
        bar.update(done, `${of}update ${record.update}  episodes ${record.episodes}  mean20 ${mean}  ${Math.round(record.stepsPerSecond)} steps/s`);
      }
    },
    nodePlatform(),
    { changes: args.changes },
  );
  const started = run;
  stops.stop = () => started.stop();
  if (stops.signalled) started.stop();
  const summary = await started.run();
  await clusterLink?.close();
  bar?.finish(`${summary.stopReason}: ${summary.episodes} episodes, ${summary.envSteps} steps, ${summary.wallSeconds.toFixed(1)} s${lastSwarm ? `; swarm: ${formatSwarmHeadline(lastSwarm)}` : ''}`);
  if (outFd !== null) {
    try {
      closeSync(outFd);
    } catch (err) {
      fail(`could not write --out ${args.out}`, err);
    }
  }
  if (args.saveDataset !== null && lastWeights && summary.stopReason !== 'error') {
    try {
      process.stderr.write(`${await saveDataset(args.config, lastWeights, SAVED_DATASET_EPISODES, args.saveDataset)}\n`);
    } catch (err) {
      fail('could not save the dataset', err);
    }
  }
  return summary.stopReason === 'error' || writeError ? 1 : 0;
}

