import { spawn, type ChildProcess } from 'node:child_process';
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startNatsServer, type RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';
import { connectCluster } from '../../../src/cluster/connect';
import { NatsActorSpawner } from '../../../src/cluster/natsSpawner';
import { ActorPool, type PoolEvent } from '../../../src/core/remote/actorPool';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { StreamActor } from './fixtures/clusterActors';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** A real nats-server on loopback, random free ports. */
export function testServer(o: { token?: string; port?: number; dir?: string } = {}): Promise<RunningNatsServer> {
  return startNatsServer({ host: '127.0.0.1', port: o.port ?? -1, wsPort: null, token: o.token ?? generateToken(), allowedOrigins: [], ...(o.dir ? { dir: o.dir } : {}) });
}

/** A describe block's own nats-server, token and connection (`name`), with closers run in reverse at its end. */
export interface ClusterSuite {
  readonly server: RunningNatsServer;
  readonly token: string;
  readonly nc: NatsConnection;
  /** Run in reverse order after the block's tests, before its connection closes and its server stops. */
  readonly closers: Array<() => Promise<unknown>>;
  /** Another connection to the block's server. */
  connect(name: string): Promise<NatsConnection>;
}

/** Starts a nats-server and a connection for the enclosing describe block (beforeAll), and ends them (afterAll). */
export function clusterServerPerSuite(name: string): ClusterSuite {
  let server: RunningNatsServer | undefined;
  let nc: NatsConnection | undefined;
  const token = generateToken();
  const closers: Array<() => Promise<unknown>> = [];
  const started = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error('clusterServerPerSuite: used outside its describe block');
    return x;
  };
  const suite: ClusterSuite = {
    get server() {
      return started(server);
    },
    token,
    get nc() {
      return started(nc);
    },
    closers,
    connect: (connName) => connectCluster({ servers: [started(server).url], token, name: connName }),
  };
  beforeAll(async () => {
    server = await testServer({ token });
    nc = await suite.connect(name);
  }, 20_000);
  afterAll(async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await nc?.close();
    await server?.stop();
  });
  return suite;
}

export async function waitFor(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts (node itself, not the tsx wrapper, so a SIGKILL reaches the host) tests/unit/cluster/fixtures/hostProcess.ts; resolves once it offers its slots. */
export async function startHostProcess(server: string, token: string, capacity: number, name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/hostProcess.ts', import.meta.url)), server, token, String(capacity), name], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`host process exited (${code})`)));
  });
  return child;
}

export function killChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * A server of its own, two host processes of one slot each (`name`-a and `name`-b), a learner's
 * spawner that declares a host dead after 1 s, and a pool of one StreamActor built on them (its
 * events in `events`). Everything is registered in `closers`, hosts SIGKILLed at the end.
 */
export async function twoHostsWithStreamActor(token: string, name: string, closers: Array<() => Promise<unknown>>) {
  const own = await testServer({ token });
  const children: ChildProcess[] = [];
  closers.push(async () => {
    await Promise.all(children.map((c) => killChild(c, 'SIGKILL')));
    await own.stop();
  });
  children.push(await startHostProcess(own.url, token, 1, `${name}-a`), await startHostProcess(own.url, token, 1, `${name}-b`));
  const learnerConn = await connectCluster({ servers: [own.url], token, name: `learner ${name}` });
  const spawner = new NatsActorSpawner(learnerConn, { hostTimeoutMs: 1000 });
  closers.push(() => learnerConn.close(), () => spawner.close());
  await waitFor(() => spawner.liveHosts().length === 2, 10_000, 'both hosts');
  const events: PoolEvent[] = [];
  const pool = await ActorPool.create(remoteClass(StreamActor, { spawner }), 1, () => [], { heartbeatMs: 200, heartbeatTimeoutMs: 5000, onEvent: (e) => events.push(e) });
  closers.push(() => pool.terminate());
  return { own, children, learnerConn, spawner, pool, events };
}

/** Whether a process with this pid is still running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
