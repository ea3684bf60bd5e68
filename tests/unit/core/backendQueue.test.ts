import { expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';

// Its own file, so wasm is not yet initialised and its set-up is asynchronous. Without the queue,
// cpu (set up at once) finished first and wasm's set-up landed after it: tfjs ended on wasm though
// cpu was asked for last, as a run's backend could be switched under it by a late probe.
it('overlapping choices run one after the other, each getting the backend it asked for', async () => {
  const [first, second] = await Promise.all([chooseBackend({ preferred: 'wasm' }), chooseBackend({ preferred: 'cpu' })]);
  expect(first.name).toBe('wasm');
  expect(first.reason).toBe('wasm: preferred');
  expect(second.name).toBe('cpu');
  expect(second.reason).toBe('cpu: preferred');
  expect(tf.getBackend()).toBe('cpu');
});
