/**
 * `npm run bench -- cluster-scaling [--seconds S] [--t STEPS] [--depth D[,D2…]] [--pack K[,K2…]] [--rounds R]`:
 * rollout throughput of RolloutActors in 1, 2 and 4 Node actor-host processes (one actor each)
 * whose segments go through the JetStream work queue, with D requests in flight per actor as the
 * async loop keeps them (src/engine/producers.ts; D=1: one at a time, as before pipelining), each
 * request asking for K segments packed into one stream message (K=1: one message per segment;
 * default `1,<the default pack for the segment size>`, src/cluster/jetstreamExperience.ts),
 * against the same number of in-process worker-thread actors answering directly; the ratio, the
 * messages and bytes per segment, and the latency from the host's publish to the learner's take.
 *
 * Both sides stay up and take turns: R rounds, each a window of S/R seconds in-process, then one
 * through the cluster for each (K, D), so a change in the machine's load (it is shared) weighs on
 * all alike. Each K has its own nats-server and hosts (a run's stream packs one way). Each side's
 * CPU time per 1000 env steps is measured too (Linux: /proc for the hosts and nats-server): unlike throughput, it
 * hardly depends on the load, and its ratio bounds the throughput ratio once the cores are saturated.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { resolveExperiment } from '../src/config/config';
import { modelSpecFor } from '../src/config/modelSpec';
import { ActorPool } from '../src/core/remote/actorPool';
import { remoteClass } from '../src/core/remote/remoteClass';
import type { ActorSpawner } from '../src/core/remote/spawner';
import { RolloutActor, type RolloutActorOptions } from '../src/engine/rolloutActor';
import { connectCluster } from '../src/cluster/connect';
import { writeCreds } from '../src/cluster/creds';
import { defaultPack, jetstreamExperience } from '../src/cluster/jetstreamExperience';
import type { ConsumerStats } from '../src/cluster/experience';
import { NatsActorSpawner } from '../src/cluster/natsSpawner';
import { startNatsServer } from '../src/cluster/natsServer';
import { generateToken } from '../src/cluster/serverConfig';
import { buildLearner } from '../src/engine/learner';
import { VtraceSegmentAgent } from '../src/engine/segmentAgents';
import { produceIntoStream, STREAM_REQUESTS_PER_ACTOR } from '../src/engine/producers';
import { MAX_PACK } from '../src/cluster/protocol';
import { nodeActorSpawner } from '../src/cli/nodePlatform';
import { markdownTable, median, type Benchmark } from './types';

const REPO = fileURLToPath(new URL('../', import.meta.url));

function options(n: number): RolloutActorOptions[] {
  const config = resolveExperiment('impala-cartpole', { seed: 1, backend: 'wasm' });
  const s = config.settings;
  return Array.from({ length: n }, (_, i) => ({ envId: s['env.id'], numEnvs: s.envsPerActor, seed: 1, actorIndex: i, model: modelSpecFor(config, 'actorCritic'), backend: 'wasm' }));
}

async function pool(spawner: ActorSpawner, n: number): Promise<ActorPool<RolloutActor>> {
  const opts = options(n);
  const p = await ActorPool.create(remoteClass(RolloutActor, { spawner }), n, (i): [RolloutActorOptions] => [opts[i]], { heartbeatMs: 2000, heartbeatTimeoutMs: 30_000 });
  await p.map('init', () => []);
  return p;
}

/** Env steps per actor per segment unless `--t` says otherwise. */
const DEFAULT_T = 64;

/** CPU seconds (user + system) process `pid` used so far, all its threads (Linux /proc); NaN where there is none. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm) ": state is field 3, utime and stime fields 14 and 15, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds of this process so far (every thread: its worker actors too). */
function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

interface WindowResult {
  steps: number;
  /** CPU seconds spent meanwhile: this process (the learner, or the in-process actors), and for the cluster its hosts and nats-server. */
  cpu: { own: number; hosts: number; server: number };
}

/** One side of the comparison, kept up between its measuring windows. */
interface Side {
  window(ms: number): Promise<WindowResult>;
  close(): Promise<void>;
}

/** `n` in-process worker actors, each asked for one segment after the other. */
async function inProcess(n: number, T: number): Promise<Side> {
  const p = await pool(nodeActorSpawner, n);
  await p.map('sampleSegment', () => [null, 0, T, 0]); // warm-up, as the cluster side's first segments
  return {
    async window(ms) {
      let steps = 0;
      const cpu0 = ownCpuSeconds();
      const end = performance.now() + ms;
      await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          while (performance.now() < end) {
            const seg = await p.call(i, 'sampleSegment', null, 0, T, 0);
            steps += seg.T * seg.numEnvs;
          }
        }),
      );
      return { steps, cpu: { own: ownCpuSeconds() - cpu0, hosts: 0, server: 0 } };
    },
    close: () => p.terminate(),
  };
}

function startHost(url: string, credsPath: string, name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/actorHost.ts', '--server', url, '--creds', credsPath, '--actors', '1', '--name', name], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('offers')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`actor host exited (${code}): ${err.slice(-500)}`)));
  });
}

interface ClusterTotals {
  segments: number;
  frames: number;
  frameBytes: number;
  streamMessages: number;
  streamBytes: number;
  latenciesMs: number[];
}

interface ClusterSide {
  /** Env steps in a window of `ms` with `depth` requests in flight per actor. */
  window(ms: number, depth: number): Promise<WindowResult>;
  /** What the windows with `depth` requests per actor added up to. */
  totals(depth: number): ClusterTotals;
  close(): Promise<void>;
}

/**
 * `n` actor hosts (one actor each) producing into the run's stream with up to `maxDepth` requests
 * per actor, each for `pack` segments in one stream message. A window lets each actor have `depth`
 * of them in flight; between windows none, and the segments still on their way when a window ends
 * are taken (not counted) before the next one.
 */
async function throughCluster(n: number, T: number, maxDepth: number, pack: number): Promise<ClusterSide> {
  const token = generateToken();
  const server = await startNatsServer({ host: '127.0.0.1', port: -1, wsPort: null, token, allowedOrigins: [] });
  const credsPath = `${server.dir}/bench.creds`;
  writeCreds(credsPath, { version: 1, servers: [server.url], token, ws: null });
  const hosts: ChildProcess[] = [];
  const stopHosts = async (): Promise<void> => {
    await Promise.all(hosts.map((h) => new Promise<void>((r) => (h.exitCode !== null ? r() : (h.once('exit', () => r()), h.kill('SIGTERM'))))));
    await server.stop();
  };
  try {
    for (let i = 0; i < n; i++) hosts.push(await startHost(server.url, credsPath, `bench-host-${i}`));
    const nc = await connectCluster({ servers: [server.url], token, name: 'bench learner' });
    const spawner = new NatsActorSpawner(nc);
    await spawner.discover();
    const p = await pool(spawner, n);
    let stats: ConsumerStats | null = null;
    const config = resolveExperiment('impala-cartpole', { seed: 1, backend: 'wasm' });
    // Room for two requests of `pack` segments per actor and as many arriving (4 × pack × n), so
    // that a request's size alone does not stop an actor's pipelining.
    const stream = await jetstreamExperience(spawner, { config, capacity: 4 * n * pack, check: () => null }, { runId: `bench${n}k${pack}`, pack, checkpointEveryMs: 1000, onStats: (s) => (stats = s) });
    const consumer = (): ConsumerStats => {
      if (!stats) throw new Error('the stream gave no consumer stats');
      return stats;
    };
    // Version 0 of the learner's weights: each host fetches it once, as in a run.
    const { algorithm } = await buildLearner(config, 'actorCritic');
    const agent = new VtraceSegmentAgent(algorithm);
    await stream.publishWeights(0, await agent.getWeightsAsync());
    agent.dispose();

    let stopping = false;
    // Requests each actor may have in flight now (0 between windows), and those it has.
    let limit = maxDepth;
    const inFlight = new Array<number>(n).fill(0);
    const waiting: Array<() => void> = [];
    const wake = (): void => {
      for (const w of waiting.splice(0)) w();
    };
    let answered = 0;
    let taken = 0;
    const producers = Array.from({ length: n }, (_, i) =>
      produceIntoStream(i, {
        stream,
        progress: { lose: () => undefined, backoff: () => new Promise<void>((r) => setTimeout(r, 50)) },
        stopping: () => stopping,
        inFlight: maxDepth,
        request: async () => {
          while (inFlight[i] >= limit && !stopping) await new Promise<void>((r) => waiting.push(r));
          inFlight[i]++;
          try {
            await p.call(i, 'sampleSegment', null, 0, T, 0);
            answered += pack;
          } finally {
            inFlight[i]--;
            wake();
          }
        },
      }),
    );
    let update = 0;
    const takeSome = async (k: number): Promise<number> => {
      const segs = await stream.take(k);
      taken += segs.length;
      await stream.commit(++update, 0, () => Promise.resolve([]));
      return segs.reduce((a, s) => a + s.T * s.numEnvs, 0);
    };
    // Warm-up: the first segments (workers compiling, the consumer starting) are not counted.
    await takeSome(n);
    const byDepth = new Map<number, ClusterTotals>();
    const totals = (depth: number): ClusterTotals => {
      let t = byDepth.get(depth);
      if (!t) byDepth.set(depth, (t = { segments: 0, frames: 0, frameBytes: 0, streamMessages: 0, streamBytes: 0, latenciesMs: [] }));
      return t;
    };
    const pause = async (): Promise<void> => {
      limit = 0;
      // What is still on its way is taken now, so that the next window starts from an empty stream.
      while (inFlight.some((k) => k > 0)) await new Promise((r) => setTimeout(r, 2));
      while (taken < answered) await takeSome(answered - taken);
    };
    await pause();
    return {
      totals,
      async window(ms, depth) {
        const t = totals(depth);
        const c = consumer();
        const frames0 = spawner.stats.framesSent + spawner.stats.framesReceived;
        const bytes0 = spawner.stats.bytesSent + spawner.stats.bytesReceived;
        const messages0 = c.messages;
        const streamBytes0 = c.bytes;
        const lat0 = c.latenciesMs.length;
        const taken0 = taken;
        const hostsCpu = (): number => hosts.reduce((a, h) => a + cpuSecondsOf(h.pid ?? -1), 0);
        const cpu0 = { own: ownCpuSeconds(), hosts: hostsCpu(), server: cpuSecondsOf(server.pid) };
        limit = Math.min(depth, maxDepth);
        wake();
        let steps = 0;
        const end = performance.now() + ms;
        while (performance.now() < end) steps += await takeSome(1);
        const cpu = { own: ownCpuSeconds() - cpu0.own, hosts: hostsCpu() - cpu0.hosts, server: cpuSecondsOf(server.pid) - cpu0.server };
        t.segments += taken - taken0;
        t.frames += spawner.stats.framesSent + spawner.stats.framesReceived - frames0;
        t.frameBytes += spawner.stats.bytesSent + spawner.stats.bytesReceived - bytes0;
        t.streamMessages += c.messages - messages0;
        t.streamBytes += c.bytes - streamBytes0;
        t.latenciesMs.push(...c.latenciesMs.slice(lat0));
        await pause();
        return { steps, cpu };
      },
      async close() {
        stopping = true;
        wake();
        stream.stop();
        await stream.close({ update, version: 0, weights: [] }).catch(() => undefined);
        await Promise.race([Promise.allSettled(producers), new Promise((r) => setTimeout(r, 3000))]);
        await p.terminate();
        await spawner.close();
        await nc.close();
        await stopHosts();
      },
    };
  } catch (err) {
    await stopHosts();
    throw err;
  }
}

function positiveInt(value: string | undefined, fallback: number, max: number, flag: string): number {
  const v = Number(value ?? fallback);
  if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`${flag} must be a whole number from 1 to ${max}`);
  return v;
}

type Cpu = WindowResult['cpu'];

function addCpu(to: Cpu, x: Cpu): void {
  to.own += x.own;
  to.hosts += x.hosts;
  to.server += x.server;
}

/** A list flag such as `--depth 1,2`: whole numbers from 1 to `max`, no repeats. */
function listFlag(value: string, max: number, flag: string): number[] {
  const list = value.split(',').map((d) => positiveInt(d.trim(), 1, max, flag));
  if (new Set(list).size !== list.length) throw new Error(`${flag} lists a value twice`);
  return list;
}

export const clusterScalingBenchmark: Benchmark = {
  name: 'cluster-scaling',
  description: 'rollout throughput with actors in 1, 2, 4 actor-host processes through NATS JetStream vs in-process workers',
  help: {
    seeds: null,
    flags: [
      { name: 'seconds', value: 'S', text: 'measuring time of each side, split into --rounds windows (default 8)' },
      { name: 't', value: 'STEPS', text: `segment length, 1 to 4096 (default ${DEFAULT_T})` },
      { name: 'depth', value: 'D,D,...', text: `requests in flight per actor, 1 to 8 each (default ${STREAM_REQUESTS_PER_ACTOR})` },
      { name: 'pack', value: 'K,K,...', text: `segments packed into one stream message, 1 to ${MAX_PACK} each (default 1 and the default pack for the segment size)` },
      { name: 'rounds', value: 'R', text: 'turns the two sides take, 1 to 100 (default 4)' },
    ],
  },
  async run(args) {
    const seconds = Number(args.flags.seconds ?? 8);
    if (!(seconds > 0)) throw new Error('--seconds must be a positive number');
    const T = positiveInt(args.flags.t, DEFAULT_T, 4096, '--t');
    const depths = listFlag(args.flags.depth ?? String(STREAM_REQUESTS_PER_ACTOR), 8, '--depth');
    // The bench's actors step impala-cartpole's envs per actor: a segment is T × that many steps.
    const stepsPerSegment = T * resolveExperiment('impala-cartpole', { seed: 1 }).settings.envsPerActor;
    const packs = listFlag(args.flags.pack ?? [...new Set([1, defaultPack(stepsPerSegment)])].join(','), MAX_PACK, '--pack');
    const rounds = positiveInt(args.flags.rounds, 4, 100, '--rounds');
    const windowMs = (seconds * 1000) / rounds;
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = { loadAverageBefore: loadavg()[0], T, stepsPerSegment, depths, packs, rounds, seconds };
    const perKStep = (cpuSeconds: number, steps: number): number => (1e6 * cpuSeconds) / steps;
    for (const n of [1, 2, 4]) {
      const local = await inProcess(n, T);
      const clusters = new Map<number, ClusterSide>();
      const closeAll = async (): Promise<void> => {
        for (const c of clusters.values()) await c.close();
        await local.close();
      };
      try {
        for (const k of packs) clusters.set(k, await throughCluster(n, T, Math.max(...depths), k));
      } catch (err) {
        await closeAll();
        throw err;
      }
      let localSteps = 0;
      const localCpu: Cpu = { own: 0, hosts: 0, server: 0 };
      const variants = packs.flatMap((pack) => depths.map((depth) => ({ pack, depth, steps: 0, cpu: { own: 0, hosts: 0, server: 0 }, roundRatios: [] as number[] })));
      try {
        for (let r = 0; r < rounds; r++) {
          const a = await local.window(windowMs);
          localSteps += a.steps;
          addCpu(localCpu, a.cpu);
          for (const acc of variants) {
            const side = clusters.get(acc.pack);
            if (!side) throw new Error(`no cluster side for pack ${acc.pack}`);
            const b = await side.window(windowMs, acc.depth);
            acc.steps += b.steps;
            addCpu(acc.cpu, b.cpu);
            acc.roundRatios.push(b.steps / a.steps);
          }
        }
      } finally {
        await closeAll();
      }
      const localCpuPerK = perKStep(localCpu.own, localSteps);
      for (const acc of variants) {
        const { depth, pack } = acc;
        const side = clusters.get(pack);
        if (!side) continue;
        const t = side.totals(depth);
        const clusterCpuPerK = perKStep(acc.cpu.own + acc.cpu.hosts + acc.cpu.server, acc.steps);
        const sorted = [...t.latenciesMs].sort((a, b) => a - b);
        const c = {
          inProcessStepsPerSecond: localSteps / seconds,
          stepsPerSecond: acc.steps / seconds,
          ratio: acc.steps / localSteps,
          roundRatios: acc.roundRatios,
          segments: t.segments,
          streamMessagesPerSegment: t.streamMessages / t.segments,
          // The call and its receipt (core NATS), the stream message (plus object-store chunks for big ones).
          messagesPerSegment: (t.frames + t.streamMessages) / t.segments,
          bytesPerSegment: (t.frameBytes + t.streamBytes) / t.segments,
          latencyMedianMs: median(t.latenciesMs),
          latencyP99Ms: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? NaN,
          // CPU milliseconds per 1000 env steps: the in-process side (its actors and their calls), the cluster's learner, hosts and nats-server.
          cpuMsPer1kSteps: { inProcess: localCpuPerK, cluster: clusterCpuPerK, learner: perKStep(acc.cpu.own, acc.steps), hosts: perKStep(acc.cpu.hosts, acc.steps), natsServer: perKStep(acc.cpu.server, acc.steps) },
          cpuRatio: localCpuPerK / clusterCpuPerK,
        };
        figures[`actors${n}depth${depth}pack${pack}`] = c;
        const k = c.cpuMsPer1kSteps;
        const rr = acc.roundRatios;
        rows.push([n, depth, pack, Math.round(c.inProcessStepsPerSecond), Math.round(c.stepsPerSecond), c.ratio.toFixed(2), `${Math.min(...rr).toFixed(2)}–${Math.max(...rr).toFixed(2)}`, c.messagesPerSegment.toFixed(1), Math.round(c.bytesPerSegment), c.latencyMedianMs.toFixed(1), c.latencyP99Ms.toFixed(1), k.inProcess.toFixed(1), `${k.cluster.toFixed(1)} (${k.learner.toFixed(1)} + ${k.hosts.toFixed(1)} + ${k.natsServer.toFixed(1)})`, c.cpuRatio.toFixed(2)]);
      }
    }
    figures.loadAverageAfter = loadavg()[0];
    const table = markdownTable(['actors', 'requests in flight', 'segments per message', 'in-process steps/s', 'cluster steps/s', 'ratio', 'ratio per round', 'messages/segment', 'bytes/segment', 'latency median ms', 'latency p99 ms', 'CPU ms/1k steps in-process', 'CPU ms/1k steps cluster (learner + hosts + server)', 'CPU ratio'], rows);
    process.stdout.write(`${table}\n(load average ${String(figures.loadAverageBefore)} before, ${String(figures.loadAverageAfter)} after; T=${T} (${stepsPerSegment} steps per segment), ${rounds} rounds of ${(windowMs / 1000).toFixed(1)} s per side)\n`);
    return { table, figures };
  },
};
