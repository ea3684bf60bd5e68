import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { connectCluster } from '../../../src/cluster/connect';
import { attachLearner, type LearnerAttachment } from '../../../src/cluster/learnerAttach';
import { startNatsServer, type RunningNatsServer } from '../../../src/cluster/natsServer';
import { generateToken } from '../../../src/cluster/serverConfig';
import type { TabHostReport } from '../../../src/cluster/tabHost';
import { getActorSpawner, setActorSpawner } from '../../../src/core/remote/spawner';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { ClusterEcho } from './fixtures/clusterActors';
import { killChild, REPO, waitFor } from './helpers';

/** The tab-host fixture in a Node process with a WebSocket global, as a page has. */
function startTab(url: string, token: string, capacity: number, name: string): { child: ChildProcess; ready: Promise<string>; report(): Promise<TabHostReport> } {
  const child = spawn(process.execPath, ['--experimental-websocket', '--no-warnings', '--import', 'tsx', fileURLToPath(new URL('./fixtures/wsTab.ts', import.meta.url)), url, token, String(capacity), name], { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buf = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (d: string) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  const next = (): Promise<string> => (lines.length ? Promise.resolve(lines.shift() ?? '') : new Promise((r) => waiting.push(r)));
  return {
    child,
    ready: next(),
    async report() {
      child.stdin?.write('report\n');
      return JSON.parse(await next()) as TabHostReport;
    },
  };
}

describe('the browser side of the cluster: a tab offering actors over the WebSocket listener', () => {
  let server: RunningNatsServer;
  let token: string;
  let nc: NatsConnection;
  let learner: LearnerAttachment;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    token = generateToken();
    server = await startNatsServer({ host: '127.0.0.1', port: -1, wsPort: -1, token, allowedOrigins: ['http://127.0.0.1:4173'] });
    nc = await connectCluster({ servers: [server.url], token, name: 'learner' });
  }, 30_000);

  afterAll(async () => {
    setActorSpawner(undefined);
    await Promise.all(children.map((c) => killChild(c, 'SIGKILL')));
    await nc?.close();
    await server?.stop();
  });

  it('a tab with the wrong token is refused by the WebSocket listener', async () => {
    const tab = startTab(server.wsUrl ?? '', `${token.slice(0, -2)}xx`, 1, 'intruder');
    children.push(tab.child);
    expect(await tab.ready).toMatch(/^error: .*authoriz/i);
  });

  it("the tab's actors serve this learner; both sides count the work, and a tab that dies is reported gone", async () => {
    const tab = startTab(server.wsUrl ?? '', token, 2, 'student-1');
    children.push(tab.child);
    expect(await tab.ready).toBe('ready');
    learner = attachLearner(nc, { hostTimeoutMs: 1000 });
    // attachLearner installs its spawner for everything the engine builds from now on.
    expect(getActorSpawner()).toBe(learner.spawner);
    await waitFor(() => learner.report().hosts.some((h) => h.hostName === 'student-1' && h.state === 'live'), 10_000, "the tab's beat");

    const Echo = remoteClass(ClusterEcho);
    const actors = await Promise.all([Echo.create('a'), Echo.create('b')]);
    for (const actor of actors) for (let i = 0; i < 3; i++) expect(await actor.add(i, 10)).toBe(i + 10);

    const host = learner.report().hosts.find((h) => h.hostName === 'student-1');
    // 2 actors started there, 2 × 3 calls answered, none of them streamed, nobody died.
    expect(host).toMatchObject({ state: 'live', capacity: 2, ours: 2, started: 2, answered: 6, segments: 0, died: 0, lastError: null });
    expect(learner.report().placements.map((p) => [p.actor, p.hostName]).sort()).toEqual(actors.map((a) => [a.actorName, 'student-1']).sort());

    const tabReport = await tab.report();
    expect(tabReport.hostName).toBe('student-1');
    expect(tabReport.connected).toBe(true);
    expect(tabReport.actors.sort()).toEqual(actors.map((a) => a.actorName).sort());
    expect(tabReport.work).toMatchObject({ started: 2, answered: 6, segments: 0, died: 0 });

    // The tab goes away without a word (its page closed): the beats stop, the host is gone, our two actors died with it.
    await killChild(tab.child, 'SIGKILL');
    await waitFor(() => learner.report().hosts.find((h) => h.hostName === 'student-1')?.state === 'gone', 5_000, 'the tab reported gone');
    const gone = learner.report().hosts.find((h) => h.hostName === 'student-1');
    expect(gone).toMatchObject({ ours: 0, started: 2, died: 2 });
    expect(gone?.lastError).toMatch(/student-1 .*stopped answering/);
    expect(learner.report().placements).toEqual([]);

    await learner.detach();
    expect(() => getActorSpawner()).toThrow(/no ActorSpawner installed/);
  });
});
