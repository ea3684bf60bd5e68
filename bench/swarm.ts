/**
 * Agent swarm benchmarks (Kimi K2.5's PARL), from the CLI's own training runs:
 *
 * Both run the second swarm's versions (bench/swarmV2.ts) unless `--version 1`.
 * - swarm-story: swarm-annealed, swarm-no-shaping and swarm-no-anneal × seeds. Final figures are
 *   means over the episodes of the last 10 updates: parallelism (subagents per launching stage),
 *   finish rate, r_perf, critical steps and critical ÷ serial baseline. Phenomena, per run:
 *     serial collapse       at least half the final episodes launch no subagent
 *     spurious parallelism  final finish rate < 0.7 while subagents are assigned
 *     target met            r_perf ≥ 0.9 and critical ≤ serial / 3
 * - swarm-scale: one wide-search episode with 100 subagents in one stage (K = 100, hard 8x8
 *   items, large subagents, central inference): wall time, total steps and forward calls per stage.
 */
import { resolveExperiment } from '../src/config/config';
import type { SwarmEpisodeStats, SwarmUpdateRecord } from '../src/runs/records';
import { TrainingRun } from '../src/engine/trainer';
import { chooseBackend } from '../src/core/backend';
import { Rng } from '../src/core/rng';
import { CentralInference } from '../src/swarm/inference';
import { ACTION_ASSIGN_ALL, ACTION_FINISH, MaskedActorCritic } from '../src/swarm/orchestrator';
import { loadSubagentCheckpoint } from '../src/swarm/subagentFiles';
import { FrozenSubagent } from '../src/swarm/subagents';
import { SwarmActor } from '../src/swarm/swarmActor';
import { resolveLimits } from '../src/envs/swarm/orchestration';
import { nodePlatform } from '../src/cli/nodePlatform';
import { markdownTable, median, type Benchmark } from './types';
import { runSwarmV2Scale, runSwarmV2Story, SCALE_V2_FLAGS, STORY_V2_FLAGS, STORY_V2_SEEDS } from './swarmV2';

const STORY_PRESETS = ['swarm-annealed', 'swarm-no-shaping', 'swarm-no-anneal'] as const;

export interface FinalFigures {
  parallelism: number;
  /** Share of episodes that launched no subagent at all. */
  serialFraction: number;
  finishRate: number;
  rPerf: number;
  critical: number;
  criticalOverSerial: number;
  peakParallelism: number;
  /** First update at which at least half the episodes launch a subagent (null: never). */
  leftSerialAt: number | null;
  /** Mean r_perf over the 5 updates up to the run's midpoint (before a curriculum switch at half time). */
  rPerfMid: number;
}

export function finalFigures(records: SwarmUpdateRecord[], last = 10): FinalFigures {
  const eps: SwarmEpisodeStats[] = records.slice(-last).flatMap((r) => r.episodes);
  const mean = (f: (x: SwarmEpisodeStats) => number) => eps.reduce((a, x) => a + f(x), 0) / Math.max(1, eps.length);
  let peak = 0;
  let leftSerialAt: number | null = null;
  for (const r of records) {
    const n = Math.max(1, r.episodes.length);
    peak = Math.max(peak, r.episodes.reduce((a, x) => a + x.avgParallelism, 0) / n);
    const launching = r.episodes.filter((x) => x.maxParallelism > 0).length / n;
    if (leftSerialAt === null && launching >= 0.5) leftSerialAt = r.update;
  }
  const half = Math.floor(records.length / 2);
  const midEps = records.slice(Math.max(0, half - 5), half).flatMap((r) => r.episodes);
  return {
    parallelism: mean((x) => x.avgParallelism),
    serialFraction: mean((x) => (x.maxParallelism === 0 ? 1 : 0)),
    finishRate: mean((x) => x.finishRate),
    rPerf: mean((x) => x.rPerf),
    critical: mean((x) => x.criticalSteps),
    criticalOverSerial: mean((x) => x.criticalSteps / Math.max(1, x.serialBaseline)),
    peakParallelism: peak,
    leftSerialAt,
    rPerfMid: midEps.reduce((a, x) => a + x.rPerf, 0) / Math.max(1, midEps.length),
  };
}

export function phenomena(f: FinalFigures): string[] {
  const out: string[] = [];
  if (f.serialFraction >= 0.5) out.push('serial collapse');
  if (f.serialFraction < 0.5 && f.finishRate < 0.7) out.push('spurious parallelism');
  if (f.rPerf >= 0.9 && f.criticalOverSerial <= 1 / 3) out.push('target met');
  return out;
}

export const swarmStoryBenchmark: Benchmark = {
  name: 'swarm-story',
  description: 'swarm-v2 ablations (annealed, no shaping, λ1 only, λ2 only, constant λ1, start bias 2/4/6, starts from the planner’s or the packer’s demonstrations) and scripted baselines with the task’s floor on the decomposition task, held-out seeds 6-15 (--split tuning|heldout|both, --updates, --rows, --eval); --version 1: the first swarm\'s presets on wide search K=32',
  help: {
    seeds: `${STORY_V2_SEEDS}; with --version 1: one run per seed and preset (default 1,2,3,4,5)`,
    flags: [
      { name: 'version', value: '1', text: "the first swarm's presets on wide search K = 32 instead of the second swarm (which runs without it); of the flags below only --updates and --presets apply to it" },
      ...STORY_V2_FLAGS,
      { name: 'presets', value: 'a,b', text: `with --version 1: the presets to run (default ${STORY_PRESETS.join(',')})` },
    ],
  },
  async run(args) {
    const { seeds, flags } = args;
    if (flags.version !== '1') return runSwarmV2Story(args);
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = {};
    const presets = flags.presets ? flags.presets.split(',') : [...STORY_PRESETS];
    for (const preset of presets) {
      const per: Array<FinalFigures & { seed: number; seconds: number; phenomena: string[] }> = [];
      for (const seed of seeds) {
        const overrides: Record<string, unknown> = { seed };
        if (flags.updates) overrides['swarm.updates'] = Number(flags.updates);
        const config = resolveExperiment(preset, overrides);
        const swarm: SwarmUpdateRecord[] = [];
        const run = new TrainingRun(config, (r) => r.type === 'swarm' && swarm.push(r), nodePlatform());
        const summary = await run.run();
        if (summary.stopReason === 'error') throw new Error(`${preset} seed ${seed}: ${summary.error}`);
        const f = finalFigures(swarm);
        const ph = phenomena(f);
        per.push({ ...f, seed, seconds: summary.wallSeconds, phenomena: ph });
        rows.push([
          preset, seed, f.leftSerialAt ?? 'never', f.parallelism.toFixed(1), f.peakParallelism.toFixed(1), f.finishRate.toFixed(2), f.rPerfMid.toFixed(3), f.rPerf.toFixed(3), f.critical.toFixed(1), f.criticalOverSerial.toFixed(3), summary.wallSeconds.toFixed(0), ph.join(', ') || '-',
        ]);
        process.stderr.write(`${preset} seed ${seed}: r_perf ${f.rPerf.toFixed(3)}, critical/serial ${f.criticalOverSerial.toFixed(3)}, finish ${f.finishRate.toFixed(2)} (${summary.wallSeconds.toFixed(0)} s)\n`);
      }
      const med = (k: Exclude<keyof FinalFigures, 'leftSerialAt'>) => median(per.map((p) => p[k]));
      const left = per.filter((p) => p.leftSerialAt !== null).length;
      const count = (name: string) => per.filter((p) => p.phenomena.includes(name)).length;
      rows.push([
        `**${preset} median**`, '', `${left}/${per.length} left`, med('parallelism').toFixed(1), med('peakParallelism').toFixed(1), med('finishRate').toFixed(2), med('rPerfMid').toFixed(3), med('rPerf').toFixed(3), med('critical').toFixed(1), med('criticalOverSerial').toFixed(3), median(per.map((p) => p.seconds)).toFixed(0),
        `serial collapse ${count('serial collapse')}/${per.length}, spurious ${count('spurious parallelism')}/${per.length}, target ${count('target met')}/${per.length}`,
      ]);
      figures[preset] = { runs: per, median: { rPerf: med('rPerf'), criticalOverSerial: med('criticalOverSerial'), finishRate: med('finishRate'), parallelism: med('parallelism') } };
    }
    return {
      table: markdownTable(['preset', 'seed', 'left serial at update', 'parallelism', 'peak', 'finish rate', 'r_perf at half time', 'r_perf', 'critical', 'critical ÷ serial', 'wall s', 'phenomena'], rows),
      figures,
    };
  },
};

export const swarmScaleBenchmark: Benchmark = {
  name: 'swarm-scale',
  description: 'swarm-v2: a learned set-policy orchestrator on 100-subtask tasks (up to 100 subagents per stage): wall time per update, forward calls per tick (--updates); --version 1: the first swarm\'s scripted 100-subagent episode',
  help: {
    seeds: null,
    flags: [
      ...SCALE_V2_FLAGS,
      { name: 'version', value: '1', text: "the first swarm's scripted episode (one stage of 100 subagents, wide search, large subagents) instead; it takes no --updates" },
    ],
  },
  async run(args) {
    if (args.flags.version !== '1') return runSwarmV2Scale(args);
    const backend = await chooseBackend({ preferred: 'wasm' });
    const large = new FrozenSubagent(await loadSubagentCheckpoint('large'), 'large');
    const orch = new MaskedActorCritic([64], 1);
    const inference = new CentralInference(orch, large, large, new Rng(1), { subagentTemperature: 1, directTemperature: 1 });
    const limits = resolveLimits({ maxMainSteps: 100, subagentStepCap: 100, contextBudget: 1000, maxSubagentsPerStage: 100 });
    const actor = new SwarmActor({ task: { kind: 'wideSearch', numItems: 100, difficulty: 'hard', graphDifficulty: 'medium', limits }, actorIndex: 0, seed: 1 });
    const started = performance.now();
    let p = actor.start(0, 1);
    const perStage: Array<{ stage: number; subagents: number; steps: number; forwardCalls: number }> = [];
    let stageCalls = 0;
    let stage = 0;
    let log = null;
    while (p.running > 0) {
      let orchActions = new Int32Array(p.orchSlots.length);
      if (p.orchSlots.length > 0) {
        // Scripted orchestrator for this benchmark: one stage of 100 subagents, then finish.
        orchActions = Int32Array.of(stage === 0 ? ACTION_ASSIGN_ALL : ACTION_FINISH);
        if (stage > 0) perStage.push({ stage, subagents: 0, steps: 0, forwardCalls: stageCalls });
        stage += 1;
        stageCalls = 0;
      }
      const before = large.forwardCalls;
      const answer = await inference.tick([p]);
      stageCalls += large.forwardCalls - before;
      p = actor.advance(orchActions.length ? orchActions : answer.orch[0].actions, answer.work[0]);
      for (const f of p.finished) log = f.log;
    }
    const wall = (performance.now() - started) / 1000;
    if (!log) throw new Error('swarm-scale: the episode did not finish');
    const st = log.stages[0];
    const steps = st.subagents.reduce((a, x) => a + x.steps, 0);
    const slowest = st.subagents.reduce((a, x) => Math.max(a, x.steps), 0);
    const row = [1, st.subagents.length, steps, slowest, perStage[0]?.forwardCalls ?? 0, (perStage[0]?.forwardCalls ?? 0) / Math.max(1, slowest), log.nCompleted, wall.toFixed(2), backend.name];
    large.dispose();
    orch.dispose();
    return {
      table: markdownTable(['stages with subagents', 'subagents', 'total subagent steps', 'slowest subagent', 'subagent forward calls in the stage', 'calls per step', 'completed', 'wall s', 'backend'], [row]),
      figures: { subagents: st.subagents.length, totalSteps: steps, slowest, forwardCalls: perStage[0]?.forwardCalls, completed: log.nCompleted, wallSeconds: wall },
    };
  },
};
