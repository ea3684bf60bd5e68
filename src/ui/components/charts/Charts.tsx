import { usePlayground } from '../../store';
import { LagHistogram } from './LagHistogram';
import { LossCharts } from './LossCharts';
import { ReturnChart } from './ReturnChart';
import { CriticalStepsChart, LambdaChart, ParallelismChart, RewardComponentsChart } from './SwarmCharts';
import { ThroughputChart } from './ThroughputChart';

/** The live charts: only those with data for this run (or a teaching link's hide list). */
export function Charts() {
  const hide = usePlayground((s) => s.view.hide);
  const hasLosses = usePlayground((s) => s.metricKeys.length > 0);
  const hasThroughput = usePlayground((s) => s.actorStats.length > 0);
  const hasLags = usePlayground((s) => Object.keys(s.lagHistogram).length > 0);
  const hasSwarm = usePlayground((s) => s.swarmPoints.length > 0);
  const hasLambdas = usePlayground((s) => s.lambdaPoints.length > 0);
  return (
    <div className="charts" id="charts">
      <ReturnChart />
      {hasSwarm && <RewardComponentsChart />}
      {hasLambdas && <LambdaChart />}
      {hasSwarm && <CriticalStepsChart />}
      {hasSwarm && <ParallelismChart />}
      {hasLosses && !hide.includes('charts.losses') && <LossCharts />}
      {hasThroughput && !hide.includes('charts.throughput') && <ThroughputChart />}
      {hasLags && <LagHistogram />}
    </div>
  );
}
