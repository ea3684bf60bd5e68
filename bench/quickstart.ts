/**
 * quickstart: how many episodes and seconds REINFORCE (the QuickStart preset) needs on
 * CartPole-v1 to reach a mean return of 195 over the last 20 episodes, per seed.
 */
import { resolveExperiment } from '../src/config/config';
import { nodePlatform } from '../src/cli/nodePlatform';
import { TrainingRun } from '../src/engine/trainer';
import { markdownTable, median, type Benchmark } from './types';

const TARGET = 195;

export const quickstartBenchmark: Benchmark = {
  name: 'quickstart',
  description: `REINFORCE on CartPole-v1: episodes and wall seconds to a mean return of ${TARGET} over 20 episodes`,
  help: { seeds: 'one run per seed (default 1,2,3,4,5)', flags: [] },
  async run({ seeds }) {
    const rows: (string | number)[][] = [];
    const solved: { episodes: number; seconds: number; steps: number }[] = [];
    for (const seed of seeds) {
      const config = resolveExperiment('quickstart', { seed, 'run.targetReturn': TARGET, 'run.stopAtTarget': true, 'run.envSteps': 1_000_000 });
      const run = new TrainingRun(config, () => undefined, nodePlatform());
      const summary = await run.run();
      if (summary.solved) {
        solved.push({ episodes: summary.solved.episodes, seconds: summary.solved.wallSeconds, steps: summary.solved.envSteps });
        rows.push([seed, summary.solved.episodes, summary.solved.envSteps, summary.solved.wallSeconds.toFixed(1), summary.backend]);
      } else {
        rows.push([seed, 'not solved', summary.envSteps, summary.wallSeconds.toFixed(1), summary.backend]);
      }
      process.stderr.write(`seed ${seed}: ${summary.solved ? `solved after ${summary.solved.episodes} episodes` : 'not solved'}\n`);
    }
    const ep = solved.map((s) => s.episodes);
    const sec = solved.map((s) => s.seconds);
    rows.push([
      'median',
      ep.length ? median(ep) : '-',
      solved.length ? median(solved.map((s) => s.steps)) : '-',
      sec.length ? median(sec).toFixed(1) : '-',
      `${solved.length}/${seeds.length} solved`,
    ]);
    return {
      table: markdownTable(['seed', 'episodes to 195', 'env steps', 'wall s', 'backend'], rows),
      figures: { target: TARGET, solved: solved.length, seeds: seeds.length, medianEpisodes: median(ep), medianSeconds: median(sec), runs: solved },
    };
  },
};
