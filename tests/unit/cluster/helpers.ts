import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startNatsServer, type RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** A real nats-server on loopback, random free ports. */
export function testServer(o: { token?: string; port?: number; dir?: string } = {}): Promise<RunningNatsServer> {
  return startNatsServer({ host: '127.0.0.1', port: o.port ?? -1, wsPort: null, token: o.token ?? generateToken(), allowedOrigins: [], ...(o.dir ? { dir: o.dir } : {}) });
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
