import { describe, expect, it } from 'vitest';
import { chromiumRssMiB, flatness } from '../../../src/cli/benchmarks/soak';
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
