import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectCluster } from '../../../src/cluster/connect';
import { parseJoinFragment } from '../../../src/cluster/joinLink';
import { readCreds } from '../../../src/cluster/creds';
import { buildServerConfig, generateToken, isLoopback } from '../../../src/cluster/serverConfig';
import { alive, killChild, REPO } from './helpers';

describe('server config', () => {
  const base = { host: '127.0.0.1', port: 4222, wsPort: 8443, token: generateToken(), storeDir: '/tmp/x', allowedOrigins: ['http://localhost:5173'] };

  it('a token is 32 random bytes: 43 base64url characters, never the same twice', () => {
    const a = generateToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url').byteLength).toBe(32);
    expect(generateToken()).not.toBe(a);
    expect(() => generateToken(16)).toThrow(/32/);
  });

  it('loopback: JetStream, the token, a WebSocket without TLS for the listed origins only', () => {
    const conf = buildServerConfig(base);
    expect(conf).toContain(`token: "${base.token}"`);
    expect(conf).toMatch(/jetstream \{\n {2}store_dir: "\/tmp\/x"/);
    expect(conf).toMatch(/websocket \{[^}]*no_tls: true/);
    expect(conf).toContain('allowed_origins: ["http://localhost:5173"]');
    expect(conf).toContain('host: "127.0.0.1"');
  });

  it('any other address needs TLS, and then the WebSocket gets it too', () => {
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(() => buildServerConfig({ ...base, host: '0.0.0.0' })).toThrow(/TLS/);
    const conf = buildServerConfig({ ...base, host: '0.0.0.0', tlsCert: '/c.pem', tlsKey: '/k.pem' });
    expect(conf).not.toContain('no_tls');
    expect(conf.match(/cert_file: "\/c.pem"/g)).toHaveLength(2);
  });
});

describe('npm run cluster', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parl-cluster-cli-'));
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child) await killChild(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts nats-server, writes 0600 credentials, prints how to join, and leaves nothing running after SIGTERM', async () => {
    const creds = join(dir, 'cluster.creds');
    child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../../src/cli/cluster.ts', import.meta.url)), '--port', '-1', '--ws-port', '-1', '--creds', creds], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const end = Date.now() + 20_000;
    while (!out.includes('Ctrl-C') && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(out).toContain('npm run actor-host -- --server nats://127.0.0.1:');
    expect(out).toMatch(/#join=ws%3A%2F%2F127\.0\.0\.1%3A\d+&token=/);
    expect(out).toContain('GRANTS ACCESS');
    expect(statSync(creds).mode & 0o777).toBe(0o600);
    const c = readCreds(creds);
    // The page reads the printed join link back to the WebSocket address and token of the creds.
    const link = new URL(/^\s*(http\S*#join=\S+)$/m.exec(out)?.[1] ?? 'http://x/');
    expect(parseJoinFragment(link.hash)).toEqual({ url: c.ws, token: c.token });
    const serverPid = Number(/nats-server (\d+) is up/.exec(out)?.[1]);
    expect(alive(serverPid)).toBe(true);
    const conf = readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0')[2];
    expect(existsSync(conf)).toBe(true);
    const nc = await connectCluster({ servers: c.servers, token: c.token, name: 'cli test' });
    await nc.close();
    await killChild(child, 'SIGTERM');
    expect(child.exitCode).toBe(0);
    expect(alive(serverPid)).toBe(false);
    // Its config (with the token) and JetStream store are gone too.
    expect(existsSync(conf)).toBe(false);
  }, 30_000);
});

const CLI = fileURLToPath(new URL('../../../src/cli/cluster.ts', import.meta.url));

/** Every process whose command line names `text` (a nats-server started with a config under a test's own temp folder). */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * Runs `npm run cluster` with its own temp folder (TMPDIR) to its exit, or once it is up kills it
 * (SIGKILL); its code, its output, and the processes it left running (killed after they are listed).
 */
function runCluster(args: string[], o: { cwd?: string; tmp: string }): Promise<{ code: number | null; out: string; err: string; leftRunning: number[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: o.cwd ?? REPO, env: { ...process.env, TMPDIR: o.tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C')) child.kill('SIGKILL');
    });
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const leftRunning = processesNaming(o.tmp);
      for (const pid of leftRunning) process.kill(pid, 'SIGKILL');
      resolve({ code, out, err, leftRunning });
    });
  });
}

describe('npm run cluster: where the credentials go', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parl-cluster-creds-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[string, (d: string) => string, RegExp]> = [
    ['a folder', (d) => d, /--creds .* is a folder: name a file/],
    ['a file in a folder that does not exist', (d) => join(d, 'missing', 'cluster.creds'), /the folder .*missing does not exist/],
    ['a path nobody can write', () => '/proc/parl-cluster.creds', /cannot be written/],
  ];
  for (const [what, path, message] of cases) {
    it(`--creds naming ${what}: exit 2 with the reason, before anything starts`, async () => {
      const tmp = mkdtempSync(join(dir, 'tmp-'));
      const r = await runCluster(['--port', '-1', '--ws-port', '-1', '--creds', path(tmp)], { tmp });
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(2);
      expect(r.out).not.toContain('is up');
      // No server was started: no config with the token in the temp folder, no nats-server naming it.
      expect(readdirSync(tmp).filter((f) => f.startsWith('parl-cluster-'))).toEqual([]);
      expect(r.leftRunning).toEqual([]);
    }, 30_000);
  }

  it('a start that fails after nats-server is up (the WebSocket port taken) leaves no server and no files', async () => {
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const taken = (busy.address() as { port: number }).port;
    try {
      const r = await runCluster(['--port', '-1', '--ws-port', String(taken), '--creds', join(tmp, 'c.creds')], { tmp });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/WebSocket port for browser tabs on 127\.0\.0\.1:\d+/);
      expect(readdirSync(tmp).filter((f) => f.startsWith('parl-cluster-'))).toEqual([]);
      expect(r.leftRunning).toEqual([]);
    } finally {
      busy.close();
    }
  }, 30_000);

  it('a folder given where a credentials file is expected is named as a folder (not "mode 777")', () => {
    const folder = mkdtempSync(join(dir, 'folder-'));
    expect(() => readCreds(folder)).toThrow(`${folder} is a folder, not a cluster credentials file`);
  });

  it('by default into .parl/cluster.creds (a 0700 folder git ignores), not the checkout root', async () => {
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    const checkout = mkdtempSync(join(dir, 'checkout-'));
    symlinkSync(join(REPO, 'node_modules'), join(checkout, 'node_modules'));
    mkdirSync(join(checkout, 'src'));
    const r = await runCluster(['--port', '-1', '--ws-port', '-1'], { cwd: checkout, tmp });
    const creds = join(checkout, '.parl', 'cluster.creds');
    expect(r.out).toContain(`credentials: ${creds} (mode 0600`);
    expect(existsSync(join(checkout, 'cluster.creds'))).toBe(false);
    expect(statSync(creds).mode & 0o777).toBe(0o600);
    expect(statSync(join(checkout, '.parl')).mode & 0o777).toBe(0o700);
    expect(readCreds(creds).token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // This checkout's git ignores it, and a creds file under any other name too.
    for (const p of ['.parl/cluster.creds', 'cluster.creds', 'class.creds']) expect({ p, ignored: spawnSync('git', ['check-ignore', '-q', p], { cwd: REPO }).status }).toEqual({ p, ignored: 0 });
  }, 30_000);
});
