// Shared helpers for the remote tests: a spawner that counts live workers.
import { nodeActorSpawner } from '../../../../src/cli/nodePlatform';
import type { ActorSpawner } from '../../../../src/core/remote/spawner';

export const FIXTURE_MODULE = new URL('./fixtures/testActors.ts', import.meta.url).href;

/** Wraps the Node spawner and tracks which workers have not exited yet; `failSpawns(true)` makes it refuse to spawn. */
export function countingSpawner(): ActorSpawner & { live(): number; spawned(): number; failSpawns(on: boolean): void } {
  let live = 0;
  let spawned = 0;
  let failing = false;
  return {
    kind: 'counting-node',
    async spawn(options) {
      if (failing) throw new Error(`spawn refused for ${options.name}`);
      const w = await nodeActorSpawner.spawn(options);
      live++;
      spawned++;
      w.onExit(() => live--);
      return w;
    },
    live: () => live,
    spawned: () => spawned,
    failSpawns: (on) => void (failing = on),
  };
}

/** Resolves when `check()` is true, polling every 10 ms; rejects after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
