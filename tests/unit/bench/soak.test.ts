import { describe, expect, it } from 'vitest';
import { chromiumMemoryMiB, chromiumRssMiB, flatness, parseProcStatus, parseKeyValues } from '../../../bench/soak';
import { learnerWorkerName, MEMORY_DEBUG_FLAG } from '../../../src/workers/learnerProtocol';

describe('soak flatness', () => {
  it('is flat when every sample is within 10% of the first, with the least-squares slope per minute', () => {
    // t = 0, 60, 120 s; values 100, 109, 104: deviations 0, 9 %, 4 %.
    const f = flatness([0, 60, 120], [100, 109, 104]);
    // slope = sum((t - 60)(v - 104.33)) / sum((t - 60)^2) = (-60 * -4.33 + 60 * -0.33) / 7200 = 240 / 7200 per s = 2 per minute.
    expect(f).toMatchObject({ n: 3, first: 100, last: 104, flat: true });
    expect(f!.maxDeviation).toBeCloseTo(0.09, 12);
    expect(f!.slopePerMinute).toBeCloseTo(2, 12);
  });

  it('is not flat once one sample is more than 10% away, either way', () => {
    expect(flatness([0, 10, 20], [200, 205, 221])!.flat).toBe(false);
    expect(flatness([0, 10, 20], [200, 179, 200])!.flat).toBe(false);
  });

  it('needs two samples and a non-zero first one', () => {
    expect(flatness([0], [5])).toBeNull();
    expect(flatness([0, 10], [0, 1])).toBeNull();
  });
});

describe('chromiumRssMiB', () => {
  it('finds no Chromium process under this test process', () => {
    expect(chromiumRssMiB('gpu-process')).toBeNull();
  });
});

describe('learnerWorkerName (the page side of the memory debug hook)', () => {
  it('carries the memory debug flag only for ?debug=memory', () => {
    expect(learnerWorkerName('?debug=memory')).toContain(MEMORY_DEBUG_FLAG);
    expect(learnerWorkerName('?a=1&debug=memory')).toContain(MEMORY_DEBUG_FLAG);
    expect(learnerWorkerName('')).toBe('learner');
    expect(learnerWorkerName('?debug=memoryx')).toBe('learner');
    expect(learnerWorkerName('?x=debug=memory')).toBe('learner');
  });
});

describe('parseProcStatus', () => {
  it('reads VmRSS and its anonymous, file and shared parts in MiB', () => {
    const text = 'Name:\tchromium\nVmPeak:\t 999 kB\nVmRSS:\t   3072 kB\nRssAnon:\t    2048 kB\nRssFile:\t     512 kB\nRssShmem:\t     512 kB\n';
    // 3072 kB / 1024 = 3 MiB, and the parts 2 + 0.5 + 0.5 MiB add up to it.
    expect(parseProcStatus(text)).toEqual({ rss: 3, anon: 2, file: 0.5, shmem: 0.5 });
  });

  it('is null for a process without VmRSS (a zombie)', () => {
    expect(parseProcStatus('Name:\tchromium\nState:\tZ (zombie)\n')).toBeNull();
  });
});

describe('chromiumMemoryMiB', () => {
  it('finds no Chromium GPU process under this test process', () => {
    expect(chromiumMemoryMiB('gpu-process')).toBeNull();
  });
});

describe('parseKeyValues (--tf-flags)', () => {
  it('reads numbers, booleans and strings', () => {
    expect(parseKeyValues('--tf-flags', 'WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE=1,WEBGPU_CPU_FORWARD=false,NAME=abc,EPS=1e-3')).toEqual({ WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE: 1, WEBGPU_CPU_FORWARD: false, NAME: 'abc', EPS: 0.001 });
    expect(parseKeyValues('--tf-flags', undefined)).toEqual({});
  });

  it('refuses a pair without a key or an equals sign', () => {
    expect(() => parseKeyValues('--tf-flags', 'WEBGPU_CPU_FORWARD')).toThrow(/--tf-flags expects key=value/);
    expect(() => parseKeyValues('--tf-flags', '=3')).toThrow(/key=value/);
  });
});
