import { memo } from 'react';
import type { PlaygroundState, UpdatePoint } from '../../store';
import { ChartFrame } from './ChartFrame';
import { forDisplay, useChartValue } from './live';

// Figures the swarm charts already plot, and bookkeeping counters: not losses.
const SHOWN_ELSEWHERE = new Set([
  'lambda1', 'lambda2', 'rPerf', 'finishRate', 'avgParallelism', 'criticalSteps', 'criticalOverSerial',
  'orchForwardCalls', 'subagentForwardCalls', 'ticks', 'forwardCalls', 'epochs', 'gradientSteps', 'bufferSize', 'queueSize', 'blockedPushes',
]);
const selectKeys = (s: PlaygroundState) => s.metricKeys;
const selectUpdates = (s: PlaygroundState) => s.updatePoints;
const byMean = (p: UpdatePoint) => p.meanReturn20 ?? 0;
import { GRID, SERIES_COLORS } from './theme';

const LABELS: Record<string, string> = {
  loss: 'loss',
  policyLoss: 'policy loss',
  valueLoss: 'value loss',
  entropy: 'entropy (exploration)',
  approxKl: 'policy change (approx. KL)',
  clipFrac: 'share clipped',
  pgLoss: 'policy loss',
  gradNorm: 'gradient size',
  updateNorm: 'update size',
  returnMean: 'batch return, mean',
  returnStd: 'batch return, spread',
  explainedVariance: 'value fit (explained variance)',
  meanRho: 'importance weight ρ, mean',
  qMean: 'mean Q value',
  tdError: 'TD error',
  epsilon: 'exploration ε',
  actorLoss: 'actor loss',
  criticLoss: 'critic loss',
  alphaLoss: 'temperature loss',
  evalReturn: 'evaluation return',
  fitness: 'fitness',
  sigma: 'noise σ',
};

/** A metric's label: the known ones by name, the rest with camelCase spelled out as words. */
export function metricLabel(metric: string): string {
  if (Object.hasOwn(LABELS, metric)) return LABELS[metric];
  return metric
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .toLowerCase();
}

const SPARK_W = 200;
const SPARK_H = 80;

/** Three significant digits; tiny magnitudes as 2.2e-6 rather than 0.00000224. */
function fmt(v: number): string {
  if (v !== 0 && Math.abs(v) < 1e-3) return v.toExponential(1);
  return Number(v.toPrecision(3)).toString();
}

/**
 * One metric as a plain SVG line (no recharts: a dozen full charts re-rendering 4 times a second
 * were most of the page's main-thread work while training). The y range is printed at the left.
 */
const MiniChart = memo(function MiniChart({ metric, data, color }: { metric: string; data: UpdatePoint[]; color: string }) {
  const pts = data.flatMap((p) => (Number.isFinite(p.metrics[metric]) ? [[p.update, p.metrics[metric]] as const] : []));
  const label = metricLabel(metric);
  if (pts.length === 0) return null;
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const [x, y] of pts) {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  const sx = (x: number) => (x1 > x0 ? ((x - x0) / (x1 - x0)) * (SPARK_W - 4) + 2 : SPARK_W / 2);
  const sy = (y: number) => (y1 > y0 ? SPARK_H - 4 - ((y - y0) / (y1 - y0)) * (SPARK_H - 8) : SPARK_H / 2);
  const d = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join('');
  const last = pts[pts.length - 1][1];
  return (
    <div className="mini-chart">
      <div className="mini-title">
        {label} <span className="mini-last">{fmt(last)}</span>
      </div>
      <div className="mini-body">
        <div className="mini-range" aria-hidden="true">
          <span>{fmt(y1)}</span>
          <span>{fmt(y0)}</span>
        </div>
        <svg className="export-surface mini-svg" viewBox={`0 0 ${SPARK_W} ${SPARK_H}`} preserveAspectRatio="none" role="img" aria-label={`${label}: last ${fmt(last)}, range ${fmt(y0)} to ${fmt(y1)} over updates ${x0} to ${x1}`}>
          <rect x="0" y="0" width={SPARK_W} height={SPARK_H} fill="none" stroke={GRID} />
          <path d={d} fill="none" stroke={color} strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
        </svg>
      </div>
      <div className="mini-axis muted" aria-hidden="true">
        <span>update {x0}</span>
        <span>update {x1}</span>
      </div>
    </div>
  );
});

/** Small charts drawn at most (an imported run once carried 2,000 metric keys, and drew them all). */
export const MAX_LOSS_CHARTS = 24;

/** The metrics that get a chart: the named ones first, then the rest in order, MAX_LOSS_CHARTS at most. */
export function chartedMetrics(keys: readonly string[], max = MAX_LOSS_CHARTS): { shown: string[]; left: number } {
  const candidates = keys.filter((k) => !SHOWN_ELSEWHERE.has(k));
  const ordered = [...candidates.filter((k) => Object.hasOwn(LABELS, k)), ...candidates.filter((k) => !Object.hasOwn(LABELS, k))];
  return { shown: ordered.slice(0, max), left: Math.max(0, ordered.length - max) };
}

/** One small chart per metric the algorithm reports (their scales differ too much to share an axis). */
export const LossCharts = memo(function LossCharts() {
  const keys = useChartValue(selectKeys);
  const all = useChartValue(selectUpdates);
  const updates = forDisplay(all, byMean, 200);
  const { shown, left } = chartedMetrics(keys);
  return (
    <ChartFrame title="Losses and diagnostics" caption="what the learning rule reports after each update, by update" testId="loss-chart" points={all.length} wide>
      <div className="mini-grid">
        {shown.map((k, i) => (
          <MiniChart key={k} metric={k} data={updates} color={SERIES_COLORS[(i + 1) % SERIES_COLORS.length]} />
        ))}
      </div>
      {left > 0 && (
        <p className="help" data-testid="loss-charts-left-out">
          {left} more metrics are not drawn; the CSV export has them all.
        </p>
      )}
    </ChartFrame>
  );
});
