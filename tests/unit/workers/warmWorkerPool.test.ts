import { describe, expect, it } from 'vitest';
import type { SpawnedWorker, WorkerExit } from '../../../src/core/remote/spawner';
import { WarmWorkerPool, type WarmingWorker } from '../../../src/workers/warmWorkerPool';
import { answerWarmRequests, isWarmReply, isWarmRequest, type WarmReply } from '../../../src/workers/actorWarmup';
import type { BackendAttempt } from '../../../src/core/backend';

/** A stand-in worker: its warm-up and its death are driven by the test. */
class FakeWorker implements SpawnedWorker {
  readonly endpoint = { postMessage() {}, addEventListener() {}, removeEventListener() {} };
  terminated = false;
  private readonly listeners: Array<(exit: WorkerExit) => void> = [];
  private ended: WorkerExit | undefined;
  warmUp!: () => void;
  failWarmUp!: (err: Error) => void;
  readonly warm = new Promise<void>((resolve, reject) => {
    this.warmUp = resolve;
    this.failWarmUp = reject;
  });
  constructor(readonly id: number) {}
  onExit(listener: (exit: WorkerExit) => void): void {
    if (this.ended) listener(this.ended);
    else this.listeners.push(listener);
  }
  crash(): void {
    this.ended = { reason: 'error', error: new Error(`worker ${this.id} crashed`) };
    for (const l of this.listeners) l(this.ended);
  }
  terminate(): Promise<void> {
    this.terminated = true;
    return Promise.resolve();
  }
}

function fakePool(options: { maxIdle?: number; maxRespawns?: number } = {}) {
  const spawned: FakeWorker[] = [];
  const pool = new WarmWorkerPool({
    ...options,
    spawn: (): WarmingWorker => {
      const w = new FakeWorker(spawned.length);
      spawned.push(w);
      return { worker: w, warm: w.warm };
    },
  });
  return { pool, spawned };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WarmWorkerPool', () => {
  it('hands out the workers it started, warmed-up ones first, then nothing', async () => {
    const { pool, spawned } = fakePool();
    pool.fill(3);
    expect(spawned).toHaveLength(3);
    expect(pool.size).toBe(3);
    spawned[1].warmUp();
    await settle();
    expect(pool.readyCount).toBe(1);
    expect(pool.take()).toBe(spawned[1]);
    // The others are still warming up, and still ahead of a fresh worker: handed out in order.
    expect(pool.take()).toBe(spawned[0]);
    expect(pool.take()).toBe(spawned[2]);
    expect(pool.take()).toBeUndefined();
    // Taking never spawns: a run's spawns must not start more workers beside it.
    expect(spawned).toHaveLength(3);
    expect(spawned.some((w) => w.terminated)).toBe(false);
  });

  it('refills to the count it is asked for, spawning only the missing workers', () => {
    const { pool, spawned } = fakePool();
    pool.fill(2);
    pool.take();
    pool.fill(2);
    expect(spawned).toHaveLength(3);
    expect(pool.size).toBe(2);
    pool.fill(2);
    expect(spawned).toHaveLength(3);
  });

  it('keeps the count within 0..maxIdle and terminates the extra idle workers', async () => {
    const { pool, spawned } = fakePool({ maxIdle: 4 });
    pool.fill(10);
    expect(pool.size).toBe(4);
    pool.fill(-3);
    expect(pool.size).toBe(0);
    expect(spawned.filter((w) => w.terminated)).toHaveLength(4);
    pool.fill(Number.NaN);
    expect(spawned).toHaveLength(4);

    pool.fill(3);
    spawned[5].warmUp();
    await settle();
    pool.shrink(1);
    // The warmed-up one is kept, the ones still warming up go.
    expect(pool.size).toBe(1);
    expect(pool.take()).toBe(spawned[5]);
    expect(spawned[4].terminated && spawned[6].terminated).toBe(true);
  });

  it('replaces an idle worker that dies, and never hands it out', () => {
    const { pool, spawned } = fakePool();
    pool.fill(2);
    spawned[0].crash();
    expect(spawned[0].terminated).toBe(true);
    expect(spawned).toHaveLength(3);
    expect(pool.size).toBe(2);
    const taken = [pool.take(), pool.take()];
    expect(taken).not.toContain(spawned[0]);
    expect(taken).toEqual(expect.arrayContaining([spawned[1], spawned[2]]));
  });

  it('leaves the death of a worker already taken to its actor', () => {
    const { pool, spawned } = fakePool();
    pool.fill(1);
    const w = pool.take();
    spawned[0].crash();
    expect(w).toBe(spawned[0]);
    expect(spawned).toHaveLength(1);
    expect(pool.size).toBe(0);
  });

  it('stops replacing workers that keep dying before they warm up', () => {
    const { pool, spawned } = fakePool({ maxRespawns: 2 });
    pool.fill(1);
    spawned[0].crash(); // replaced by 1
    spawned[1].crash(); // replaced by 2
    spawned[2].crash(); // a third death in a row: no more
    expect(spawned).toHaveLength(3);
    expect(pool.size).toBe(0);
    // Asking again (the learner after the next run) tries afresh.
    pool.fill(1);
    expect(spawned).toHaveLength(4);
  });

  it('counts a spawn that throws as a failure instead of looping', () => {
    let calls = 0;
    const pool = new WarmWorkerPool({
      spawn: () => {
        calls++;
        throw new Error('no workers here');
      },
    });
    pool.fill(3);
    expect(calls).toBe(3);
    expect(pool.size).toBe(0);
    expect(pool.take()).toBeUndefined();
  });

  it('spawns nothing more once disposed', () => {
    const { pool, spawned } = fakePool();
    pool.fill(2);
    pool.dispose();
    expect(spawned.every((w) => w.terminated)).toBe(true);
    pool.fill(2);
    expect(spawned).toHaveLength(2);
    expect(pool.take()).toBeUndefined();
  });
});

describe('actor warm-up messages', () => {
  function scope() {
    let listener: ((ev: MessageEvent) => void) | undefined;
    const replies: WarmReply[] = [];
    return {
      replies,
      send: (data: unknown) => listener?.({ data } as MessageEvent),
      scope: {
        addEventListener: (_type: 'message', l: (ev: MessageEvent) => void) => void (listener = l),
        postMessage: (m: WarmReply) => void replies.push(m),
      },
    };
  }

  it('sets up the asked backend and answers; ignores the actor host and comlink messages', async () => {
    const s = scope();
    const asked: Array<[string, string | undefined]> = [];
    answerWarmRequests(s.scope, async (name, wasmPaths): Promise<BackendAttempt> => {
      asked.push([name, wasmPaths]);
      return { name, ok: name === 'wasm', detail: `${name}: test` };
    });
    s.send({ __parl: 'init', key: 'RolloutActor', args: [], name: 'RolloutActor#0' });
    s.send({ id: 'x', type: 'GET', path: [] });
    s.send({ __parlWarm: 'backend', backend: 'webgpu' });
    s.send({ __parlWarm: 'backend', backend: 'wasm', wasmPaths: '/tfjs-wasm/' });
    s.send({ __parlWarm: 'backend', backend: 'cpu' });
    await settle();
    expect(asked).toEqual([
      ['wasm', '/tfjs-wasm/'],
      ['cpu', undefined],
    ]);
    expect(s.replies).toEqual([
      { __parlWarm: 'ready', ok: true, detail: 'wasm: test' },
      { __parlWarm: 'ready', ok: false, detail: 'cpu: test' },
    ]);
    expect(s.replies.every(isWarmReply)).toBe(true);
  });

  it('answers a failed set-up as not ready', async () => {
    const s = scope();
    answerWarmRequests(s.scope, () => Promise.reject(new Error('wasm binary missing')));
    s.send({ __parlWarm: 'backend', backend: 'wasm' });
    await settle();
    expect(s.replies).toEqual([{ __parlWarm: 'ready', ok: false, detail: 'wasm binary missing' }]);
  });

  it('tells requests from replies and from other messages', () => {
    expect(isWarmRequest({ __parlWarm: 'backend', backend: 'wasm' })).toBe(true);
    expect(isWarmRequest({ __parlWarm: 'backend', backend: 'wasm', wasmPaths: 3 })).toBe(false);
    expect(isWarmRequest({ __parlWarm: 'ready', ok: true, detail: '' })).toBe(false);
    expect(isWarmReply({ __parlWarm: 'ready', ok: true, detail: '' })).toBe(true);
    expect(isWarmReply({ __parl: 'ready', methods: [] })).toBe(false);
    expect(isWarmRequest(null)).toBe(false);
  });
});
