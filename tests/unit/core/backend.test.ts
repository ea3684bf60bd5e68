import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend, isNode } from '../../../src/core/backend';

describe('chooseBackend (Node)', () => {
  it('isNode() is true under vitest/node', () => {
    expect(isNode()).toBe(true);
  });

  it('auto picks wasm first in Node and reports the attempts', async () => {
    const choice = await chooseBackend();
    expect(choice.name).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(choice.attempts).toEqual([{ name: 'wasm', ok: true, detail: expect.stringContaining('wasm') }]);
    expect(choice.reason).toMatch(/^wasm: .*first choice for Node/);
  });

  it('preferred cpu is tried first', async () => {
    const choice = await chooseBackend({ preferred: 'cpu' });
    expect(choice.name).toBe('cpu');
    expect(choice.attempts.map((a) => a.name)).toEqual(['cpu']);
    expect(choice.reason).toBe('cpu: preferred');
  });

  it('an unavailable preferred backend falls back, with the reason recorded', async () => {
    const choice = await chooseBackend({ preferred: 'webgpu' });
    expect(choice.name).toBe('wasm');
    expect(choice.attempts.map((a) => [a.name, a.ok])).toEqual([
      ['webgpu', false],
      ['wasm', true],
    ]);
    expect(choice.attempts[0].detail).toMatch(/^webgpu: /);
    expect(choice.reason).toMatch(/preferred webgpu unavailable/);
  });
});
