import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { RECORD_LIMITS, type SwarmTraceRecord } from '../../../src/runs/records';
import { exportRunFile, isPersisted, parseRunFile, type SavedRun } from '../../../src/runs/runFile';
import { buildSwarmTrace } from '../../../src/swarm/swarmTrace';
import { handEpisode, NO_CAPS } from '../swarm/fixtures/swarmTraceEpisode';

const record = (): SwarmTraceRecord => ({ type: 'swarmTrace', update: 10, trace: buildSwarmTrace(handEpisode(), NO_CAPS) });

const run = (records: SavedRun['records']): SavedRun => ({
  id: 'v2',
  name: 'swarm',
  createdAt: 1_700_000_000_000,
  status: 'done',
  config: resolveExperiment('swarm-annealed', { seed: 3 }),
  records,
});

describe('swarm trace records in run files', () => {
  it('are kept with the run and round-trip exactly', () => {
    expect(isPersisted(record())).toBe(true);
    expect(parseRunFile(exportRunFile(run([record()])))).toEqual({ ok: true, run: run([record()]) });
  });

  it("made before link version 4, a file names them 'decompTrace': they load as swarm traces, checked the same", () => {
    const old = JSON.parse(exportRunFile(run([record()])));
    old.run.records[0].type = 'decompTrace';
    expect(parseRunFile(JSON.stringify(old))).toEqual({ ok: true, run: run([record()]) });
    old.run.records[0].trace.retries[0].reason = 'because';
    expect(parseRunFile(JSON.stringify(old))).toMatchObject({ ok: false, reason: expect.stringContaining('run.records.0.trace.retries.0.reason') });
  });

  it('refuse a trace past its caps or with a bad field, naming it', () => {
    const tooMany = JSON.parse(exportRunFile(run([record()])));
    const sub = tooMany.run.records[0].trace.subagents[0];
    tooMany.run.records[0].trace.subagents = Array.from({ length: RECORD_LIMITS.swarmTraceSubagents + 1 }, (_, id) => ({ ...sub, id }));
    expect(parseRunFile(JSON.stringify(tooMany))).toMatchObject({ ok: false, reason: expect.stringContaining('run.records.0.trace.subagents') });

    const items = JSON.parse(exportRunFile(run([record()])));
    const many = Array.from({ length: 3_000 }, (_, k) => ({ subtask: k, outcome: 'completed' }));
    items.run.records[0].trace.subagents = Array.from({ length: 5 }, (_, id) => ({ ...sub, id, items: many }));
    expect(parseRunFile(JSON.stringify(items))).toMatchObject({ ok: false, reason: expect.stringContaining('subagent items') });

    const badMark = JSON.parse(exportRunFile(run([record()])));
    badMark.run.records[0].trace.retries[0].reason = 'because';
    expect(parseRunFile(JSON.stringify(badMark))).toMatchObject({ ok: false, reason: expect.stringContaining('run.records.0.trace.retries.0.reason') });
  });
});
