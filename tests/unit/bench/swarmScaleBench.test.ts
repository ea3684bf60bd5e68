import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaleConfig, scaleIntro, scaleOptions } from '../../../bench/swarmStory';
import { resolveExperiment } from '../../../src/config/config';
import { swarmOptionsFrom } from '../../../src/engine/loops/swarm';
import { spawnScriptSync } from '../cli/commandRuns';


describe('npm run bench -- swarm-scale (the swarm)', () => {
  it("says its configuration is not the swarm-scale preset's, with both sets of values", () => {
    const cli = scaleConfig(scaleOptions(6));
    const preset = scaleConfig(swarmOptionsFrom(resolveExperiment('swarm-scale', {}).settings));
    expect(cli).toMatchObject({ hidden: 16, subtasks: 100, maxSize: 10, updates: 6, annealUpdates: 3 });
    expect(preset).toMatchObject({ subtasks: 100, updates: 60, annealUpdates: 30 });
    const intro = scaleIntro(cli, preset);
    expect(intro).toContain("This CLI configuration is not the swarm-scale preset's");
    expect(intro).toContain(`hidden size 16 (the preset: ${preset.hidden})`);
    expect(intro).toContain(`subtask sizes 1-10 (the preset: 1-${preset.maxSize})`);
    expect(intro).toContain(`= 3 of 6 updates (the preset: over 30 of 60)`);
  });

  it('prints critical ÷ serial and the finish rate per update, and writes them to --json (one update)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'swarm-scale-'));
    try {
      const json = join(dir, 'out.json');
      const r = spawnScriptSync('bench/bench.ts', ['swarm-scale', '--updates', '1', '--json', json], 120_000);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("not the swarm-scale preset's");
      const header = r.stdout.split('\n').find((l) => l.startsWith('| update |')) ?? '';
      expect(header).toContain('| critical ÷ serial (median) | finish rate (median) |');
      const figures = (JSON.parse(readFileSync(json, 'utf8')) as { figures: { updates: Record<string, number>[]; config: Record<string, number>; presetConfig: Record<string, number> } }).figures;
      expect(figures.updates).toHaveLength(1);
      const u = figures.updates[0];
      expect(u.criticalOverSerial).toBeGreaterThan(0);
      expect(u.finishRate).toBeGreaterThanOrEqual(0);
      expect(u.finishRate).toBeLessThanOrEqual(1);
      expect(figures.config.hidden).toBe(16);
      expect(figures.presetConfig.updates).toBe(60);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
