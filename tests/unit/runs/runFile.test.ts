import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import type { UpdateRecord } from '../../../src/runs/records';
import { decodeCheckpoint, encodeCheckpoint } from '../../../src/core/checkpoint';
import { exportRunFile, metricsCsv, parseRunFile, RUN_FILE_FORMAT, type SavedRun } from '../../../src/runs/runFile';

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
    expect(parseRunFile(JSON.stringify({ format: RUN_FILE_FORMAT, version: 2, run: run() }))).toMatchObject({ ok: false, reason: expect.stringContaining('version') });
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
});
