import { expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';

// Its own file, so wasm is not yet initialised: its set-up is asynchronous, and that is when an
// overlapping choice used to make tfjs drop it as outdated.
it('overlapping choices run one after the other, each getting the backend it asked for', async () => {
  const [first, second] = await Promise.all([chooseBackend({ preferred: 'wasm' }), chooseBackend({ preferred: 'cpu' })]);
  expect(first.name).toBe('wasm');
  expect(first.reason).toBe('wasm: preferred');
  expect(second.name).toBe('cpu');
  expect(second.reason).toBe('cpu: preferred');
  expect(tf.getBackend()).toBe('cpu');
});
