import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCreds } from '../../../src/cluster/creds';
import type { RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';
import { killChild, REPO, testServer } from './helpers';

const cli = (name: string): string => fileURLToPath(new URL(`../../../src/cli/${name}.ts`, import.meta.url));

interface UpdateLine {
  type: 'update';
  update: number;
  policyLags?: number[];
}

/** Runs the train CLI against the cluster to its end; its update records and summary. */
function train(server: string, creds: string): Promise<{ updates: UpdateLine[]; summary: { updates: number; stopReason: string } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli('train'), '--preset', 'impala-cartpole', '--seed', '4', '--steps', '2048', '--cluster', server, '--creds', creds], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`train exited ${code}:\n${err.slice(-2000)}`));
      const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
      const summary = lines.find((l) => l.type === 'summary') as { type: 'summary'; updates: number; stopReason: string } | undefined;
      if (!summary) return reject(new Error(`no summary:\n${out.slice(-2000)}`));
      resolve({ updates: lines.filter((l): l is UpdateLine => l.type === 'update'), summary });
    });
  });
}

describe('a cluster learner restarted on the same run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parl-resume-'));
  let server: RunningNatsServer | undefined;
  let host: ChildProcess | undefined;

  afterAll(async () => {
    if (host) await killChild(host, 'SIGTERM');
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts its updates on from the checkpoint, and its policy lags stay non-negative', async () => {
    const token = generateToken();
    server = await testServer({ token });
    const creds = join(dir, 'cluster.creds');
    writeCreds(creds, { version: 1, servers: [server.url], token, ws: null });
    host = spawn(process.execPath, ['--import', 'tsx', cli('actorHost'), '--server', server.url, '--creds', creds, '--actors', '2', '--name', 'resume-host'], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      host?.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('offers 2 actor slots')) resolve();
      });
      host?.once('exit', (code) => reject(new Error(`actor host exited ${code}: ${err}`)));
    });

    const first = await train(server.url, creds);
    expect(first.summary.stopReason).toBe('budget');
    expect(first.updates[0].update).toBe(1);
    const last = first.updates[first.updates.length - 1].update;
    expect(first.summary.updates).toBe(last);

    // The same command again: the same run (its id is the config's hash), resumed from the checkpoint
    // the first learner stored as it closed, after its last update.
    const second = await train(server.url, creds);
    expect(second.updates[0].update).toBe(last + 1);
    expect(second.updates.map((u) => u.update)).toEqual(second.updates.map((_, i) => last + 1 + i));
    for (const u of second.updates) for (const lag of u.policyLags ?? []) expect(lag).toBeGreaterThanOrEqual(0);
  }, 240_000);
});
