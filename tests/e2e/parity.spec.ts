/**
 * The page and the CLI give the same run for a continuous-control link (issue 14): SAC and
 * Gaussian PPO on Pendulum, on wasm in both, compared record by record to the last bit. Beyond the
 * environment's sin/cos these runs go through exp, log and tanh in Float64 JavaScript (Box–Muller
 * exploration noise, exp(logStd), the squashing tanh), whose last bits differ between Chromium's V8
 * and Node 20's; src/core/portableMath.ts makes them equal.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveExperiment, type ExperimentConfig } from '../../src/config/config';
import { encodeExperiment } from '../../src/config/urlState';
import type { UpdateRecord } from '../../src/runs/records';
import { test, expect, expectStatus } from './fixtures';

const root = new URL('../../', import.meta.url).pathname;

// Small networks and budgets, so that both runs finish in a minute or two on a loaded machine.
const RUNS: [title: string, config: ExperimentConfig][] = [
  [
    'SAC on Pendulum',
    resolveExperiment('sac-pendulum', { backend: 'wasm', actors: 1, seed: 5, 'sampling.segmentLength': 16, 'model.hidden': 16, 'sac.learningStarts': 400, 'sac.batchSize': 32, 'run.envSteps': 1_200 }),
  ],
  [
    'Gaussian PPO on Pendulum',
    resolveExperiment('ppo-continuous-pendulum', { backend: 'wasm', actors: 1, envsPerActor: 2, seed: 5, 'sampling.segmentLength': 128, 'model.hidden': 16, 'ppo-continuous.updateEpochs': 2, 'ppo-continuous.numMinibatches': 4, 'run.envSteps': 2_048 }),
  ],
];

/** Clock-based metrics (msPerGradientStep, …): the only figures that may differ. */
const CLOCK = /^ms|seconds|persecond/i;

/** Everything an update record says about the run, without the clock-based figures. */
function episodesAndLosses(updates: UpdateRecord[]) {
  return updates.map(({ update, envSteps, episodes, returns, lengths, meanReturn20, metrics, lostSegments, policyLags }) => ({
    update,
    envSteps,
    episodes,
    returns,
    lengths,
    meanReturn20,
    metrics: Object.fromEntries(Object.entries(metrics).filter(([key]) => !CLOCK.test(key))),
    lostSegments,
    policyLags,
  }));
}

for (const [title, config] of RUNS) {
  test(`${title}: the page and the CLI give the same episodes and losses on wasm`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto(`/#x=${encodeExperiment(config)}`);
    // The CLI trains from the page's link at the same time as the page (node --import tsx, as npm run train).
    await expect(page.getByTestId('start')).toBeEnabled();
    const out = join(mkdtempSync(join(tmpdir(), 'parity-')), 'run.jsonl');
    const cli = new Promise<void>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/cli/train.ts', '--url', page.url(), '--quiet', '--out', out], { cwd: root, timeout: 240_000, maxBuffer: 64 * 2 ** 20 }, (err, _stdout, stderr) =>
        err ? reject(new Error(`npm run train failed: ${err.message}\n${stderr}`)) : resolve(),
      );
    });
    await page.getByTestId('start').click();
    await expectStatus(page, 'done', 240_000);
    const download = page.waitForEvent('download');
    await page.getByTestId('run').first().getByTestId('export-run').click();
    const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as { run: { records: { type: string }[] } };
    const pageRun = episodesAndLosses(exported.run.records.filter((r): r is UpdateRecord => r.type === 'update'));

    await cli;
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    const cliRun = episodesAndLosses(lines.filter((r): r is UpdateRecord => r.type === 'update'));

    const firstDiff = pageRun.findIndex((u, i) => JSON.stringify(u) !== JSON.stringify(cliRun[i]));
    expect(firstDiff, `page and CLI differ from update ${firstDiff + 1} on`).toBe(-1);
    expect(cliRun).toEqual(pageRun);
    // Episodes finished (Pendulum's 200-step limit) and the learner updated: the comparison has substance.
    expect(pageRun.at(-1)!.episodes).toBeGreaterThanOrEqual(5);
    expect(pageRun.some((u) => Object.keys(u.metrics).some((k) => /loss/i.test(k)))).toBe(true);
  });
}
