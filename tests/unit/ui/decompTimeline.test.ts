import { describe, expect, it } from 'vitest';
import { buildDecompTrace } from '../../../src/swarm/decompTrace';
import { decompCaption, decompRows, kindColor } from '../../../src/ui/components/SwarmTimeline';
import { handEpisode, NO_CAPS } from '../swarm/fixtures/decompTraceEpisode';

describe('swarm-v2 timeline layout', () => {
  const trace = buildDecompTrace(handEpisode(), NO_CAPS);

  it('draws the orchestrator, then one row per subagent labelled with its kind', () => {
    const { rows, hidden } = decompRows(trace);
    expect(rows.map((r) => r.label)).toEqual(['orchestrator', 'large #0', 'small #1', 'small #2', 'searcher #3']);
    expect(hidden).toBe(0);
    // The orchestrator's own steps in each stage: launch 0-1, checks 7-9 and 9-11, launch 11-12, direct 17-21, finish 21-22.
    expect(rows[0].bars.map((b) => [b.start, b.end])).toEqual([[0, 1], [7, 9], [9, 11], [11, 12], [17, 21], [21, 22]]);
    expect(rows[1].bars).toMatchObject([{ start: 1, end: 7, done: 2, items: 2, color: kindColor(trace, 'large') }]);
    expect(rows[2].bars).toMatchObject([{ start: 1, end: 5, done: 0, items: 1 }]);
    expect(kindColor(trace, 'small')).not.toBe(kindColor(trace, 'large'));
  });

  it('marks checks on the row of the subagent whose claim was checked, and retries where the work was given again', () => {
    const { rows } = decompRows(trace);
    expect(rows[1].marks.map((m) => [m.type, m.at])).toEqual([['fail', 9], ['pass', 11]]);
    expect(rows[3].marks.map((m) => [m.type, m.at])).toEqual([['retry', 12], ['retry', 12]]);
    // The direct retry of subtask 3 is the orchestrator's own.
    expect(rows[0].marks.map((m) => [m.type, m.at])).toEqual([['retry', 17]]);
    expect(rows[2].marks).toEqual([]);
    expect(rows[4].marks).toEqual([]);
  });

  it('leaves rows past the cap out and counts them', () => {
    const { rows, hidden } = decompRows(trace, 2);
    expect(rows.map((r) => r.label)).toEqual(['orchestrator', 'large #0', 'small #1']);
    expect(hidden).toBe(2);
    // Marks of subagents not drawn are not moved elsewhere.
    expect(rows[0].marks.map((m) => m.at)).toEqual([17]);
  });

  it('says what happened in plain words', () => {
    const text = decompCaption(trace);
    expect(text).toContain('created 4 subagents (1 large, 2 small, 1 searcher)');
    expect(text).toContain('worked on 1 subtask itself');
    expect(text).toContain('checked 2 claims: 1 right, 1 wrong');
    expect(text).toContain('3 subtasks were given again (1 after a check found its claim wrong; 1 after a run that brought no claim; 1 as a second opinion on an unchecked claim)');
    expect(text).toContain('after 22 of its 30 critical steps (alone, the orchestrator would need 80)');
    expect(text).toContain('r_perf 0.75');
  });
});
