/**
 * A swarm run's headline figures, for the CLI's summary line: means over the episodes of the
 * run's last 'swarm' record (its last update).
 *   ratio = critical steps ÷ serial baseline (per episode, then the mean)
 */
import type { SwarmEpisodeStats } from '../runs/records';

export interface SwarmHeadline {
  criticalSteps: number;
  serialBaseline: number;
  criticalOverSerial: number;
  rPerf: number;
  parallelism: number;
  finishRate: number;
  totalCompute: number;
  episodes: number;
}

export function swarmHeadline(episodes: readonly SwarmEpisodeStats[]): SwarmHeadline | null {
  if (episodes.length === 0) return null;
  const mean = (f: (e: SwarmEpisodeStats) => number) => episodes.reduce((a, e) => a + f(e), 0) / episodes.length;
  return {
    criticalSteps: mean((e) => e.criticalSteps),
    serialBaseline: mean((e) => e.serialBaseline),
    criticalOverSerial: mean((e) => e.criticalSteps / Math.max(1, e.serialBaseline)),
    rPerf: mean((e) => e.rPerf),
    parallelism: mean((e) => e.avgParallelism),
    finishRate: mean((e) => e.finishRate),
    totalCompute: mean((e) => e.totalSteps),
    episodes: episodes.length,
  };
}

export function formatSwarmHeadline(h: SwarmHeadline): string {
  return `critical ${h.criticalSteps.toFixed(1)} of serial ${h.serialBaseline.toFixed(1)} (×${h.criticalOverSerial.toFixed(3)}), r_perf ${h.rPerf.toFixed(3)}, parallelism ${h.parallelism.toFixed(1)}, finish rate ${h.finishRate.toFixed(2)}, total compute ${h.totalCompute.toFixed(0)}`;
}
