import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { memo } from 'react';
import type { PlaygroundState } from '../../store';
import { categoryAxis, NUMBER_AXIS } from './axis';
import { ChartFrame } from './ChartFrame';
import { useChartValue } from './live';

const selectStats = (s: PlaygroundState) => s.actorStats;
import { GRID, MARGIN, SERIES_COLORS, TOOLTIP_STYLE } from './theme';

export const ThroughputChart = memo(function ThroughputChart() {
  const stats = useChartValue(selectStats);
  const data = stats.map((a, i) => ({ actor: `#${i}`, sps: Math.round(a.stepsPerSecond) }));
  return (
    <ChartFrame title="Throughput per actor" caption="env steps per second in the last update" testId="throughput-chart" points={data.length}>
      <ResponsiveContainer width="100%" height={160}>
        <BarChart data={data} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="actor" {...categoryAxis(data.length)} />
          <YAxis {...NUMBER_AXIS} width={48} />
          <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fill: '#ffffff10' }} />
          <Bar dataKey="sps" name="steps/s" fill={SERIES_COLORS[3]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});
