import { describe, expect, it } from 'vitest';
import { chooseMeasuredBackend, formatRatio, SOFTWARE_MARGIN, type BackendMeasurement } from '../../../src/core/backendChoice';

const swiftshader: BackendMeasurement[] = [
  { name: 'wasm', available: true, msPerUpdate: 4 },
  { name: 'webgpu', available: true, msPerUpdate: 152, software: true },
  { name: 'webgl', available: true, msPerUpdate: 60, software: true },
];

describe('chooseMeasuredBackend', () => {
  it('picks wasm over a software WebGPU adapter that measured slower, and says by how much', () => {
    const c = chooseMeasuredBackend(swiftshader);
    expect(c.name).toBe('wasm');
    // The runner-up is webgl at 60 ms: 60 / 4 = 15 times slower.
    expect(c.versus).toBe('webgl');
    expect(c.ratio).toBeCloseTo(15, 10);
    expect(c.reason).toMatch(/^wasm: 15x faster than webgl here/);
    expect(c.reason).toContain('webgpu (software adapter) 152 ms');
  });

  it('picks a hardware GPU when it is the fastest', () => {
    const c = chooseMeasuredBackend([
      { name: 'wasm', available: true, msPerUpdate: 9 },
      { name: 'webgpu', available: true, msPerUpdate: 3, software: false },
    ]);
    expect(c.name).toBe('webgpu');
    expect(c.ratio).toBeCloseTo(3, 10);
    expect(c.reason).toMatch(/^webgpu: 3\.0x faster than wasm here/);
  });

  it('never picks a software adapter that is slower than wasm, even when wasm was cut short elsewhere', () => {
    const c = chooseMeasuredBackend([
      { name: 'webgpu', available: true, msPerUpdate: 600, cutShort: true, software: true },
      { name: 'wasm', available: true, msPerUpdate: 12 },
    ]);
    expect(c.name).toBe('wasm');
    // A cut-short measurement is a lower bound: 600 / 12 = 50, "at least".
    expect(c.reason).toMatch(/^wasm: at least 50x faster than webgpu here \(12\.0 ms against over 600 ms/);
    expect(c.reason).toMatch(/software adapter/);
  });

  it('names an available backend that was not timed, with the reason, after the measured ones', () => {
    const c = chooseMeasuredBackend([
      { name: 'wasm', available: true, msPerUpdate: 5 },
      { name: 'webgpu', available: true, msPerUpdate: 250, cutShort: true, software: true },
      { name: 'webgl', available: true, msPerUpdate: null, software: true, detail: 'not timed: a software renderer' },
    ]);
    expect(c.name).toBe('wasm');
    expect(c.versus).toBe('webgpu');
    expect(c.reason).toMatch(/^wasm: at least 50x faster than webgpu here \(5\.00 ms against over 250 ms/);
    expect(c.reason).toContain('; webgl (software adapter): not timed: a software renderer');
  });

  it('keeps wasm over a software adapter that measured faster, but by less than the margin its shader compiles cost', () => {
    const c = chooseMeasuredBackend([
      { name: 'wasm', available: true, msPerUpdate: 1047 },
      { name: 'webgpu', available: true, msPerUpdate: 664, software: true },
      { name: 'webgl', available: true, msPerUpdate: null, software: true, detail: 'not timed: a software renderer' },
    ]);
    expect(c.name).toBe('wasm');
    expect(c.versus).toBe('webgpu');
    expect(c.reason).toMatch(/^wasm: chosen over webgpu \(software adapter\), which measured only 1\.6x faster on one batch shape \(1047 ms against 664 ms/);
    expect(c.reason).toContain(`only when it is ${SOFTWARE_MARGIN}x faster`);
  });

  it('picks a software adapter that measured more than the margin faster than wasm', () => {
    const c = chooseMeasuredBackend([
      { name: 'wasm', available: true, msPerUpdate: 100 },
      { name: 'webgpu', available: true, msPerUpdate: 100 / (SOFTWARE_MARGIN + 1), software: true },
    ]);
    expect(c.name).toBe('webgpu');
  });

  it('names the backends that are not available here', () => {
    const c = chooseMeasuredBackend([
      { name: 'webgpu', available: false, msPerUpdate: null, detail: 'no WebGPU adapter' },
      { name: 'webgl', available: true, msPerUpdate: 30, software: true },
      { name: 'wasm', available: true, msPerUpdate: 3 },
    ]);
    expect(c.name).toBe('wasm');
    expect(c.reason).toContain('not available here: webgpu (no WebGPU adapter)');
  });

  it('skips unavailable and unmeasured backends', () => {
    const c = chooseMeasuredBackend([
      { name: 'webgpu', available: false, msPerUpdate: null, detail: 'no WebGPU adapter' },
      { name: 'webgl', available: true, msPerUpdate: null, detail: 'measuring failed' },
      { name: 'wasm', available: true, msPerUpdate: 5 },
    ]);
    expect(c.name).toBe('wasm');
    expect(c.ratio).toBeNull();
    expect(c.reason).toContain('the only backend measured here');
    expect(c.reason).toContain('webgl: measuring failed');
    expect(c.reason).toContain('not available here: webgpu (no WebGPU adapter)');
  });

  it('with nothing measured, the usual order decides but a software adapter goes after wasm', () => {
    const soft = chooseMeasuredBackend([
      { name: 'webgpu', available: true, msPerUpdate: null, software: true },
      { name: 'wasm', available: true, msPerUpdate: null },
    ]);
    expect(soft.name).toBe('wasm');
    const hard = chooseMeasuredBackend([
      { name: 'webgpu', available: true, msPerUpdate: null, software: false },
      { name: 'wasm', available: true, msPerUpdate: null },
    ]);
    expect(hard.name).toBe('webgpu');
  });

  it('a tie goes to the usual order', () => {
    const c = chooseMeasuredBackend([
      { name: 'wasm', available: true, msPerUpdate: 5 },
      { name: 'webgpu', available: true, msPerUpdate: 5 },
    ]);
    expect(c.name).toBe('webgpu');
    expect(c.ratio).toBe(1);
  });

  it('throws when nothing is available', () => {
    expect(() => chooseMeasuredBackend([{ name: 'webgpu', available: false, msPerUpdate: null }])).toThrow(/no backend/);
  });

  it('formats ratios: one decimal below 10, whole numbers from 10', () => {
    expect(formatRatio(1.44)).toBe('1.4x');
    expect(formatRatio(38.4)).toBe('38x');
  });
});
