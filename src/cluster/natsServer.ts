/**
 * Runs nats-server as a child process with a config from serverConfig.ts, waits until it is ready
 * and reports the ports it listens on; stop() ends it (SIGTERM, then SIGKILL after a grace period).
 * Browser tabs reach its WebSocket listener (on loopback) through the origin gate (originGate.ts),
 * which listens where the WebSocket was asked for and checks each page's origin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServerConfig, type ClusterServerOptions } from './serverConfig';
import { GATE_ORIGIN, originSet, startOriginGate, type OriginGate } from './originGate';

export const NATS_SERVER_CANDIDATES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

export function findNatsServer(): string {
  const fromEnv = process.env.NATS_SERVER;
  if (fromEnv) return fromEnv;
  const found = NATS_SERVER_CANDIDATES.find((p) => existsSync(p));
  if (!found) throw new Error("nats-server not found: install it with 'sudo apt-get install -y nats-server' (or set NATS_SERVER to its path)");
  return found;
}

export interface RunningNatsServer {
  readonly process: ChildProcess;
  readonly pid: number;
  /** nats://host:port */
  readonly url: string;
  readonly port: number;
  /** ws://host:port (or wss://), when a WebSocket listener was asked for. */
  readonly wsUrl: string | null;
  readonly wsPort: number | null;
  /** The folder holding the config and the JetStream store (removed by stop() when we made it). */
  readonly dir: string;
  stop(): Promise<void>;
}

export interface StartOptions extends Omit<ClusterServerOptions, 'storeDir'> {
  /** Keep JetStream data here (a restart with the same dir resumes streams); default: a fresh temp folder. */
  dir?: string;
  readyTimeoutMs?: number;
  log?(line: string): void;
}

export async function startNatsServer(o: StartOptions): Promise<RunningNatsServer> {
  originSet(o.allowedOrigins); // a bad entry is refused before anything starts
  const bin = findNatsServer();
  // nats-server's own WebSocket listener: loopback, a free port, only the gate's origin.
  const inner = o.wsPort === null ? {} : { wsHost: '127.0.0.1', wsPort: -1, wsNoTls: true, allowedOrigins: [GATE_ORIGIN] };
  const ownDir = o.dir === undefined;
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'parl-cluster-'));
  const confPath = join(dir, 'nats-server.conf');
  try {
    writeFileSync(confPath, buildServerConfig({ ...o, ...inner, storeDir: join(dir, 'jetstream') }), { mode: 0o600 });
  } catch (err) {
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const child = spawn(bin, ['-c', confPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let exited = false;
  let gate: OriginGate | null = null;
  const exitedP = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const stop = async (): Promise<void> => {
    await gate?.close();
    gate = null;
    if (!exited) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exitedP;
      clearTimeout(t);
    }
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = await new Promise<{ port: number; wsPort: number | null }>((resolve, reject) => {
      let port: number | null = null;
      let wsPort: number | null = null;
      let buf = '';
      const timer = setTimeout(() => reject(new Error(`nats-server did not become ready within ${o.readyTimeoutMs ?? 10_000} ms:\n${buf.slice(-2000)}`)), o.readyTimeoutMs ?? 10_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited (code ${code}) before it was ready:\n${buf.slice(-2000)}`));
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        buf += chunk;
        for (const line of chunk.split('\n')) if (line.trim()) o.log?.(line);
        port ??= Number(/Listening for client connections on [^\s]*:(\d+)/.exec(buf)?.[1] ?? NaN) || null;
        wsPort ??= Number(/Listening for websocket clients on wss?:\/\/[^\s]*:(\d+)/.exec(buf)?.[1] ?? NaN) || null;
        if (/Server is ready/.test(buf) && port !== null && (o.wsPort === null || wsPort !== null)) {
          clearTimeout(timer);
          resolve({ port, wsPort });
        }
      });
    });
    const tls = o.tlsCert !== undefined;
    const host = o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host;
    if (ports.wsPort !== null && o.wsPort !== null) {
      const at = o.wsPort === -1 ? 0 : o.wsPort;
      gate = await startOriginGate({ host: o.host, port: at, allowedOrigins: o.allowedOrigins, target: { host: '127.0.0.1', port: ports.wsPort }, ...(tls ? { tlsCert: o.tlsCert, tlsKey: o.tlsKey } : {}) }).catch((err: unknown) => {
        throw new Error(`could not open the WebSocket port for browser tabs on ${host}:${at}: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
    const wsPort = gate?.port ?? null;
    return {
      process: child,
      pid: child.pid ?? -1,
      url: `${tls ? 'tls' : 'nats'}://${host}:${ports.port}`,
      port: ports.port,
      wsUrl: wsPort === null ? null : `${tls ? 'wss' : 'ws'}://${host}:${wsPort}`,
      wsPort,
      dir,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
