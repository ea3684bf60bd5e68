import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { memo } from 'react';
import type { PlaygroundState } from '../../store';
import { categoryAxis, NUMBER_AXIS } from './axis';
import { ChartFrame } from './ChartFrame';
import { useChartValue } from './live';
import { axisLabel, GRID, MARGIN, SERIES_COLORS, TOOLTIP_STYLE } from './theme';

const selectHist = (s: PlaygroundState) => s.lagHistogram;

/** Bars drawn at most: past this many lags, each bar counts a range of lags. */
export const MAX_LAG_BARS = 40;

export interface LagBin {
  lag: string;
  lo: number;
  hi: number;
  batches: number;
}

/**
 * The histogram's bars. Work and memory follow the number of distinct lags and MAX_LAG_BARS,
 * never the largest lag (one lag of 2^32 once allocated 2^32 bars and blanked the page).
 */
export function lagBins(hist: Readonly<Record<number, number>>, maxBars = MAX_LAG_BARS): LagBin[] {
  const entries = Object.entries(hist)
    .map(([lag, n]) => [Number(lag), n] as const)
    .filter(([lag, n]) => Number.isSafeInteger(lag) && lag >= 0 && Number.isFinite(n) && n > 0);
  if (entries.length === 0) return [];
  const max = entries.reduce((m, [lag]) => Math.max(m, lag), 0);
  const width = Math.max(1, Math.ceil((max + 1) / maxBars));
  const bins: LagBin[] = Array.from({ length: Math.floor(max / width) + 1 }, (_, i) => {
    const lo = i * width;
    const hi = lo + width - 1;
    return { lag: width === 1 ? String(lo) : `${lo}–${hi}`, lo, hi, batches: 0 };
  });
  for (const [lag, n] of entries) bins[Math.floor(lag / width)].batches += n;
  return bins;
}

export const LagHistogram = memo(function LagHistogram() {
  const hist = useChartValue(selectHist);
  const data = lagBins(hist);
  return (
    <ChartFrame title="Policy lag" caption="batches by how many updates old the policy that collected them was" testId="lag-chart" points={data.length}>
      <ResponsiveContainer width="100%" height={160}>
        <BarChart data={data} margin={MARGIN} title="Batches by policy lag in updates">
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="lag" {...categoryAxis(data.length)} label={axisLabel('policy lag (updates)')} />
          <YAxis {...NUMBER_AXIS} width={44} allowDecimals={false} />
          <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fill: '#ffffff10' }} />
          <Bar dataKey="batches" fill={SERIES_COLORS[2]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});
