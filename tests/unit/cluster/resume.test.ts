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
  envSteps: number;
  policyLags?: number[];
}
interface SummaryLine {
  type: 'summary';
  updates: number;
  envSteps: number;
  stopReason: string;
}
interface TrainResult {
  code: number | null;
  updates: UpdateLine[];
  summary: SummaryLine | undefined;
  err: string;
}

/**
 * The run's budget: long enough that the first learner is still training when it is killed, 2.5 s after
 * its first update (this 2-core machine trains 10,000 to 13,000 steps a second here: at most about
 * 35,000 steps by then, a third of the budget), and that the second has updates of its own to train.
 */
const BUDGET = 102_400;

/**
 * Runs the train CLI against the cluster (node itself, so a SIGKILL reaches the learner); with
 * `killAfterMs`, kills it (SIGKILL) that long after its first update, past its first checkpoint.
 */
function train(server: string, creds: string, killAfterMs?: number): Promise<TrainResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli('train'), '--preset', 'impala-cartpole', '--seed', '4', '--steps', String(BUDGET), '--quiet', '--cluster', server, '--creds', creds], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A learner that never ends fails the test with what it said, not a bare timeout.
    const stuck = setTimeout(() => {
      err += '\n[killed by the test: no end after 200 s]';
      child.kill('SIGKILL');
    }, 200_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (killAfterMs !== undefined && timer === undefined && out.includes('"type":"update"')) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      clearTimeout(stuck);
      const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { type: string });
      resolve({ code, err, updates: lines.filter((l): l is UpdateLine => l.type === 'update'), summary: lines.find((l): l is SummaryLine => l.type === 'summary') });
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

  it('killed (kill -9), the same command gets its actors back and trains what is left of the budget; run again, it says the run is finished', async () => {
    const token = generateToken();
    server = await testServer({ token });
    const creds = join(dir, 'cluster.creds');
    writeCreds(creds, { version: 1, servers: [server.url], token, ws: null });
    // Exactly the slots one learner needs: the killed learner's actors hold them until the host frees them.
    host = spawn(process.execPath, ['--import', 'tsx', cli('actorHost'), '--server', server.url, '--creds', creds, '--actors', '2', '--name', 'resume-host'], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      host?.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('offers 2 actor slots')) resolve();
      });
      host?.once('exit', (code) => reject(new Error(`actor host exited ${code}: ${err}`)));
    });

    const first = await train(server.url, creds, 2_500);
    expect(first.summary, `the first learner was killed before its end\n${first.err.slice(-1500)}`).toBeUndefined();
    expect(first.updates[0].update).toBe(1);
    const perUpdate = first.updates[0].envSteps;
    const killedAt = first.updates[first.updates.length - 1].update;

    // The same command again: the same run (its id is the config's hash), resumed from the last checkpoint it stored.
    const second = await train(server.url, creds);
    expect(second.code, second.err.slice(-2000)).toBe(0);
    const resumedAt = second.updates[0].update;
    expect(resumedAt).toBeGreaterThan(1);
    expect(resumedAt).toBeLessThanOrEqual(killedAt + 1);
    expect(second.updates.map((u) => u.update)).toEqual(second.updates.map((_, i) => resumedAt + i));
    // The budget counts from the checkpoint: every update's steps are those of all updates so far.
    for (const u of second.updates) expect(u.envSteps).toBe(u.update * perUpdate);
    for (const u of second.updates) for (const lag of u.policyLags ?? []) expect(lag).toBeGreaterThanOrEqual(0);
    expect(second.summary).toMatchObject({ stopReason: 'budget', updates: Math.ceil(BUDGET / perUpdate), envSteps: Math.ceil(BUDGET / perUpdate) * perUpdate });

    // And once more: nothing left to train; it says so and ends well.
    const third = await train(server.url, creds);
    expect(third.code, third.err.slice(-2000)).toBe(0);
    expect(third.updates).toEqual([]);
    expect(third.err).toMatch(/This run has finished: .*102,400 of its 102,400 steps/);
    expect(third.summary).toMatchObject({ stopReason: 'budget', updates: second.summary?.updates, envSteps: second.summary?.envSteps });
  }, 600_000);
});
