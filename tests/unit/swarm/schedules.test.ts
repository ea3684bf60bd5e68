import { describe, expect, it } from 'vitest';
import { lambdasAt, sampleSchedule, scheduleValue } from '../../../src/swarm/schedules';
import type { ScheduleKind, ScheduleSpec } from '../../../src/swarm/types';

const H = 1000;
const spec = (kind: ScheduleKind, extra: Partial<ScheduleSpec> = {}): ScheduleSpec => ({ kind, start: 0.8, horizon: H, ...extra });

describe('scheduleValue endpoints', () => {
  for (const kind of ['linear', 'cosine', 'exponential', 'step'] as const) {
    it(`${kind}: start at t=0, exactly 0 at t=H and after`, () => {
      expect(scheduleValue(spec(kind), 0)).toBeCloseTo(0.8, 12);
      expect(scheduleValue(spec(kind), H)).toBe(0);
      expect(scheduleValue(spec(kind), H + 1)).toBe(0);
      expect(scheduleValue(spec(kind), 10 * H)).toBe(0);
    });
    it(`${kind}: non-increasing and within [0, start]`, () => {
      let prev = Infinity;
      for (let t = 0; t <= 1.2 * H; t += 7) {
        const v = scheduleValue(spec(kind), t);
        expect(v).toBeLessThanOrEqual(prev + 1e-12);
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(0.8 + 1e-12);
        prev = v;
      }
    });
  }

  it('constant: start forever', () => {
    for (const t of [0, H / 2, H, 5 * H]) expect(scheduleValue(spec('constant'), t)).toBe(0.8);
  });
});

describe('scheduleValue midpoints (hand-computed)', () => {
  it('linear: 0.8 * (1 - 1/2) = 0.4 at H/2, 0.8 * 0.75 = 0.6 at H/4', () => {
    expect(scheduleValue(spec('linear'), H / 2)).toBeCloseTo(0.4, 12);
    expect(scheduleValue(spec('linear'), H / 4)).toBeCloseTo(0.6, 12);
  });

  it('cosine: 0.8 * ½(1 + cos(π/2)) = 0.4 at H/2, 0.8 * ½(1 + √2/2) ≈ 0.682843 at H/4', () => {
    expect(scheduleValue(spec('cosine'), H / 2)).toBeCloseTo(0.4, 12);
    expect(scheduleValue(spec('cosine'), H / 4)).toBeCloseTo(0.6828427125, 9);
  });

  it('exponential (k = 5): 0.8 * (e^-2.5 - e^-5) / (1 - e^-5) ≈ 0.0606865 at H/2', () => {
    // e^-2.5 = 0.0820849986, e^-5 = 0.0067379470
    // (0.0820849986 - 0.0067379470) / (1 - 0.0067379470) = 0.0753470516 / 0.9932620530 = 0.0758581800
    // times 0.8 = 0.0606865440
    expect(scheduleValue(spec('exponential'), H / 2)).toBeCloseTo(0.060686544, 9);
  });

  it('exponential with rate 1: 0.8 * (e^-0.5 - e^-1) / (1 - e^-1) ≈ 0.302033 at H/2', () => {
    // (0.6065306597 - 0.3678794412) / 0.6321205588 = 0.3775406688; times 0.8 = 0.3020325350
    expect(scheduleValue(spec('exponential', { rate: 1 }), H / 2)).toBeCloseTo(0.302032535, 8);
  });

  it('step (4 stages): 0.8 until H/4, then 0.4, 0.2 at H/2, 0.1 from 3H/4, 0 at H', () => {
    const s = spec('step');
    expect(scheduleValue(s, H / 4 - 1)).toBe(0.8);
    expect(scheduleValue(s, H / 4)).toBe(0.4);
    expect(scheduleValue(s, H / 2)).toBe(0.2);
    expect(scheduleValue(s, (3 * H) / 4)).toBe(0.1);
    expect(scheduleValue(s, H - 1)).toBe(0.1);
    expect(scheduleValue(s, H)).toBe(0);
    // 2 stages: 0.8 on [0, H/2), 0.4 on [H/2, H)
    expect(scheduleValue(spec('step', { stages: 2 }), H / 2)).toBe(0.4);
  });
});

describe('schedule validation and sampling', () => {
  it('rejects bad specs and steps', () => {
    expect(() => scheduleValue(spec('linear', { horizon: 0 }), 0)).toThrow(/horizon/);
    expect(() => scheduleValue(spec('exponential', { rate: 0 }), 0)).toThrow(/rate/);
    expect(() => scheduleValue(spec('step', { stages: 1.5 }), 0)).toThrow(/stages/);
    expect(() => scheduleValue(spec('linear'), -1)).toThrow(/step/);
    expect(() => scheduleValue({ ...spec('linear'), kind: 'bogus' as ScheduleKind }, 0)).toThrow(/kind/);
  });

  it('samples evenly spaced points from 0 to the horizon', () => {
    const pts = sampleSchedule(spec('linear'), 5);
    expect(pts.map((p) => p.step)).toEqual([0, 250, 500, 750, 1000]);
    expect(pts.map((p) => p.value)).toEqual([0.8, 0.6000000000000001, 0.4, 0.19999999999999996, 0].map((v) => expect.closeTo(v, 12)));
    const past = sampleSchedule(spec('cosine'), 6, { pastHorizon: true });
    expect(past[past.length - 1].step).toBe(1250);
    expect(past[past.length - 1].value).toBe(0);
    expect(sampleSchedule(spec('constant'), 3, { until: 10 }).map((p) => p.value)).toEqual([0.8, 0.8, 0.8]);
    expect(() => sampleSchedule(spec('linear'), 1)).toThrow(/points/);
  });

  it('gives both lambdas at a step', () => {
    const l = lambdasAt({ lambda1: spec('linear'), lambda2: { kind: 'constant', start: 0.3, horizon: 1 } }, H / 2);
    expect(l.lambda1).toBeCloseTo(0.4, 12);
    expect(l.lambda2).toBe(0.3);
  });
});
