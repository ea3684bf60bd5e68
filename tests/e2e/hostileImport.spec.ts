/**
 * Hostile run files through the Import button: each is refused with a message that names what is
 * wrong, and every run saved before is unchanged, byte for byte in its export, after a reload.
 * A file that reuses a saved run's id is imported beside it, never over it.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { encodeCheckpoint } from '../../src/core/checkpoint';
import { resolveExperiment } from '../../src/config/config';
import { RUN_FILE_FORMAT, RUN_FILE_VERSION } from '../../src/runs/runFile';
import { test, expect } from './fixtures';

function update(n: number, extra: Record<string, unknown> = {}) {
  return {
    type: 'update',
    update: n,
    envSteps: 100 * n,
    episodes: 4 * n,
    wallSeconds: n / 2,
    returns: [10 + n, 12 + n, 9 + n, 20 + n],
    lengths: [10 + n, 12 + n, 9 + n, 20 + n],
    meanReturn20: 12.75 + n,
    stepsPerSecond: 200,
    metrics: { loss: 0.5 / n, entropy: 0.69 },
    actorStepsPerSecond: [100, 100],
    lostSegments: 0,
    ...extra,
  };
}

function runFile(run: Record<string, unknown>): string {
  return JSON.stringify({ format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, run });
}

const weights = encodeCheckpoint({ weights: [Float32Array.of(0.25, -0.5, 1.5, 2)], shapes: [[2, 2]], names: ['policy/0/kernel'], meta: { update: 2 } });
const base64 = Buffer.from(weights).toString('base64');

const alpha = {
  id: 'alpha-0001',
  name: 'alpha run',
  createdAt: 1_700_000_000_000,
  status: 'done',
  config: resolveExperiment('quickstart', { seed: 7 }),
  records: [update(1), update(2), { type: 'summary', preset: 'quickstart', seed: 7, backend: 'wasm', updates: 2, envSteps: 200, episodes: 8, wallSeconds: 1, finalMeanReturn20: 14.75, solved: null, stopReason: 'budget', lostSegments: 0, actorRespawns: 0 }],
  weights: { update: 2, envSteps: 200, base64 },
};
const beta = {
  id: 'beta-0002',
  name: 'beta run',
  createdAt: 1_700_000_100_000,
  status: 'stopped',
  config: resolveExperiment('impala-cartpole', { seed: 3 }),
  records: [update(1, { policyLags: [0, 1, 2] })],
};

/** Flip one byte in the middle of the weights: the checkpoint's CRC-32 no longer matches. */
function corrupted(b64: string): string {
  const bytes = Buffer.from(b64, 'base64');
  bytes[bytes.length - 3] ^= 0xff;
  return bytes.toString('base64');
}

const depth = 100_000;
const hostile: { name: string; text: string; says: RegExp }[] = [
  { name: 'not-json.json', text: '{"format": "parl-playground-run", "version": 1, "run": {', says: /not JSON/ },
  {
    name: 'deep-trace.json',
    text: runFile({ ...alpha, id: 'deep', records: [{ type: 'trace', update: 1, trace: '@', serialTrace: {} }] }).replace('"@"', `${'['.repeat(depth)}${']'.repeat(depth)}`),
    says: /run\.records\.0\.trace[.\d]*: nested more than 32 levels deep/,
  },
  { name: 'huge-lag.json', text: runFile({ ...beta, id: 'lag', records: [update(1, { policyLags: [4294967296] })] }), says: /run\.records\.0\.policyLags\.0/ },
  { name: 'infinite-return.json', text: runFile({ ...alpha, id: 'inf', records: [update(1)] }).replace('"returns":[11,', '"returns":[1e999,'), says: /run\.records\.0\.returns\.0/ },
  {
    name: 'many-metrics.json',
    text: runFile({ ...alpha, id: 'keys', records: [update(1, { metrics: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`m${i}`, i])) })] }),
    says: /run\.records\.0\.metrics: more than 64 metric keys/,
  },
  { name: 'many-episodes.json', text: runFile({ ...alpha, id: 'eps', records: [update(1, { returns: new Array(65_537).fill(1), lengths: new Array(65_537).fill(1) })] }), says: /run\.records\.0\.returns/ },
  { name: 'bad-weights.json', text: runFile({ ...alpha, id: 'w', weights: { update: 2, envSteps: 200, base64: corrupted(base64) } }), says: /run\.weights\.base64: not a readable PARLCKPT checkpoint/ },
  { name: 'bad-config.json', text: runFile({ ...alpha, id: 'cfg', config: { ...alpha.config, settings: { ...alpha.config.settings, actors: 1e9 } } }), says: /run\.config/ },
  { name: 'wrong-format.json', text: JSON.stringify({ format: 'something-else', version: 1, run: alpha }), says: /not a PARL Playground run file/ },
];

async function importFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('import-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

/** The run's export, as the page downloads it. */
async function exported(page: Page, id: string): Promise<unknown> {
  const download = page.waitForEvent('download');
  await page.locator(`[data-testid="run"][data-run-id="${id}"]`).getByTestId('export-run').click();
  return JSON.parse(readFileSync(await (await download).path(), 'utf8'));
}

test('hostile run files are refused with the reason and leave every saved run unchanged', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  for (const run of [alpha, beta]) {
    await importFile(page, `${run.id}.json`, runFile(run));
    await expect(page.getByTestId('notices')).toContainText(`Imported "${run.name}"`);
  }
  await expect(page.getByTestId('run')).toHaveCount(2);
  const before = { alpha: await exported(page, alpha.id), beta: await exported(page, beta.id) };
  // The exports are the files that went in (the store kept what it was given).
  expect(before.alpha).toEqual(JSON.parse(runFile(alpha)));
  expect(before.beta).toEqual(JSON.parse(runFile(beta)));

  for (const file of hostile) {
    await importFile(page, file.name, file.text);
    const notice = page.getByTestId('notices').locator('.notice-error').filter({ hasText: `Refused ${file.name}:` });
    await expect(notice, file.name).toHaveCount(1);
    await expect(notice, file.name).toContainText(file.says);
    await expect(page.getByTestId('run'), file.name).toHaveCount(2);
  }

  // A file that takes alpha's id (and claims to be running) is imported beside it, not over it.
  await importFile(page, 'impostor.json', runFile({ ...beta, id: alpha.id, name: 'impostor', status: 'running' }));
  await expect(page.getByTestId('notices')).toContainText('Imported "impostor"');
  await expect(page.getByTestId('run')).toHaveCount(3);
  const impostor = page.getByTestId('run').filter({ has: page.getByTestId('run-name').filter({ hasText: 'impostor' }) });
  await expect(impostor).not.toHaveAttribute('data-run-id', alpha.id);
  await expect(impostor).toHaveAttribute('data-status', 'interrupted');

  // What the store holds, read again after a reload: the two runs as they were, and the page works.
  await page.reload();
  await expect(page.getByTestId('run')).toHaveCount(3);
  expect(await exported(page, alpha.id)).toEqual(before.alpha);
  expect(await exported(page, beta.id)).toEqual(before.beta);
  await page.locator(`[data-testid="run"][data-run-id="${alpha.id}"]`).getByTestId('open-run').click();
  await expect.poll(async () => Number(await page.getByTestId('return-chart').getAttribute('data-points'))).toBeGreaterThan(0);
});
