// The probe's order of work in Node: wasm really timed (tfjs-backend-wasm), the GPU side stood in
// for by a fake adapter and a fake renderer worker. Every backend activation is logged beside the
// probe's "the CPU is free" callback, so the test sees when that callback comes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const log: string[] = [];
/** Called as each backend is activated (a test stops a probe there). */
let onActivate: ((name: string) => void) | null = null;

vi.mock('../../../src/core/backend', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/core/backend')>();
  return {
    ...actual,
    activateBackend: (name: Parameters<typeof actual.activateBackend>[0], wasmPaths?: string) => {
      log.push(`activate ${name}`);
      onActivate?.(name);
      return actual.activateBackend(name, wasmPaths);
    },
  };
});

const { interruptProbe, measureBackends, measuredAutoPlan, probeTargetFor } = await import('../../../src/workers/backendProbe');
const { resolveExperiment } = await import('../../../src/config/config');

/** Stands in for the throwaway worker that names the WebGL renderer. */
function fakeRendererWorker(renderer: string) {
  return class {
    onmessage: ((e: { data: string }) => void) | null = null;
    onerror: (() => void) | null = null;
    constructor() {
      setTimeout(() => this.onmessage?.({ data: renderer }), 0);
    }
    terminate() {}
  };
}

let adapterRequests = 0;
function fakeGpu(software: boolean) {
  return {
    requestAdapter: async () => {
      adapterRequests++;
      return { info: { isFallbackAdapter: software, vendor: 'google', architecture: software ? 'swiftshader' : 'gpu', description: '' } };
    },
  };
}

describe('backend probe', () => {
  beforeEach(() => {
    log.length = 0;
    adapterRequests = 0;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    onActivate = null;
  });

  const shape = probeTargetFor(resolveExperiment('quickstart'));

  it('calls cpuFree right after wasm when only software GPU backends are left to time', async () => {
    vi.stubGlobal('navigator', { gpu: fakeGpu(true), hardwareConcurrency: 2, userAgent: 'test' });
    vi.stubGlobal('Worker', fakeRendererWorker('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)))'));
    const out = await measureBackends(shape, undefined, 400, () => log.push('cpu free'));
    expect(log).toEqual(['activate wasm', 'cpu free', 'activate webgpu']);
    expect(out.map((m) => m.name)).toEqual(['wasm', 'webgpu', 'webgl']);
    expect(out[0].msPerUpdate).toBeGreaterThan(0);
    expect(out[2].detail).toMatch(/not timed/);
  });

  it('calls cpuFree only at the end when WebGL may be a hardware renderer', async () => {
    // (The adapter is asked for once per worker, so this one is the software adapter of the test above.)
    vi.stubGlobal('navigator', { gpu: fakeGpu(false), hardwareConcurrency: 2, userAgent: 'test' });
    vi.stubGlobal('Worker', fakeRendererWorker('ANGLE (NVIDIA, GeForce)'));
    await measureBackends(shape, undefined, 400, () => log.push('cpu free'));
    expect(log).toEqual(['activate wasm', 'activate webgpu', 'activate webgl', 'cpu free']);
  });

  it('asks for the WebGPU adapter once: a plan at Start answers from the page without asking again', async () => {
    vi.stubGlobal('navigator', { gpu: fakeGpu(true), hardwareConcurrency: 2, userAgent: 'test' });
    vi.stubGlobal('Worker', fakeRendererWorker('SwiftShader'));
    const freed: string[] = [];
    const config = resolveExperiment('quickstart');
    // The adapter may have been asked for by an earlier test in this file (once per worker).
    const before = adapterRequests;
    const first = await measuredAutoPlan(config, undefined, { cpuFree: () => freed.push('first') });
    const second = await measuredAutoPlan(resolveExperiment('quickstart', { seed: 7 }), undefined, { cpuFree: () => freed.push('second') });
    expect(adapterRequests - before).toBeLessThanOrEqual(1);
    expect(second.order).toEqual(first.order);
    expect(second.reason).toBe(`${first.reason} (kept from an earlier probe on this device)`);
    // Measured the first time (after wasm), answered from the page's measurements the second.
    expect(freed).toEqual(['first', 'second']);
    expect(log.filter((l) => l === 'activate wasm')).toHaveLength(1);
  });

  it('a run started while a probe measures gets the best backend known so far, without measuring', async () => {
    vi.stubGlobal('navigator', { gpu: fakeGpu(true), hardwareConcurrency: 2, userAgent: 'test' });
    vi.stubGlobal('Worker', fakeRendererWorker('SwiftShader'));
    // A learner no earlier test measured: this probe times wasm, then would go on to the GPU backends.
    let interrupted = false;
    onActivate = (name) => {
      if (name === 'wasm') interrupted = interruptProbe();
    };
    const probe = await measuredAutoPlan(resolveExperiment('quickstart', { 'model.hidden': 48 }), undefined);
    expect(interrupted).toBe(true);
    expect(probe.order[0]).toBe('wasm');
    expect(probe.reason).toMatch(/the run started before the GPU backends were timed/);
    // Only wasm was timed: the probe stopped before WebGPU.
    expect(log).toEqual(['activate wasm']);
    const run = await measuredAutoPlan(resolveExperiment('dqn-cartpole', { 'model.hidden': 48 }), undefined, { knownSoFar: true });
    expect(run.order[0]).toBe('wasm');
    expect(run.reason).toMatch(/best known so far: the run started while the probe was measuring/);
    expect(log).toEqual(['activate wasm']);
    expect(interruptProbe()).toBe(false);
  });

  it('a probe stopped by a run is not kept: the next one measures every backend', async () => {
    vi.stubGlobal('navigator', { gpu: fakeGpu(true), hardwareConcurrency: 2, userAgent: 'test' });
    vi.stubGlobal('Worker', fakeRendererWorker('SwiftShader'));
    const config = resolveExperiment('quickstart', { 'model.hidden': 40 });
    onActivate = () => interruptProbe();
    await measuredAutoPlan(config, undefined);
    onActivate = null;
    log.length = 0;
    const again = await measuredAutoPlan(config, undefined);
    expect(again.reason).not.toMatch(/kept from an earlier probe/);
    expect(log).toEqual(['activate wasm', 'activate webgpu']);
  });

  it('times the continuous learner itself at its declared batch', async () => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 2, userAgent: 'test' });
    vi.stubGlobal('Worker', fakeRendererWorker('SwiftShader'));
    const config = resolveExperiment('sac-pendulum', { 'sac.batchSize': 96 });
    const plan = await measuredAutoPlan(config, undefined);
    expect(plan.order[0]).toBe('wasm');
    expect(plan.reason).toMatch(/^wasm: the only backend measured here \([\d.]+ ms per update/);
    expect(plan.reason).toContain('measured on a batch of 96');
  });
});
