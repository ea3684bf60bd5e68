import { afterEach, describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { ActorPool, type PoolEvent } from '../../../src/core/remote/actorPool';
import { nodeEndpoint } from '../../../src/core/remote/endpoint';
import { runActorHost } from '../../../src/core/remote/host';
import { registerActorClass } from '../../../src/core/remote/registry';
import { remoteClass } from '../../../src/core/remote/remoteClass';
import { firstExit, type ActorSpawner, type SpawnedWorker } from '../../../src/core/remote/spawner';
import { produceIntoStream } from '../../../src/engine/producers';
import { SegmentRoom } from '../../../src/engine/streamRoom';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** An actor that answers each request with its own index (the segment's author). */
class IndexSampler {
  static readonly actorKey = 'StreamProducersTestSampler';
  constructor(private readonly index: number) {}

  async sample(): Promise<number> {
    await sleep(2);
    return this.index;
  }
}
registerActorClass(IndexSampler);

interface InProcessWorker extends SpawnedWorker {
  /** The actor's side goes away without a word (a closed browser tab): nothing sent to it is answered any more. */
  vanish(): void;
}

/** Actors in this process over a MessageChannel; spawns after the first `n` wait for `replacements` (a slow tab starting one). */
function inProcessSpawner(n: number, replacements: Promise<void>): ActorSpawner & { workers: InProcessWorker[]; asked(): number } {
  const workers: InProcessWorker[] = [];
  let asked = 0;
  return {
    kind: 'in-process',
    workers,
    asked: () => asked,
    async spawn() {
      if (asked++ >= n) await replacements;
      const { port1, port2 } = new MessageChannel();
      runActorHost(nodeEndpoint(port2));
      const { end, onExit } = firstExit();
      const worker: InProcessWorker = {
        endpoint: nodeEndpoint(port1),
        onExit,
        vanish: () => port2.close(),
        async terminate() {
          port1.close();
          end({ reason: 'exit', exitCode: 1 });
        },
      };
      workers.push(worker);
      return worker;
    },
  };
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('stream producers when an actor vanishes', () => {
  let cleanup: () => Promise<void> = async () => undefined;
  afterEach(() => cleanup());

  it('the live actor keeps the stream fed while the vanished one is replaced: no room is held for an actor being rebuilt', async () => {
    let letReplacementsStart = (): void => undefined;
    const replacements = new Promise<void>((r) => (letReplacementsStart = r));
    const spawner = inProcessSpawner(2, replacements);
    const events: PoolEvent[] = [];
    const pool = await ActorPool.create(remoteClass(IndexSampler, { spawner }), 2, (i) => [i], {
      // The liveness bound: an actor that leaves a heartbeat unanswered this long is replaced.
      heartbeatMs: 50,
      heartbeatTimeoutMs: 1000,
      callDeadline: false,
      onEvent: (e) => events.push(e),
    });
    // Room for one segment asked for and not taken: one request at a time, as when a message packs
    // more segments than the learner's queue holds (impala-cartpole in a classroom: 8 and 4).
    const room = new SegmentRoom(1);
    const learned: number[] = [];
    let stopping = false;
    const producers = [0, 1].map((i) =>
      produceIntoStream(i, {
        stream: room,
        progress: { lose: () => undefined, backoff: () => sleep(10) },
        stopping: () => stopping,
        building: (k) => pool.building(k),
        request: async (k) => {
          learned.push(await pool.call(k, 'sample'));
          room.taken(1); // the learner takes it at once
        },
      }),
    );
    cleanup = async () => {
      stopping = true;
      letReplacementsStart();
      room.openAll();
      await pool.terminate();
      await Promise.all(producers);
    };
    const from = (who: number, since = 0): number => learned.slice(since).filter((x) => x === who).length;

    await waitFor(() => from(0) >= 5 && from(1) >= 5, 10_000, 'both actors feeding the stream');
    spawner.workers[1].vanish();
    await waitFor(() => events.some((e) => e.type === 'died' && e.index === 1), 10_000, "the pool's heartbeat to find actor 1 gone");
    const atDeath = learned.length;
    expect(spawner.asked(), 'its replacement asked for').toBe(3);

    // Its replacement is still starting: the learner goes on with actor 0 alone.
    await waitFor(() => from(0, atDeath) >= 20, 10_000, 'actor 0 to go on while actor 1 is replaced');
    expect(pool.building(1), 'actor 1 still being replaced').not.toBeNull();
    expect(from(1, atDeath)).toBe(0);

    letReplacementsStart();
    await waitFor(() => events.some((e) => e.type === 'replaced' && e.index === 1), 10_000, 'the replacement');
    const atReplaced = learned.length;
    await waitFor(() => from(1, atReplaced) >= 3 && from(0, atReplaced) >= 3, 10_000, 'both actors feeding the stream again');
  });
});
