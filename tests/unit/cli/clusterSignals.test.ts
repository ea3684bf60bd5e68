/**
 * Ctrl-C and SIGTERM through the real `npm run cluster` command: nats-server stops, and its
 * config (which holds the token) and its store are removed, whichever process gets the signal.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive } from '../cluster/helpers';

const REPO = new URL('../../../', import.meta.url).pathname;

describe('npm run cluster on a signal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parl-cluster-signals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const [signal, target] of [['SIGTERM', 'npm'], ['SIGINT', 'group']] as const) {
    it(`${signal} to the ${target === 'npm' ? 'npm process' : 'process group (Ctrl-C)'}: stops nats-server and removes its config and store`, async () => {
      const child = spawn('npm', ['run', '-s', 'cluster', '--', '--port', '-1', '--ws-port', '-1', '--creds', join(dir, `${signal}.creds`)], {
        cwd: REPO,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const pgid = child.pid ?? -1;
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        const end = Date.now() + 60_000;
        while (!out.includes('Ctrl-C stops the cluster') && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
        const serverPid = Number(/nats-server (\d+) is up/.exec(out)?.[1]);
        expect(alive(serverPid)).toBe(true);
        const conf = readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0')[2];
        expect(existsSync(conf)).toBe(true);
        if (target === 'group') process.kill(-pgid, signal);
        else child.kill(signal);
        expect(await exited).toBe(0);
        await new Promise((r) => setTimeout(r, 200));
        expect(alive(serverPid)).toBe(false);
        expect(existsSync(dirname(conf))).toBe(false);
      } finally {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // the group is gone, as it should be
        }
      }
    }, 120_000);
  }
});
