import { describe, expect, it } from 'vitest';
import { RunGate } from '../../../src/engine/runGate';

describe('RunGate', () => {
  it('runs, pauses, single-steps, resumes and stops', async () => {
    const gate = new RunGate();
    expect(await gate.beforeUpdate()).toBe(true);
    gate.pause();
    let passed = 0;
    // Each "update" yields to the event loop, as a real one does (otherwise timers never run).
    const waiter = (async () => {
      while (await gate.beforeUpdate()) {
        passed += 1;
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    await new Promise((r) => setTimeout(r, 10));
    expect(passed).toBe(0);
    gate.step();
    await new Promise((r) => setTimeout(r, 10));
    expect(passed).toBe(1);
    gate.resume();
    await new Promise((r) => setTimeout(r, 5));
    expect(passed).toBeGreaterThan(1);
    gate.stop();
    await waiter;
    expect(gate.current).toBe('stopped');
    gate.resume();
    expect(await gate.beforeUpdate()).toBe(false);
  });
});
