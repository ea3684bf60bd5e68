import { describe, expect, it } from 'vitest';
import { joinLinkFor, parseJoinFragment, tokenProblem, wsUrlProblem } from '../../../src/cluster/joinLink';
import type { HostReport } from '../../../src/cluster/natsSpawner';
import { hostRows } from '../../../src/ui/components/clusterRows';
import { createClusterControl, type ClusterLearnerHandle } from '../../../src/ui/session/clusterControl';
import { takeJoinLink } from '../../../src/ui/session/clusterJoinLink';
import { createClusterStore } from '../../../src/ui/session/clusterStore';

const TOKEN = `${'A'.repeat(20)}-_${'z9'.repeat(10)}q`; // 43 base64url characters, like generateToken's

describe('join links', () => {
  it('round-trip: the link for a cluster opens that cluster, the token in its own parameter', () => {
    const link = joinLinkFor('http://127.0.0.1:4173/?debug=x#x=old-experiment', { url: 'ws://127.0.0.1:8443', token: TOKEN });
    expect(link).toBe(`http://127.0.0.1:4173/?debug=x#join=ws%3A%2F%2F127.0.0.1%3A8443&token=${TOKEN}`);
    expect(parseJoinFragment(new URL(link).hash)).toEqual({ url: 'ws://127.0.0.1:8443', token: TOKEN });
  });

  it('an experiment link is not a join link', () => {
    expect(parseJoinFragment('#x=N4Ig')).toBeNull();
    expect(parseJoinFragment('')).toBeNull();
  });

  it('plain ws:// only on loopback, wss:// anywhere; no credentials in the URL; a token of 32+ bytes', () => {
    expect(wsUrlProblem('ws://localhost:1')).toBeNull();
    expect(wsUrlProblem('ws://127.0.0.2:8443')).toBeNull();
    expect(wsUrlProblem('wss://cluster.example.org:8443')).toBeNull();
    expect(wsUrlProblem('ws://cluster.example.org:8443')).toMatch(/needs wss:\/\//);
    expect(wsUrlProblem('ws://[::1]:8443')).toMatch(/127\.0\.0\.1/);
    expect(wsUrlProblem('https://cluster.example.org')).toMatch(/ws:\/\/ or wss:\/\//);
    expect(wsUrlProblem('wss://me:secret@cluster.example.org')).toMatch(/token field/);
    expect(wsUrlProblem('not a url')).toMatch(/not a URL/);
    expect(tokenProblem(TOKEN)).toBeNull();
    expect(tokenProblem(TOKEN.slice(1))).not.toBeNull();
    expect(tokenProblem(`${TOKEN.slice(1)}=`)).not.toBeNull();
    expect(parseJoinFragment(`join=ws%3A%2F%2Fevil.example%3A80&token=${TOKEN}`)).toEqual({ problem: expect.stringMatching(/cannot be used: .*wss/) });
  });

  it('opening a join link takes it out of the address bar (no history entry keeps the token) and hands it to the panel', () => {
    const store = createClusterStore('tab-1', 2);
    const replaced: string[] = [];
    const history = { state: { keep: 1 }, replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)) };
    const taken = takeJoinLink(store, { hash: `#join=ws%3A%2F%2F127.0.0.1%3A9000&token=${TOKEN}`, pathname: '/app/', search: '?a=1' }, history);
    expect(taken).toBe(true);
    expect(replaced).toEqual(['/app/?a=1']);
    expect(store.getState()).toMatchObject({ target: { url: 'ws://127.0.0.1:9000', token: TOKEN }, joinedByLink: true, problem: null });

    const other = createClusterStore('tab-2', 2);
    expect(takeJoinLink(other, { hash: '#x=abc', pathname: '/', search: '' }, history)).toBe(false);
    expect(replaced).toHaveLength(1);
    expect(other.getState().target).toBeNull();
  });
});

function host(hostId: string, state: HostReport['state']): HostReport {
  return { hostId, hostName: `name-${hostId}`, state, capacity: 2, running: 2, ours: 2, started: 2, died: 0, answered: 0, segments: 0, lastError: null };
}

describe("the cluster panel's hosts table", () => {
  it("sums the speed of each host's live actors from the actors panel; live hosts first", () => {
    const report = {
      hosts: [host('b', 'gone'), host('z', 'live'), host('a', 'live')],
      placements: [
        { actor: 'Rollout#0', hostId: 'a', hostName: 'name-a' },
        { actor: 'Rollout#1', hostId: 'a', hostName: 'name-a' },
        { actor: 'Rollout#2', hostId: 'b', hostName: 'name-b' },
        { actor: 'Rollout#3', hostId: 'a', hostName: 'name-a' },
      ],
    };
    const actors = [
      { index: 0, name: 'Rollout#0', state: 'busy' as const, respawns: 0, lastError: null },
      { index: 1, name: 'Rollout#1', state: 'dead' as const, respawns: 0, lastError: null },
      { index: 2, name: 'Rollout#2', state: 'idle' as const, respawns: 1, lastError: null },
      { index: 3, name: 'Rollout#3', state: 'busy' as const, respawns: 0, lastError: null },
    ];
    const rows = hostRows(report, actors, [{ stepsPerSecond: 100 }, { stepsPerSecond: 50 }, { stepsPerSecond: 30 }, { stepsPerSecond: 7 }]);
    // a: actors 0 and 3 (100 + 7; actor 1 is dead), z: none, b: actor 2 (30), listed after the live ones.
    expect(rows.map((r) => [r.hostId, r.stepsPerSecond])).toEqual([
      ['a', 107],
      ['z', 0],
      ['b', 30],
    ]);
  });
});

describe("the cluster panel's controls", () => {
  const noHost = () => Promise.reject(new Error('no tab host in this test'));

  it('a pasted join link fills address and token; a bad address is refused with the reason and keeps the last good one', () => {
    const store = createClusterStore('tab', 2);
    const control = createClusterControl({ store, watchLearners: () => () => undefined, offerActors: noHost });
    expect(control.use(`http://127.0.0.1:4173/#join=ws%3A%2F%2F127.0.0.1%3A8443&token=${TOKEN}`, '')).toBe(true);
    expect(store.getState().target).toEqual({ url: 'ws://127.0.0.1:8443', token: TOKEN });
    expect(control.use('ws://10.0.0.5:8443', TOKEN)).toBe(false);
    expect(store.getState().problem).toMatch(/wss/);
    expect(store.getState().target).toEqual({ url: 'ws://127.0.0.1:8443', token: TOKEN });
  });

  it("learn attaches the page's learner worker, and its replacement after a crash; a refusal comes back as the error", async () => {
    const store = createClusterStore('teacher', 2);
    const watchers: Array<(h: ClusterLearnerHandle) => void> = [];
    const asked: string[] = [];
    const handle = (name: string, refuse: string | null): ClusterLearnerHandle => ({
      cluster: {
        async clusterLearn(o, onReport) {
          asked.push(`${name} ${o.url} ${o.name}`);
          if (refuse) throw new Error(refuse);
          onReport({ server: o.url, connected: true, hosts: [host('h', 'live')], placements: [], frames: { framesSent: 0, framesReceived: 0, bytesSent: 0, bytesReceived: 0, rejected: { malformed: 0, oversized: 0, replayed: 0 } }, stream: null });
        },
        async clusterLeave() {
          asked.push(`${name} leave`);
        },
      },
      proxy: (fn) => fn,
    });
    const control = createClusterControl({
      store,
      watchLearners: (w) => {
        watchers.push(w);
        return () => watchers.splice(watchers.indexOf(w), 1);
      },
      offerActors: noHost,
    });
    control.use('ws://127.0.0.1:8443', TOKEN);
    await control.learn();
    expect(store.getState().learner.phase).toBe('connecting');
    // The session starts its learner worker: the control attaches it.
    watchers[0](handle('first', null));
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().learner).toMatchObject({ phase: 'on', error: null, report: { hosts: [{ hostId: 'h' }] } });
    // The worker crashed and the session started another, which refuses (a run is in progress).
    watchers[0](handle('second', 'stop the run first'));
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual(['first ws://127.0.0.1:8443 learner teacher', 'second ws://127.0.0.1:8443 learner teacher']);
    expect(store.getState().learner).toMatchObject({ phase: 'off', error: 'stop the run first', report: null });
    expect(watchers).toHaveLength(0);
  });
});
