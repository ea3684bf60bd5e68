import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import type { UpdateRecord } from '../../../src/runs/records';
import { decodeCheckpoint, encodeCheckpoint } from '../../../src/core/checkpoint';
import { csvCell, exportRunFile, metricsCsv, parseRunFile, RUN_FILE_FORMAT, RUN_FILE_LINK_VERSIONS, RUN_FILE_VERSION, type SavedRun } from '../../../src/runs/runFile';
import { LINK_VERSION } from '../../../src/config/urlState';
import { fitUpdateRecord, RECORD_LIMITS } from '../../../src/runs/records';

const update = (i: number): UpdateRecord => ({
  type: 'update',
  update: i,
  envSteps: i * 100,
  episodes: i * 2,
  wallSeconds: i * 0.5,
  returns: [10 + i, 12 + i],
  lengths: [10 + i, 12 + i],
  meanReturn20: 11 + i,
  stepsPerSecond: 200,
  metrics: { loss: 0.5 / i, entropy: 0.69 },
  actorStepsPerSecond: [100, 100],
  lostSegments: 0,
});

const run = (): SavedRun => ({
  id: 'r1',
  name: 'first, "quoted"',
  createdAt: 1_700_000_000_000,
  status: 'done',
  config: resolveExperiment('quickstart', { seed: 7 }),
  records: [update(1), update(2)],
});

describe('run files', () => {
  it('round-trips a run exactly', () => {
    const back = parseRunFile(exportRunFile(run()));
    expect(back).toEqual({ ok: true, run: run() });
  });

  it('refuses bad files with a reason naming the field', () => {
    expect(parseRunFile('{not json')).toMatchObject({ ok: false, reason: expect.stringMatching(/^not JSON/) });
    expect(parseRunFile('{"format":"other"}')).toMatchObject({ ok: false, reason: expect.stringContaining(RUN_FILE_FORMAT) });
    const tooManyActors = JSON.parse(exportRunFile(run()));
    tooManyActors.run.config.settings.actors = 1_000;
    expect(parseRunFile(JSON.stringify(tooManyActors))).toMatchObject({ ok: false, reason: expect.stringContaining('run.config.settings.actors') });
    const badRecord = JSON.parse(exportRunFile(run()));
    badRecord.run.records[1].envSteps = -5;
    expect(parseRunFile(JSON.stringify(badRecord))).toMatchObject({ ok: false, reason: expect.stringContaining('run.records.1.envSteps') });
    const unknownType = JSON.parse(exportRunFile(run()));
    unknownType.run.records.push({ type: 'evil', payload: 1 });
    expect(parseRunFile(JSON.stringify(unknownType)).ok).toBe(false);
    const badPreset = JSON.parse(exportRunFile(run()));
    badPreset.run.config.preset = 'no-such-preset';
    expect(parseRunFile(JSON.stringify(badPreset))).toMatchObject({ ok: false, reason: expect.stringContaining('run.config.preset') });
    expect(parseRunFile(JSON.stringify({ format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION + 1, run: run() }))).toMatchObject({ ok: false, reason: expect.stringContaining('version') });
  });

  it('carries the run\'s weights bit for bit, and refuses weights that are not a checkpoint', () => {
    const weights = [new Float32Array([1.5, -0, Number.MIN_VALUE, 3.4e38]), new Float32Array(20_000).map((_, i) => Math.sin(i))];
    const bytes = encodeCheckpoint({ weights, shapes: [[4], [20_000]], meta: { update: 9 } });
    const withWeights: SavedRun = { ...run(), weights: { update: 9, envSteps: 900, bytes } };
    const back = parseRunFile(exportRunFile(withWeights));
    expect(back).toEqual({ ok: true, run: withWeights });
    if (!back.ok || !back.run.weights) throw new Error('no weights came back');
    expect(decodeCheckpoint(back.run.weights.bytes).weights).toEqual(weights);

    const notBase64 = JSON.parse(exportRunFile(withWeights));
    notBase64.run.weights.base64 = 'not base64 at all!';
    expect(parseRunFile(JSON.stringify(notBase64))).toMatchObject({ ok: false, reason: expect.stringMatching(/^run\.weights\.base64: not a readable PARLCKPT checkpoint/) });
    const notACheckpoint = JSON.parse(exportRunFile(withWeights));
    notACheckpoint.run.weights.base64 = btoa('PARLCKPX and then some bytes');
    expect(parseRunFile(JSON.stringify(notACheckpoint))).toMatchObject({ ok: false, reason: expect.stringContaining('run.weights.base64') });
  });

  it('writes the metrics as CSV, one row per update', () => {
    const csv = metricsCsv(run()).trim().split('\n');
    expect(csv[0]).toBe('update,envSteps,episodes,wallSeconds,meanReturn20,stepsPerSecond,lostSegments,entropy,loss');
    expect(csv).toHaveLength(3);
    expect(csv[2]).toBe('2,200,4,1,13,200,0,0.69,0.25');
  });

  // Issue 15, item 2: counts without an upper bound reached the renderers and the store.
  it('refuses a lag, a metric count, an episode count or a nesting depth past its cap, naming the field', () => {
    const hugeLag = JSON.parse(exportRunFile(run()));
    hugeLag.run.records[0].policyLags = [4294967296];
    expect(parseRunFile(JSON.stringify(hugeLag))).toMatchObject({ ok: false, reason: expect.stringMatching(/^run\.records\.0\.policyLags\.0: /) });

    const manyKeys = JSON.parse(exportRunFile(run()));
    manyKeys.run.records[0].metrics = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`m${i}`, i]));
    expect(parseRunFile(JSON.stringify(manyKeys))).toMatchObject({ ok: false, reason: expect.stringMatching(/^run\.records\.0\.metrics: more than 64 metric keys/) });

    const manyEpisodes = JSON.parse(exportRunFile(run()));
    manyEpisodes.run.records[0].returns = new Array(RECORD_LIMITS.episodesPerUpdate + 1).fill(1);
    expect(parseRunFile(JSON.stringify(manyEpisodes))).toMatchObject({ ok: false, reason: expect.stringContaining('run.records.0.returns') });

    // 100k nested arrays inside a trace (whose unknown keys are kept): refused before any store sees it.
    const deep = JSON.parse(exportRunFile(run()));
    deep.run.records.push({ type: 'trace', update: 1, trace: { note: 'NEST' }, serialTrace: {} });
    const text = JSON.stringify(deep).replace('"NEST"', '['.repeat(100_000) + ']'.repeat(100_000));
    expect(parseRunFile(text)).toMatchObject({ ok: false, reason: expect.stringMatching(/^run\.records\.2\.trace\.note(\.0)+: nested more than 32 levels deep$/) });
  });

  it('writes the newest version, whose config uses the names of the newest links', () => {
    expect(JSON.parse(exportRunFile(run())).version).toBe(RUN_FILE_VERSION);
    expect(RUN_FILE_LINK_VERSIONS.get(RUN_FILE_VERSION)).toBe(LINK_VERSION);
  });

  it('loads a swarm run saved before link version 4 (a version-1 file) under the new names, with the same settings', () => {
    // Written by exportRunFile before the swarm had one name (git cde8a1b).
    const text = readFileSync(new URL('./fixtures/run-file-v1-swarm.json', import.meta.url), 'utf8');
    const old = JSON.parse(text) as { version: number; run: { config: { preset: string; settings: Record<string, unknown> } } };
    expect(old.version).toBe(1);
    expect(old.run.config.preset).toBe('swarm-v2-demo-start');
    const back = parseRunFile(text);
    expect(back).toMatchObject({ ok: true });
    if (!back.ok) return;
    // Its preset was retired since (every swarm preset starts from one policy now): it loads as the
    // annealed preset with what it trained, and says so; the start it had is named, not kept silently.
    expect(back.run.config.preset).toBe('swarm-annealed');
    const reasons = (back.ignored ?? []).map((i) => `${i.field}: ${i.reason}`).join('\n');
    expect(reasons).toMatch(/preset: preset "swarm-v2-demo-start" is retired: every swarm preset now starts from the same initial policy/);
    expect(reasons).toMatch(/settings\.swarm\.start: not a setting of this version/);
    expect(reasons).toMatch(/settings\.swarm\.teacher: not a setting of this version/);
    expect(back.run.config.settings).toMatchObject({ seed: 3, algorithm: 'swarm', 'swarm.lambda1': 0.2 });
    // Exported again, it is a file of today that reads back the same.
    expect(parseRunFile(exportRunFile(back.run))).toEqual({ ok: true, run: back.run });
  });

  it("a version-1 file's swarm.* are the retired first swarm's: left out, named; in a version-2 file they are the swarm's", () => {
    const file = JSON.parse(exportRunFile({ ...run(), config: resolveExperiment('swarm-annealed') }));
    file.version = 1;
    file.run.config.preset = 'swarm-v2-annealed';
    file.run.config.settings = { seed: 2, algorithm: 'swarm-v2', 'swarm.lambda1': 0.05 };
    const back = parseRunFile(JSON.stringify(file));
    expect(back).toMatchObject({ ok: true, ignored: [{ field: 'run.config.settings.swarm.lambda1', reason: 'a setting of the retired first agent swarm' }] });
    if (back.ok) expect(back.run.config).toEqual(resolveExperiment('swarm-annealed', { seed: 2 }));
    file.version = 2;
    file.run.config.preset = 'swarm-annealed';
    file.run.config.settings = { ...resolveExperiment('swarm-annealed').settings, 'swarm.lambda1': 0.05 };
    const now = parseRunFile(JSON.stringify(file));
    expect(now).toMatchObject({ ok: true });
    if (now.ok) expect(now.run.config).toEqual(resolveExperiment('swarm-annealed', { 'swarm.lambda1': 0.05 }));
  });

  it("loads an older file with the retired first swarm's episode traces, without them", () => {
    const file = JSON.parse(exportRunFile(run()));
    const records = file.run.records.length;
    file.run.records.push({ type: 'trace', update: 1, trace: { task: 'wideSearch', stages: [] }, serialTrace: {} });
    const back = parseRunFile(JSON.stringify(file));
    expect(back.ok).toBe(true);
    if (back.ok) expect(back.run.records).toHaveLength(records);
  });

  it("imports its own export of a run whose loss went NaN (the metric comes back as NaN)", () => {
    const diverged: SavedRun = { ...run(), records: [{ ...update(1), metrics: { loss: Number.NaN, entropy: Infinity } }] };
    const back = parseRunFile(exportRunFile(diverged));
    expect(back.ok).toBe(true);
    if (back.ok) expect((back.run.records[0] as UpdateRecord).metrics).toEqual({ loss: Number.NaN, entropy: Number.NaN });
  });

  it('keeps produced update records inside the caps and drops non-finite episodes', () => {
    const r = fitUpdateRecord({
      ...update(1),
      returns: [1, Number.NaN, Infinity, 4],
      lengths: [10, 11, 12, 13],
      meanReturn20: Number.NaN,
      metrics: Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`m${i}`, i])),
      policyLags: [-3, 2.4, 4294967296],
    });
    expect(r.returns).toEqual([1, 4]);
    expect(r.lengths).toEqual([10, 13]);
    expect(r.meanReturn20).toBeNull();
    expect(Object.keys(r.metrics)).toHaveLength(64);
    expect(r.policyLags).toEqual([0, 2, 1_000_000]);
    expect(parseRunFile(exportRunFile({ ...run(), records: [r] })).ok).toBe(true);
  });

  it('keeps returns that come without lengths (ES scores perturbations, not episodes)', () => {
    const r = fitUpdateRecord({ ...update(1), returns: [3, Number.NaN, 5], lengths: [] });
    expect(r.returns).toEqual([3, 5]);
    expect(r.lengths).toEqual([]);
  });

  // Issue 15, item 8: a cell a spreadsheet would run as a formula.
  it('escapes CSV cells that start with =, +, -, @, a tab or a carriage return, but not negative numbers', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell(-0.5)).toBe('-0.5');
    const evil: SavedRun = { ...run(), records: [{ ...update(1), metrics: { '=1+2': -3 } }] };
    const [header, row] = metricsCsv(evil).trim().split('\n');
    expect(header.endsWith(",'=1+2")).toBe(true);
    expect(row.endsWith(',-3')).toBe(true);
  });

  it("never throws on a setting named like an object's own method: the key is ignored, named with its reason, and the run loads", () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const file = JSON.parse(exportRunFile(run())) as { run: { config: { settings: Record<string, unknown> } } };
      Object.defineProperty(file.run.config.settings, name, { value: 1, enumerable: true });
      const back = parseRunFile(JSON.stringify(file));
      expect(back).toEqual({ ok: true, run: run(), ignored: [{ field: `run.config.settings.${name}`, reason: 'not a setting of this version' }] });
    }
  });
});
