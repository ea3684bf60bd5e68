// "Adding an algorithm": an update rule module and one registry entry are all a new algorithm needs;
// `npm run train`'s own code then trains it (the settings table, --set and the preset read the registry).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeCheckpoint } from '../../../src/core/checkpoint';
import { trainCommand } from '../../../src/cli/trainCommand';

// The one registry line, added for this test only.
vi.mock('../../../src/config/registry', async (importOriginal) => {
  const registry = await importOriginal<typeof import('../../../src/config/registry')>();
  const { TOY } = await import('./toyAlgorithm/toyDescriptor');
  const ALGORITHM_DESCRIPTORS = [...registry.ALGORITHM_DESCRIPTORS, TOY];
  return {
    ...registry,
    ALGORITHM_DESCRIPTORS,
    ALGORITHM_IDS: ALGORITHM_DESCRIPTORS.map((d) => d.id),
    descriptorOf: (id: string) => ALGORITHM_DESCRIPTORS.find((d) => d.id === id) ?? registry.descriptorOf(id as never),
  };
});

/** Runs `npm run train` in-process with these flags: its exit code, stdout and stderr. */
async function train(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const code = await trainCommand(argv);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

afterEach(() => vi.restoreAllMocks());

describe('adding an algorithm: one update rule module and one registry entry', () => {
  it('trains through npm run train: its preset and setting, update lines with its metrics, a summary, a checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-toy-'));
    const checkpoint = join(dir, 'toy.parlckpt');
    const r = await train('--preset', 'toy-cartpole', '--seed', '4', '--set', 'toy.lr=0.1', '--checkpoint', checkpoint, '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; envSteps: number; metrics?: Record<string, number>; preset?: string; stopReason?: string });
    const updates = lines.filter((l) => l.type === 'update');
    expect(updates.length).toBeGreaterThan(1);
    expect(updates.every((u) => Number.isFinite(u.metrics?.loss))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', preset: 'toy-cartpole', stopReason: 'budget' });
    expect(lines.at(-1)!.envSteps).toBeGreaterThanOrEqual(2_000);
    const saved = decodeCheckpoint(new Uint8Array(readFileSync(checkpoint)));
    expect(saved.meta).toMatchObject({ preset: 'toy-cartpole', seed: 4 });
    // The setting reaches the update rule: the same seed with another step size ends elsewhere.
    const other = join(dir, 'other.parlckpt');
    expect((await train('--preset', 'toy-cartpole', '--seed', '4', '--set', 'toy.lr=0.2', '--checkpoint', other, '--quiet')).code).toBe(0);
    expect(decodeCheckpoint(new Uint8Array(readFileSync(other))).weights).not.toEqual(saved.weights);
  }, 120_000);

  it('checks its settings like any other: a value out of its range is one line naming the setting', async () => {
    const r = await train('--preset', 'toy-cartpole', '--set', 'toy.lr=5', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: toy\.lr: must be a number in \[0\.0001, 0\.5\], got 5/);
    expect(r.stdout).toBe('');
  });
});
