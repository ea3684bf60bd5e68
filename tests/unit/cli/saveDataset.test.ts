import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trainCommand } from '../../../src/cli/trainCommand';
import { readDataset } from '../../../src/runs/dataset';
import { inProcess, spawnScriptSync } from './commandRuns';

/** The refusal is trainCommand's, checked in this process; the dataset run spawns the binary. */
const train = (...args: string[]) => inProcess(() => trainCommand(args));
const trainBinary = (...args: string[]) => spawnScriptSync('src/cli/train.ts', args, 240_000);

describe('npm run train -- --save-dataset', () => {
  it('refuses a run that cannot make a dataset before training, with exit 2 naming the flag', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parl-dataset-')), 'd.json');
    const r = await train('--preset', 'quickstart', '--save-dataset', file);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: --save-dataset: needs an off-policy Box-action run \(DDPG, TD3, SAC\), not reinforce$/);
    expect(existsSync(file)).toBe(false);
  });

  it('writes 100 episodes of the final SAC policy as a Pendulum dataset CQL can read', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parl-dataset-')), 'd.json');
    const r = trainBinary('--preset', 'sac-pendulum', '--steps', '1000', '--seed', '2', '--set', 'model.hidden=16', '--set', 'sac.batchSize=32', '--save-dataset', file, '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const d = readDataset(readFileSync(file, 'utf8'), { envId: 'Pendulum-v1', obsDim: 3, actionDim: 1 });
    // 100 episodes cut by Pendulum's 200-step time limit.
    expect(d.size).toBe(100 * 200);
    expect(d.source).toMatch(/^sac-pendulum \(sac, seed 2\): 100 episodes of the final policy/);
    expect(r.stderr).toMatch(/dataset: 20000 transitions of Pendulum-v1 .* → .*d\.json/);
  }, 240_000);
});
