/**
 * A recorded swarm episode (a 'decompTrace' record) as a timeline along the critical-step axis:
 * one row for the orchestrator (its own steps in each stage, coloured by what it did), then one row
 * per subagent labelled with its kind, its bar from when it started to when it returned, a strip
 * under it with the share of its items that came back, marks for the orchestrator's checks of its
 * claims (passed / failed) and for retries (a subtask given again), the hard budget as a dashed
 * line, and a caption in plain words.
 */
import type { DecompTrace, DecompTraceStage, RetryReason } from '../../swarm/decompTrace';
import { usePlayground } from '../store';

const OUTCOME_COLORS = { done: '#4ade80', failed: '#f87171', timeout: '#f59e0b' } as const;
const ORCH = '#38bdf8';
/** Subagent rows drawn at most (the scale preset creates up to about 100 per episode). */
export const MAX_DECOMP_ROWS = 120;
/** The side panel is narrow, and rows need legible labels. */
const DW = 420;
const DLABEL_W = 78;
const KIND_COLORS = ['#c084fc', '#facc15', '#2dd4bf', '#fb7185', '#a3e635', '#f472b6', '#60a5fa', '#fdba74'];
const STAGE_COLORS: Record<DecompTraceStage['kind'], string> = { launch: ORCH, direct: '#94a3b8', check: '#e2e8f0', finish: '#64748b' };
const MARK_COLORS = { pass: OUTCOME_COLORS.done, fail: OUTCOME_COLORS.failed, retry: OUTCOME_COLORS.timeout } as const;
const RETRY_WORDS: Record<RetryReason, string> = { refuted: 'after a check found its claim wrong', failed: 'after a run that brought no claim', unchecked: 'as a second opinion on an unchecked claim' };

export interface DecompMark {
  at: number;
  type: 'pass' | 'fail' | 'retry';
  title: string;
}

export interface DecompRow {
  label: string;
  /** 'orchestrator' or a subagent kind. */
  kind: string;
  bars: { start: number; end: number; color: string; title: string; done: number; items: number }[];
  marks: DecompMark[];
}

export function kindColor(trace: Pick<DecompTrace, 'kinds'>, kind: string): string {
  const i = trace.kinds.indexOf(kind);
  return i >= 0 ? KIND_COLORS[i % KIND_COLORS.length] : '#cbd5e1';
}

/** The rows the timeline draws: the orchestrator, then the first `maxRows` subagents in the order they were created. */
export function decompRows(trace: DecompTrace, maxRows = MAX_DECOMP_ROWS): { rows: DecompRow[]; hidden: number } {
  const orch: DecompRow = {
    label: 'orchestrator',
    kind: 'orchestrator',
    bars: trace.stages.map((st) => ({
      start: st.start,
      end: st.start + st.mainSteps,
      color: STAGE_COLORS[st.kind],
      title: `stage ${st.index}: ${st.kind}${st.subtask !== null ? ` subtask ${st.subtask}` : ''}${st.result ? ` (${st.result})` : ''}, ${st.mainSteps} steps`,
      done: 0,
      items: 0,
    })),
    marks: [],
  };
  const shown = trace.subagents.slice(0, maxRows);
  const rowOf = new Map<number, DecompRow>();
  const rows = shown.map((a) => {
    const done = a.items.filter((it) => it.outcome === 'completed').length;
    const row: DecompRow = {
      label: `${a.kind} #${a.id}`,
      kind: a.kind,
      bars: [{ start: a.start, end: a.end, color: kindColor(trace, a.kind), title: `${a.kind} #${a.id}, stage ${a.stage}: subtasks ${a.items.map((it) => `${it.subtask} (${it.outcome})`).join(', ')}; steps ${a.start}–${a.end}`, done, items: a.items.length }],
      marks: [],
    };
    rowOf.set(a.id, row);
    return row;
  });
  for (const c of trace.checks) {
    const row = c.subagent !== null ? rowOf.get(c.subagent) : orch;
    row?.marks.push({ at: c.at, type: c.passed ? 'pass' : 'fail', title: `check of subtask ${c.subtask}${c.claimBy ? ` (claim by ${c.claimBy})` : ''}: ${c.passed ? 'right' : 'wrong'}` });
  }
  for (const r of trace.retries) {
    const row = r.subagent !== null ? rowOf.get(r.subagent) : orch;
    row?.marks.push({ at: r.at, type: 'retry', title: `subtask ${r.subtask} given again ${RETRY_WORDS[r.reason]}` });
  }
  return { rows: [orch, ...rows], hidden: trace.subagents.length - shown.length };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The episode in plain words. */
export function decompCaption(trace: DecompTrace): string {
  const t = trace.totals;
  const byKind = trace.kinds.map((k) => [k, trace.subagents.filter((a) => a.kind === k).length] as const).filter(([, n]) => n > 0);
  const created = t.nSubagents === 0 ? 'The orchestrator created no subagent' : `The orchestrator created ${plural(t.nSubagents, 'subagent')}${byKind.length > 0 ? ` (${byKind.map(([k, n]) => `${n} ${k}`).join(', ')})` : ''}`;
  const directs = trace.stages.filter((s) => s.kind === 'direct').length;
  const passed = trace.checks.filter((c) => c.passed).length;
  const checks = t.nChecks === 0 ? 'checked no claim' : `checked ${plural(t.nChecks, 'claim')}: ${passed} right, ${t.nChecksWrong} wrong`;
  const reasons = (['refuted', 'failed', 'unchecked'] as const).map((r) => [r, trace.retries.filter((x) => x.reason === r).length] as const).filter(([, n]) => n > 0);
  const retries = trace.retries.length === 0 ? 'No subtask was given again' : `${plural(trace.retries.length, 'subtask was', 'subtasks were')} given again (${reasons.map(([r, n]) => `${n} ${RETRY_WORDS[r]}`).join('; ')})`;
  const end = t.endReason === 'budget' ? 'ran into its budget' : 'finished';
  return (
    `${created}, worked on ${plural(directs, 'subtask')} itself and ${checks}. ${retries}. ` +
    `The episode ${end} after ${t.criticalSteps} of its ${t.criticalBudget} critical steps (alone, the orchestrator would need ${t.serialBaseline}); ` +
    `all agents together spent ${t.totalCompute} steps, and the answers scored r_perf ${t.rPerf.toFixed(2)}.` +
    (trace.truncated ? ' The episode was too long to keep whole: its end is left out.' : '')
  );
}

function Mark({ mark, x, y, size }: { mark: DecompMark; x: number; y: number; size: number }) {
  const r = Math.max(2, size / 2);
  const color = MARK_COLORS[mark.type];
  const shape =
    mark.type === 'pass' ? (
      <circle cx={x} cy={y} r={r} fill={color} stroke="#0f172a" strokeWidth={0.5} />
    ) : mark.type === 'fail' ? (
      <path d={`M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`} stroke={color} strokeWidth={2} />
    ) : (
      <path d={`M${x},${y - r}L${x + r},${y + r}L${x - r},${y + r}Z`} fill={color} stroke="#0f172a" strokeWidth={0.5} />
    );
  return (
    <g data-mark={mark.type}>
      {shape}
      <title>{mark.title}</title>
    </g>
  );
}

function DecompTimeline({ trace, update }: { trace: DecompTrace; update: number }) {
  const { rows, hidden } = decompRows(trace);
  const t = trace.totals;
  const longest = Math.max(t.criticalBudget, t.criticalSteps, 1);
  const scale = (DW - DLABEL_W - 8) / longest;
  const rowH = Math.max(4, Math.min(16, 400 / rows.length));
  const top = 20;
  const height = top + rows.length * (rowH + 2) + 18;
  const x = (step: number) => DLABEL_W + step * scale;
  const legend = trace.kinds.map((k): [string, string] => [k, kindColor(trace, k)]);
  return (
    <section aria-label="Swarm timeline" id="swarm-timeline" data-testid="swarm-timeline">
      <h2>
        Swarm episode <span className="muted">(update {update}, decomposition, {trace.numSubtasks} subtasks, actions {trace.mode})</span>
      </h2>
      <svg className="export-surface timeline" viewBox={`0 0 ${DW} ${height}`} width="100%" role="img" aria-label={`swarm-v2 episode: ${t.criticalSteps} critical steps, ${t.nSubagents} subagents`} data-testid="timeline-decomp" data-rows={rows.length} data-hidden-rows={hidden}>
        <text x="0" y="12" fill="#94a3b8" fontSize="11">
          {`${t.criticalSteps} critical steps · budget ${t.criticalBudget}`}
        </text>
        <line x1={x(t.criticalBudget)} x2={x(t.criticalBudget)} y1={top - 4} y2={height - 14} stroke="#f87171" strokeDasharray="3 3" strokeWidth={1}>
          <title>{`hard budget: ${t.criticalBudget} critical steps`}</title>
        </line>
        {rows.map((row, i) => {
          const y = top + i * (rowH + 2);
          const labelColor = row.kind === 'orchestrator' ? ORCH : kindColor(trace, row.kind);
          return (
            <g key={i} data-row-kind={row.kind}>
              <text x="0" y={y + rowH - 1} fill={labelColor} fontSize={Math.min(11, Math.max(5, rowH - 1))}>
                {row.label}
              </text>
              {row.bars.map((b, k) => (
                <g key={k}>
                  <rect x={x(b.start)} y={y} width={Math.max(1, (b.end - b.start) * scale)} height={row.kind === 'orchestrator' ? rowH : rowH - 2} fill={b.color} opacity={0.85}>
                    <title>{b.title}</title>
                  </rect>
                  {b.items > 0 && (
                    <>
                      <rect x={x(b.start)} y={y + rowH - 2} width={Math.max(1, (b.end - b.start) * scale)} height={2} fill={OUTCOME_COLORS.failed} />
                      <rect x={x(b.start)} y={y + rowH - 2} width={((b.end - b.start) * scale * b.done) / b.items} height={2} fill={OUTCOME_COLORS.done} />
                    </>
                  )}
                </g>
              ))}
              {row.marks.map((m, k) => (
                <Mark key={`m${k}`} mark={m} x={x(m.at)} y={y + rowH / 2} size={Math.min(10, rowH)} />
              ))}
            </g>
          );
        })}
        {hidden > 0 && (
          <text x="0" y={height - 4} fill="#94a3b8" fontSize="9">
            {`${hidden} later subagents not drawn`}
          </text>
        )}
      </svg>
      <p className="help" data-testid="timeline-legend">
        Subagent rows by kind: {legend.map(([name, color], i) => (
          <span key={name}>
            {i > 0 ? ', ' : ''}
            <span style={{ color }}>■ {name}</span>
          </span>
        ))}
        ; on the orchestrator's row its own steps: <span style={{ color: STAGE_COLORS.launch }}>launching a plan</span>,{' '}
        <span style={{ color: STAGE_COLORS.direct }}>working on a subtask itself</span>, <span style={{ color: STAGE_COLORS.check }}>checking a claim</span>,{' '}
        <span style={{ color: STAGE_COLORS.finish }}>finishing</span>; the strip under a bar: its items that came back (<span style={{ color: OUTCOME_COLORS.done }}>green</span>) or not (<span style={{ color: OUTCOME_COLORS.failed }}>red</span>). Marks:{' '}
        <span style={{ color: MARK_COLORS.pass }}>● check passed</span>, <span style={{ color: MARK_COLORS.fail }}>✕ check failed</span>, <span style={{ color: MARK_COLORS.retry }}>▲ retry</span>;{' '}
        <span style={{ color: OUTCOME_COLORS.failed }}>dashed line</span>: the hard budget.
      </p>
      <p className="help" data-testid="timeline-caption">
        {decompCaption(trace)}
      </p>
    </section>
  );
}

export function SwarmTimeline() {
  const decomp = usePlayground((s) => s.decompTrace);
  if (!decomp) return null;
  return <DecompTimeline trace={decomp.trace} update={decomp.update} />;
}
