/**
 * Ctrl-C and SIGTERM through the real `npm run train` command: the run ends with its summary line
 * and a checkpoint the reader loads, and leaves no process behind. Ctrl-C in a terminal signals the
 * whole process group (npm forwards it once more); `kill PID` signals npm alone.
 */
import { describe, expect, it } from 'vitest';
import { signalTrial } from '../../../bench/signals';

describe('npm run train on a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: ends with its summary line and a loadable checkpoint`, async () => {
      const trial = await signalTrial('ppo-cartpole', signal, 300);
      expect(trial.summary).toBe(true);
      expect(trial.checkpoint).toEqual({ update: expect.any(Number) as number });
      expect(trial.code).toBe(0);
      expect(trial.leftover).toBe(false);
    }, 240_000);
  }
});
