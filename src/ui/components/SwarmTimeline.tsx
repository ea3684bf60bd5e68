/**
 * A recorded swarm episode (a 'swarmTrace' record) as a timeline along the critical-step axis,
 * drawn at the size it is shown (1 unit = 1 CSS pixel, so every label keeps at least 11 px):
 * - above it, the episode's figures, each named once (critical steps, the hard budget, the serial
 *   baseline, r_perf), and where the run is (the update traced, λ1 and λ2: annealing or annealed);
 * - an axis in critical steps, the episode's stages as alternating columns numbered below;
 * - one row for the orchestrator (its own steps in each stage, coloured by what it did), then one
 *   row per subagent labelled with its kind and coloured by it, its bar from when it started to when
 *   it returned, a strip under it with the share of its items that came back;
 * - marks for the orchestrator's checks of claims (passed / failed) and for retries (a subtask given
 *   again; a second opinion on an unchecked claim drawn hollow), the hard budget as a dashed line;
 * - a legend and a caption in plain words.
 */
import { useEffect, useRef, useState } from 'react';
import type { ExperimentSettings } from '../../config/settings';
import type { SwarmTrace, SwarmTraceStage, RetryReason } from '../../runs/traces';
import { usePlayground } from '../store';
import type { LambdaPoint } from '../store/types';
import { ChartExplain } from './charts/ChartFrame';

const OUTCOME_COLORS = { done: '#4ade80', failed: '#f87171', timeout: '#f59e0b' } as const;
const ORCH = '#38bdf8';
/** Subagent rows drawn at most (the scale preset creates up to about 100 per episode). */
export const MAX_SWARM_ROWS = 120;
/** Smallest text drawn, in CSS pixels: readable from the back of a classroom at 1366 px wide. */
export const MIN_LABEL_PX = 11;
const LABEL_PX = 12;
const ROW_H = 16;
const ROW_GAP = 3;
const AXIS_H = 20;
const STAGE_H = 18;
/** Width before the first measurement (and in tests without layout). */
const DEFAULT_WIDTH = 300;
/** Kind colours far apart in hue and none of them the orchestrator's blue or the marks' green, red and amber. */
const KIND_COLORS = ['#c084fc', '#facc15', '#2dd4bf', '#fb7185', '#a3e635', '#f472b6', '#e879f9', '#fdba74'];
const STAGE_COLORS: Record<SwarmTraceStage['kind'], string> = { launch: ORCH, direct: '#94a3b8', check: '#e2e8f0', finish: '#818cf8' };
const MARK_COLORS = { pass: OUTCOME_COLORS.done, fail: OUTCOME_COLORS.failed, retry: OUTCOME_COLORS.timeout, second: OUTCOME_COLORS.timeout } as const;
const RETRY_WORDS: Record<RetryReason, string> = { refuted: 'after a check found its claim wrong', failed: 'after a run that brought no claim', unchecked: 'as a second opinion on an unchecked claim' };

export interface SwarmMark {
  at: number;
  /** retry: given again after a wrong or missing claim; second: a second opinion on an unchecked claim. */
  type: 'pass' | 'fail' | 'retry' | 'second';
  title: string;
}

export interface SwarmRow {
  label: string;
  /** 'orchestrator' or a subagent kind. */
  kind: string;
  bars: { start: number; end: number; color: string; title: string; done: number; items: number }[];
  marks: SwarmMark[];
}

export function kindColor(trace: Pick<SwarmTrace, 'kinds'>, kind: string): string {
  const i = trace.kinds.indexOf(kind);
  return i >= 0 ? KIND_COLORS[i % KIND_COLORS.length] : '#cbd5e1';
}

/** Stages are numbered from 1 wherever the page names one. */
const stageName = (index: number) => `stage ${index + 1}`;

/** The rows the timeline draws: the orchestrator, then the first `maxRows` subagents in the order they were created. */
export function swarmRows(trace: SwarmTrace, maxRows = MAX_SWARM_ROWS): { rows: SwarmRow[]; hidden: number } {
  const orch: SwarmRow = {
    label: 'orchestrator',
    kind: 'orchestrator',
    bars: trace.stages.map((st) => ({
      start: st.start,
      end: st.start + st.mainSteps,
      color: STAGE_COLORS[st.kind],
      title: `${stageName(st.index)}: ${st.kind}${st.subtask !== null ? ` subtask ${st.subtask}` : ''}${st.result ? ` (${st.result})` : ''}, ${st.mainSteps} steps`,
      done: 0,
      items: 0,
    })),
    marks: [],
  };
  const shown = trace.subagents.slice(0, maxRows);
  const rowOf = new Map<number, SwarmRow>();
  const rows = shown.map((a) => {
    const done = a.items.filter((it) => it.outcome === 'completed').length;
    const row: SwarmRow = {
      label: `${a.kind} #${a.id}`,
      kind: a.kind,
      bars: [{ start: a.start, end: a.end, color: kindColor(trace, a.kind), title: `${a.kind} #${a.id}, ${stageName(a.stage)}: subtasks ${a.items.map((it) => `${it.subtask} (${it.outcome})`).join(', ')}; steps ${a.start}–${a.end}`, done, items: a.items.length }],
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
    row?.marks.push({ at: r.at, type: r.reason === 'unchecked' ? 'second' : 'retry', title: `subtask ${r.subtask} given again ${RETRY_WORDS[r.reason]}` });
  }
  return { rows: [orch, ...rows], hidden: trace.subagents.length - shown.length };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The episode in plain words (its figures are named once, in swarmFigures, and not repeated here). */
export function swarmCaption(trace: SwarmTrace): string {
  const t = trace.totals;
  const byKind = trace.kinds.map((k) => [k, trace.subagents.filter((a) => a.kind === k).length] as const).filter(([, n]) => n > 0);
  const created = t.nSubagents === 0 ? 'The orchestrator created no subagent' : `The orchestrator created ${plural(t.nSubagents, 'subagent')}${byKind.length > 0 ? ` (${byKind.map(([k, n]) => `${n} ${k}`).join(', ')})` : ''}`;
  const directs = trace.stages.filter((s) => s.kind === 'direct').length;
  const passed = trace.checks.filter((c) => c.passed).length;
  const checks = t.nChecks === 0 ? 'checked no claim' : `checked ${plural(t.nChecks, 'claim')}: ${passed} right, ${t.nChecksWrong} wrong`;
  const reasons = (['refuted', 'failed', 'unchecked'] as const).map((r) => [r, trace.retries.filter((x) => x.reason === r).length] as const).filter(([, n]) => n > 0);
  const retries = trace.retries.length === 0 ? 'No subtask was given again' : `${plural(trace.retries.length, 'subtask was', 'subtasks were')} given again (${reasons.map(([r, n]) => `${n} ${RETRY_WORDS[r]}`).join('; ')})`;
  const end = t.endReason === 'budget' ? 'ran into the hard budget' : 'finished within the hard budget';
  return (
    `${created} over ${plural(trace.stages.length, 'stage')}, worked on ${plural(directs, 'subtask')} itself and ${checks}. ${retries}. ` +
    `The episode ${end}; all agents together spent ${t.totalCompute} steps.` +
    (trace.truncated ? ' The episode was too long to keep whole: its end is left out.' : '')
  );
}

export interface SwarmFigure {
  name: string;
  value: string;
  title: string;
}

/** The episode's figures, each named once: what the caption, the axis and the legend refer to. */
export function swarmFigures(trace: SwarmTrace): SwarmFigure[] {
  const t = trace.totals;
  const ratio = t.serialBaseline > 0 ? ` (${(t.criticalSteps / t.serialBaseline).toFixed(2)} × serial)` : '';
  return [
    { name: 'critical steps', value: `${t.criticalSteps}${ratio}`, title: 'Per stage, the orchestrator’s steps plus the slowest subagent’s, added up: the episode’s latency.' },
    { name: 'hard budget', value: `${t.criticalBudget}`, title: 'The episode ends when its critical steps reach this (the dashed line).' },
    { name: 'serial baseline', value: `${t.serialBaseline}`, title: 'Critical steps of the orchestrator doing every subtask itself, one after another, on this task.' },
    { name: 'r_perf', value: t.rPerf.toFixed(2), title: 'F1 of the answers submitted.' },
  ];
}

export type LambdaPhaseKind = 'unshaped' | 'annealing' | 'annealed' | 'held';

export interface LambdaPhase {
  kind: LambdaPhaseKind;
  text: string;
}

export interface ShapingSettings {
  lambda1Start: number;
  lambda2Start: number;
  lambda1Schedule: string;
  lambda2Schedule: string;
  annealUpdates: number;
}

/** A λ's value; kept on one line with its name (a no-break space). */
const lam = (x: number) => x.toFixed(2);
const NB = '\u00a0';

/** Where the shaping is now: λ1, λ2 as the run last reported them, against their schedules. */
export function lambdaPhase(now: Pick<LambdaPoint, 'lambda1' | 'lambda2'> | null, s: ShapingSettings): LambdaPhase {
  const l1 = now ? now.lambda1 : s.lambda1Start;
  const l2 = now ? now.lambda2 : s.lambda2Start;
  if (s.lambda1Start === 0 && s.lambda2Start === 0 && l1 === 0 && l2 === 0) return { kind: 'unshaped', text: 'no shaping: λ1 = λ2 = 0, only r_perf counts' };
  if (l1 === 0 && l2 === 0) return { kind: 'annealed', text: `annealed: λ1 = λ2 = 0 (from update ${s.annealUpdates}), only r_perf counts` };
  const held = ([['λ1', l1, s.lambda1Schedule], ['λ2', l2, s.lambda2Schedule]] as const).filter(([, v, kind]) => v !== 0 && kind === 'constant');
  if (held.length > 0) {
    const falling = ([['λ1', l1, s.lambda1Schedule], ['λ2', l2, s.lambda2Schedule]] as const).filter(([, v, kind]) => v !== 0 && kind !== 'constant');
    const rest = falling.length > 0 ? `; ${falling.map(([n, v]) => `${n}${NB}${lam(v)}`).join(', ')} annealing to 0 by update${NB}${s.annealUpdates}` : '';
    return { kind: 'held', text: `${held.map(([n, v]) => `${n} held at${NB}${lam(v)}`).join(', ')} (constant: never annealed)${rest}` };
  }
  return { kind: 'annealing', text: `annealing: λ1${NB}${lam(l1)}, λ2${NB}${lam(l2)}, both 0 from update${NB}${s.annealUpdates}` };
}

/** The swarm's shaping settings, or null when the open run is not the swarm. */
function shapingSettings(s: ExperimentSettings): ShapingSettings | null {
  if (s.algorithm !== 'swarm') return null;
  return { lambda1Start: s['swarm.lambda1'], lambda2Start: s['swarm.lambda2'], lambda1Schedule: s['swarm.lambda1Schedule'], lambda2Schedule: s['swarm.lambda2Schedule'], annealUpdates: s['swarm.annealUpdates'] };
}

/** Tick spacing on the step axis: a round number at least `minPx` apart. */
export function tickStep(longest: number, pxPerStep: number, minPx = 36): number {
  for (const m of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000]) if (m * pxPerStep >= minPx) return m;
  return Math.max(1, Math.ceil(longest / 2));
}

function Mark({ mark, x, y }: { mark: SwarmMark; x: number; y: number }) {
  const r = 5;
  const color = MARK_COLORS[mark.type];
  const shape =
    mark.type === 'pass' ? (
      <circle cx={x} cy={y} r={r} fill={color} stroke="#0f172a" strokeWidth={1} />
    ) : mark.type === 'fail' ? (
      <path d={`M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`} stroke={color} strokeWidth={2.5} />
    ) : (
      <path d={`M${x},${y - r}L${x + r},${y + r}L${x - r},${y + r}Z`} fill={mark.type === 'retry' ? color : '#0b1220'} stroke={color} strokeWidth={mark.type === 'retry' ? 1 : 2} />
    );
  return (
    <g data-mark={mark.type}>
      {shape}
      <title>{mark.title}</title>
    </g>
  );
}

/** The drawing's width: the width it is shown at (measured), so text keeps its pixel size. */
function useShownWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = Math.round(entries[0]?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

function TraceTimeline({ trace, update }: { trace: SwarmTrace; update: number }) {
  const [wrap, width] = useShownWidth();
  const settings = usePlayground((s) => s.config.settings);
  const lastLambda = usePlayground((s) => (s.lambdaPoints.length > 0 ? s.lambdaPoints[s.lambdaPoints.length - 1] : null));
  const updatesSoFar = usePlayground((s) => s.updates);
  const { rows, hidden } = swarmRows(trace);
  const t = trace.totals;
  const longest = Math.max(t.criticalBudget, t.criticalSteps, 1);
  // Label column as wide as the longest label (about 0.6 em a character), the plot takes the rest.
  const labelW = Math.min(120, Math.max(...rows.map((r) => r.label.length)) * LABEL_PX * 0.6 + 8);
  const W = Math.max(200, width);
  const plotW = W - labelW - 8;
  const scale = plotW / longest;
  const x = (step: number) => labelW + step * scale;
  const rowsTop = AXIS_H + 4;
  const rowsBottom = rowsTop + rows.length * (ROW_H + ROW_GAP);
  const height = rowsBottom + STAGE_H + (hidden > 0 ? 18 : 0);
  const step = tickStep(longest, scale);
  const ticks = Array.from({ length: Math.floor(longest / step) + 1 }, (_, i) => i * step);
  const shaping = shapingSettings(settings);
  const phase = shaping ? lambdaPhase(lastLambda, shaping) : null;
  const totalUpdates = settings.algorithm === 'swarm' ? settings['swarm.updates'] : Number.NaN;
  const figures = swarmFigures(trace);
  // Stage numbers where they fit between the stage's edges; the others only in the stage's tooltip.
  const stageLabel = (st: SwarmTraceStage) => ((st.end - st.start) * scale >= String(st.index + 1).length * 7 + 4 ? String(st.index + 1) : null);
  return (
    <section aria-label="Swarm timeline" id="swarm-timeline" data-testid="swarm-timeline" className="swarm-timeline">
      <h2>
        Swarm episode <span className="muted">(update {update}, {trace.numSubtasks} subtasks, {trace.mode} actions)</span>
      </h2>
      <ChartExplain testId="swarm-timeline" />
      <p className="timeline-phase" data-testid="timeline-phase" data-phase={phase?.kind ?? 'none'}>
        <strong>Run:</strong> update {updatesSoFar}
        {Number.isFinite(totalUpdates) ? ` of ${totalUpdates}` : ''}
        {phase ? `; ${phase.text}.` : '.'}
      </p>
      <dl className="timeline-figures" data-testid="timeline-figures">
        {figures.map((f) => (
          <div key={f.name} title={f.title} data-figure={f.name}>
            <dt>{f.name}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <div ref={wrap} className="timeline-scroll">
        <svg
          className="export-surface timeline"
          width={W}
          height={height}
          viewBox={`0 0 ${W} ${height}`}
          role="img"
          aria-label={`swarm episode: ${t.criticalSteps} critical steps of a ${t.criticalBudget} budget, ${t.nSubagents} subagents, ${trace.stages.length} stages`}
          data-testid="timeline-swarm"
          data-rows={rows.length}
          data-hidden-rows={hidden}
        >
          {trace.stages.map((st, i) => (
            <rect key={`s${i}`} x={x(st.start)} y={rowsTop - 2} width={Math.max(0.5, (st.end - st.start) * scale)} height={rowsBottom - rowsTop + 2} fill={i % 2 === 0 ? '#16213a' : '#0b1220'} data-stage={st.index + 1}>
              <title>{`${stageName(st.index)} (${st.kind}): steps ${st.start}–${st.end}`}</title>
            </rect>
          ))}
          <text x={labelW - 6} y={AXIS_H - 6} fill="#94a3b8" fontSize={MIN_LABEL_PX} textAnchor="end">
            steps
          </text>
          {ticks.map((s) => (
            <g key={`t${s}`}>
              <line x1={x(s)} x2={x(s)} y1={AXIS_H - 3} y2={AXIS_H + 1} stroke="#64748b" />
              <text x={x(s)} y={AXIS_H - 6} fill="#94a3b8" fontSize={MIN_LABEL_PX} textAnchor={s === 0 ? 'start' : 'middle'}>
                {s}
              </text>
            </g>
          ))}
          <line x1={x(t.criticalBudget)} x2={x(t.criticalBudget)} y1={AXIS_H} y2={rowsBottom} stroke={OUTCOME_COLORS.failed} strokeDasharray="4 3" strokeWidth={1.5}>
            <title>{`hard budget: ${t.criticalBudget} critical steps`}</title>
          </line>
          {rows.map((row, i) => {
            const y = rowsTop + i * (ROW_H + ROW_GAP);
            const labelColor = row.kind === 'orchestrator' ? ORCH : kindColor(trace, row.kind);
            return (
              <g key={i} data-row-kind={row.kind}>
                <text x={labelW - 6} y={y + ROW_H - 4} fill={labelColor} fontSize={LABEL_PX} textAnchor="end">
                  {row.label}
                </text>
                {row.bars.map((b, k) => (
                  <g key={k}>
                    <rect x={x(b.start)} y={y} width={Math.max(1.5, (b.end - b.start) * scale)} height={row.kind === 'orchestrator' ? ROW_H : ROW_H - 4} fill={b.color} opacity={0.9}>
                      <title>{b.title}</title>
                    </rect>
                    {b.items > 0 && (
                      <>
                        <rect x={x(b.start)} y={y + ROW_H - 4} width={Math.max(1.5, (b.end - b.start) * scale)} height={3} fill={OUTCOME_COLORS.failed} />
                        <rect x={x(b.start)} y={y + ROW_H - 4} width={((b.end - b.start) * scale * b.done) / b.items} height={3} fill={OUTCOME_COLORS.done} />
                      </>
                    )}
                  </g>
                ))}
                {row.marks.map((m, k) => (
                  <Mark key={`m${k}`} mark={m} x={x(m.at)} y={y + ROW_H / 2} />
                ))}
              </g>
            );
          })}
          <text x={labelW - 6} y={rowsBottom + STAGE_H - 5} fill="#94a3b8" fontSize={MIN_LABEL_PX} textAnchor="end">
            stage
          </text>
          {trace.stages.map((st, i) => {
            const label = stageLabel(st);
            return label === null ? null : (
              <text key={`n${i}`} x={x((st.start + st.end) / 2)} y={rowsBottom + STAGE_H - 5} fill="#94a3b8" fontSize={MIN_LABEL_PX} textAnchor="middle">
                {label}
              </text>
            );
          })}
          {hidden > 0 && (
            <text x="0" y={height - 4} fill="#94a3b8" fontSize={MIN_LABEL_PX}>
              {`${hidden} later subagents not drawn`}
            </text>
          )}
        </svg>
      </div>
      <ul className="timeline-legend" data-testid="timeline-legend" aria-label="Timeline legend">
        <li>
          <span className="swatch" style={{ background: ORCH }} /> orchestrator: its own steps (<span style={{ color: STAGE_COLORS.launch }}>launching</span>, <span style={{ color: STAGE_COLORS.direct }}>working on a subtask</span>,{' '}
          <span style={{ color: STAGE_COLORS.check }}>checking a claim</span>, <span style={{ color: STAGE_COLORS.finish }}>finishing</span>)
        </li>
        <li data-testid="timeline-kinds">
          subagent kinds:{' '}
          {trace.kinds.map((k, i) => (
            <span key={k} data-kind={k}>
              {i > 0 ? ', ' : ''}
              <span className="swatch" style={{ background: kindColor(trace, k) }} /> <span style={{ color: kindColor(trace, k) }}>{k}</span>
            </span>
          ))}
        </li>
        <li>
          strip under a bar: its subtasks that came back (<span style={{ color: OUTCOME_COLORS.done }}>green</span>) or not (<span style={{ color: OUTCOME_COLORS.failed }}>red</span>)
        </li>
        <li>
          checks: <span style={{ color: MARK_COLORS.pass }}>● claim right</span>, <span style={{ color: MARK_COLORS.fail }}>✕ claim wrong</span>; given again: <span style={{ color: MARK_COLORS.retry }}>▲ retry</span>,{' '}
          <span style={{ color: MARK_COLORS.second }}>△ second opinion</span>
        </li>
        <li>
          <span style={{ color: OUTCOME_COLORS.failed }}>dashed line</span>: the hard budget; shaded columns: the stages, numbered below
        </li>
      </ul>
      <p className="help timeline-caption" data-testid="timeline-caption">
        {swarmCaption(trace)}
      </p>
    </section>
  );
}

export function SwarmTimeline() {
  const decomp = usePlayground((s) => s.swarmTrace);
  if (!decomp) return null;
  return <TraceTimeline trace={decomp.trace} update={decomp.update} />;
}
