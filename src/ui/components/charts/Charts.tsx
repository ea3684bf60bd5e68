import { usePlayground } from '../../store';
import { LagHistogram } from './LagHistogram';
import { LossCharts } from './LossCharts';
import { ReturnChart } from './ReturnChart';
import { CriticalStepsChart, LambdaChart, ParallelismChart, RewardComponentsChart } from './SwarmCharts';
import { ThroughputChart } from './ThroughputChart';
import { InView } from './live';
import { isSwarm as isSwarmAlgorithm } from '../../../config/watchable';

/** The live charts: only those with data for this run (or a teaching link's hide list). */
export function Charts() {
  const hide = usePlayground((s) => s.view.hide);
  const hasLosses = usePlayground((s) => s.metricKeys.length > 0);
  // Swarm actors report no per-actor throughput (all zeros): no empty chart for them.
  const hasThroughput = usePlayground((s) => s.actorStats.some((a) => a.stepsPerSecond > 0));
  const hasLags = usePlayground((s) => Object.keys(s.lagHistogram).length > 0);
  // Swarm charts are there (empty) as soon as a swarm experiment is chosen: see ChartFrame.
  const isSwarm = usePlayground((s) => isSwarmAlgorithm(s.config.settings.algorithm));
  const hasSwarm = usePlayground((s) => isSwarm || s.swarmPoints.length > 0);
  const hasLambdas = usePlayground((s) => isSwarm || s.lambdaPoints.length > 0);
  return (
    <div className="charts" id="charts">
      <InView wide>
        <ReturnChart />
      </InView>
      {hasSwarm && (
        <InView>
          <RewardComponentsChart />
        </InView>
      )}
      {hasLambdas && (
        <InView>
          <LambdaChart />
        </InView>
      )}
      {hasSwarm && (
        <InView>
          <CriticalStepsChart />
        </InView>
      )}
      {hasSwarm && (
        <InView>
          <ParallelismChart />
        </InView>
      )}
      {hasLosses && !hide.includes('charts.losses') && (
        <InView wide>
          <LossCharts />
        </InView>
      )}
      {hasThroughput && !hide.includes('charts.throughput') && (
        <InView>
          <ThroughputChart />
        </InView>
      )}
      {hasLags && (
        <InView>
          <LagHistogram />
        </InView>
      )}
    </div>
  );
}
