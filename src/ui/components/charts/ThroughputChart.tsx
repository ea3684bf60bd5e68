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
  const data = stats.map((a, i) => ({ actor: `actor ${i}`, sps: Math.round(a.stepsPerSecond) }));
  return (
    <ChartFrame title="Throughput per actor" caption="environment steps each actor contributed per second of wall time in the last update; together they make the run's steps/s" testId="throughput-chart" points={data.length}>
      <ResponsiveContainer width="100%" height={160}>
        <BarChart data={data} margin={MARGIN} title="Environment steps per second contributed by each actor">
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="actor" {...categoryAxis(data.length)} />
          <YAxis {...NUMBER_AXIS} width={48} />
          <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fill: '#ffffff10' }} />
          <Bar dataKey="sps" name="steps per second" fill={SERIES_COLORS[3]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});
