import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { memo } from 'react';
import type { PlaygroundState } from '../../store';
import { categoryAxis, NUMBER_AXIS } from './axis';
import { ChartFrame } from './ChartFrame';
import { useChartValue } from './live';

const selectHist = (s: PlaygroundState) => s.lagHistogram;
import { axisLabel, GRID, MARGIN, SERIES_COLORS, TOOLTIP_STYLE } from './theme';

export const LagHistogram = memo(function LagHistogram() {
  const hist = useChartValue(selectHist);
  const lags = Object.keys(hist).map(Number).sort((a, b) => a - b);
  const max = lags.length ? lags[lags.length - 1] : 0;
  const data = Array.from({ length: max + 1 }, (_, lag) => ({ lag, batches: hist[lag] ?? 0 }));
  return (
    <ChartFrame title="Policy lag" caption="batches by how many updates old their policy was" testId="lag-chart" points={data.length}>
      <ResponsiveContainer width="100%" height={160}>
        <BarChart data={data} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="lag" {...categoryAxis(data.length)} label={axisLabel('lag (updates)')} />
          <YAxis {...NUMBER_AXIS} width={44} allowDecimals={false} />
          <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fill: '#ffffff10' }} />
          <Bar dataKey="batches" fill={SERIES_COLORS[2]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});
