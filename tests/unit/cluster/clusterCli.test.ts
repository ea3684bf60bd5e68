import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectCluster } from '../../../src/cluster/connect';
import { parseJoinFragment } from '../../../src/cluster/joinLink';
import { readCreds } from '../../../src/cluster/creds';
import { buildServerConfig, generateToken, isLoopback } from '../../../src/cluster/serverConfig';
import { killChild, REPO } from './helpers';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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
