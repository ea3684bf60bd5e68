/**
 * `npm run bench -- cluster-scaling [--seconds S] [--t STEPS]`: rollout throughput of RolloutActors in 1, 2 and
 * 4 Node actor-host processes (one actor each) whose segments go through the JetStream work queue,
 * against the same number of in-process worker-thread actors answering directly; the ratio, the
 * messages and bytes per segment, and the latency from the host's publish to the learner's take.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { resolveExperiment } from '../../config/config';
import { modelSpecFor } from '../../config/modelSpec';
import { ActorPool } from '../../core/remote/actorPool';
import { remoteClass } from '../../core/remote/remoteClass';
import type { ActorSpawner } from '../../core/remote/spawner';
import { RolloutActor, type RolloutActorOptions } from '../../engine/rolloutActor';
import { connectCluster } from '../../cluster/connect';
import { writeCreds } from '../../cluster/creds';
import { jetstreamExperience } from '../../cluster/jetstreamExperience';
import type { ConsumerStats } from '../../cluster/experience';
import { NatsActorSpawner } from '../../cluster/natsSpawner';
import { startNatsServer } from '../../cluster/natsServer';
import { generateToken } from '../../cluster/serverConfig';
import { buildLearner } from '../../engine/learner';
import { VtraceSegmentAgent } from '../../engine/segmentAgents';
import { nodeActorSpawner } from '../nodePlatform';
import { markdownTable, median, type Benchmark } from './types';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

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

/** Env steps per second of `n` in-process worker actors over `seconds`. */
async function inProcess(n: number, seconds: number, T: number): Promise<number> {
  const p = await pool(nodeActorSpawner, n);
  await p.map('sampleSegment', () => [null, 0, T, 0]); // warm-up, as the cluster side's first segments
  let steps = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      while (performance.now() < end) {
        const seg = await p.call(i, 'sampleSegment', null, 0, T, 0);
        steps += seg.T * seg.numEnvs;
      }
    }),
  );
  const rate = steps / ((performance.now() - start) / 1000);
  await p.terminate();
  return rate;
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

interface ClusterFigures {
  stepsPerSecond: number;
  segments: number;
  messagesPerSegment: number;
  bytesPerSegment: number;
  latencyMedianMs: number;
  latencyP99Ms: number;
}

async function throughCluster(n: number, seconds: number, T: number): Promise<ClusterFigures> {
  const token = generateToken();
  const server = await startNatsServer({ host: '127.0.0.1', port: -1, wsPort: null, token, allowedOrigins: [] });
  const credsPath = `${server.dir}/bench.creds`;
  writeCreds(credsPath, { version: 1, servers: [server.url], token, ws: null });
  const hosts: ChildProcess[] = [];
  try {
    for (let i = 0; i < n; i++) hosts.push(await startHost(server.url, credsPath, `bench-host-${i}`));
    const nc = await connectCluster({ servers: [server.url], token, name: 'bench learner' });
    const spawner = new NatsActorSpawner(nc);
    await spawner.discover();
    const p = await pool(spawner, n);
    let stats: ConsumerStats | null = null;
    const config = resolveExperiment('impala-cartpole', { seed: 1, backend: 'wasm' });
    const stream = await jetstreamExperience(spawner, { config, capacity: 4 * n, check: () => null }, { runId: `bench${n}`, checkpointEveryMs: 1000, onStats: (s) => (stats = s) });
    // Version 0 of the learner's weights: each host fetches it once, as in a run.
    const { algorithm } = await buildLearner(config, 'actorCritic');
    const agent = new VtraceSegmentAgent(algorithm);
    await stream.publishWeights(0, await agent.getWeightsAsync());
    agent.dispose();
    let stopping = false;
    const producers = Array.from({ length: n }, async (_, i) => {
      while (!stopping) {
        await stream.reserve();
        if (stopping) return;
        await p.call(i, 'sampleSegment', null, 0, T, 0).catch(() => stream.release());
      }
    });
    // Warm-up: the first segments (workers compiling, the consumer starting) are not counted.
    await stream.take(n);
    const frames0 = spawner.stats.framesSent + spawner.stats.framesReceived;
    const bytes0 = spawner.stats.bytesSent + spawner.stats.bytesReceived;
    const messages0 = stats ? (stats as ConsumerStats).messages : 0;
    const streamBytes0 = stats ? (stats as ConsumerStats).bytes : 0;
    let steps = 0;
    let segments = 0;
    const start = performance.now();
    const end = start + seconds * 1000;
    while (performance.now() < end) {
      const segs = await stream.take(1);
      for (const s of segs) steps += s.T * s.numEnvs;
      segments += segs.length;
      await stream.commit(segments, 0, async () => []);
    }
    const elapsed = (performance.now() - start) / 1000;
    stopping = true;
    stream.stop();
    const s = stats as ConsumerStats | null;
    const lat = s ? s.latenciesMs.slice(-segments) : [];
    const sorted = [...lat].sort((a, b) => a - b);
    const figures: ClusterFigures = {
      stepsPerSecond: steps / elapsed,
      segments,
      // The call and its receipt (core NATS), the stream message (plus object-store chunks for big ones).
      messagesPerSegment: (spawner.stats.framesSent + spawner.stats.framesReceived - frames0 + (s ? s.messages - messages0 : segments)) / segments,
      bytesPerSegment: (spawner.stats.bytesSent + spawner.stats.bytesReceived - bytes0 + (s ? s.bytes - streamBytes0 : 0)) / segments,
      latencyMedianMs: median(lat),
      latencyP99Ms: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? NaN,
    };
    await stream.close({ update: segments, version: 0, weights: [] }).catch(() => undefined);
    await Promise.race([Promise.allSettled(producers), new Promise((r) => setTimeout(r, 3000))]);
    await p.terminate();
    await spawner.close();
    await nc.close();
    return figures;
  } finally {
    await Promise.all(hosts.map((h) => new Promise<void>((r) => (h.exitCode !== null ? r() : (h.once('exit', () => r()), h.kill('SIGTERM'))))));
    await server.stop();
  }
}

export const clusterScalingBenchmark: Benchmark = {
  name: 'cluster-scaling',
  description: 'rollout throughput with actors in 1, 2, 4 actor-host processes through NATS JetStream vs in-process workers',
  async run(args) {
    const seconds = Number(args.flags.seconds ?? 8);
    const T = Number(args.flags.t ?? DEFAULT_T);
    if (!Number.isInteger(T) || T < 1 || T > 4096) throw new Error('--t must be a whole number of steps from 1 to 4096');
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = { loadAverageBefore: loadavg()[0] };
    for (const n of [1, 2, 4]) {
      const local = await inProcess(n, seconds, T);
      const c = await throughCluster(n, seconds, T);
      figures[`actors${n}`] = { inProcessStepsPerSecond: local, ...c, ratio: c.stepsPerSecond / local };
      rows.push([n, Math.round(local), Math.round(c.stepsPerSecond), (c.stepsPerSecond / local).toFixed(2), c.messagesPerSegment.toFixed(1), Math.round(c.bytesPerSegment), c.latencyMedianMs.toFixed(1), c.latencyP99Ms.toFixed(1)]);
    }
    figures.loadAverageAfter = loadavg()[0];
    const table = markdownTable(['actors', 'in-process steps/s', 'cluster steps/s', 'ratio', 'messages/segment', 'bytes/segment', 'latency median ms', 'latency p99 ms'], rows);
    process.stdout.write(`${table}\n(load average ${String(figures.loadAverageBefore)} before, ${String(figures.loadAverageAfter)} after; T=${T}, ${seconds} s each)\n`);
    return { table, figures };
  },
};
