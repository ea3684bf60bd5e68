/**
 * Annealing schedules for the PARL shaping weights λ1 and λ2. The report anneals both to zero
 * but gives no schedule, so here are several. With t the training step and H = spec.horizon:
 *
 *   linear       start · max(0, 1 − t/H)
 *   cosine       start · ½ (1 + cos(π · min(t, H) / H))
 *   exponential  start · (e^(−k·t/H) − e^(−k)) / (1 − e^(−k))  for t < H, 0 from H on
 *                (the plain decay start · e^(−k·t/H), shifted down by its value at H and rescaled
 *                so it still starts at `start` and hits exactly 0 at H; k = spec.rate, default 5)
 *   step         start · 0.5^j for t < H, where j = floor(n · t / H) is the index of the current
 *                of n equal stages (n = spec.stages, default 4): full value during the first
 *                1/n of the horizon, halved at each later stage, 0 from H on
 *   constant     start forever (no annealing: the shaping terms never leave, which invites
 *                spawning for its own sake; shown to make that visible)
 */
import { cos, exp } from '../core/portableMath';
import type { ScheduleSpec, SchedulePoint } from './types';

export const DEFAULT_EXPONENTIAL_RATE = 5;
export const DEFAULT_STEP_STAGES = 4;

export function validateSchedule(spec: ScheduleSpec): void {
  const kinds = ['linear', 'cosine', 'exponential', 'step', 'constant'];
  if (!kinds.includes(spec.kind)) throw new Error(`schedule: kind must be one of ${kinds.join(', ')}, got ${String(spec.kind)}`);
  if (!Number.isFinite(spec.start)) throw new Error(`schedule: start must be a finite number, got ${spec.start}`);
  if (spec.kind !== 'constant' && !(Number.isFinite(spec.horizon) && spec.horizon > 0)) {
    throw new Error(`schedule: horizon must be a positive finite number of steps, got ${spec.horizon}`);
  }
  if (spec.rate !== undefined && !(Number.isFinite(spec.rate) && spec.rate > 0)) {
    throw new Error(`schedule: rate must be a positive number, got ${spec.rate}`);
  }
  if (spec.stages !== undefined && !(Number.isInteger(spec.stages) && spec.stages >= 1)) {
    throw new Error(`schedule: stages must be a positive integer, got ${spec.stages}`);
  }
}

/** The schedule's value at training step `step` (>= 0). */
export function scheduleValue(spec: ScheduleSpec, step: number): number {
  validateSchedule(spec);
  if (!(Number.isFinite(step) && step >= 0)) throw new Error(`schedule: step must be a non-negative number, got ${step}`);
  const { start, horizon: H } = spec;
  if (spec.kind === 'constant') return start;
  if (step >= H) return 0;
  const x = step / H; // in [0, 1)
  switch (spec.kind) {
    case 'linear':
      return start * (1 - x);
    case 'cosine':
      return start * 0.5 * (1 + cos(Math.PI * x));
    case 'exponential': {
      const k = spec.rate ?? DEFAULT_EXPONENTIAL_RATE;
      const floor = exp(-k);
      return (start * (exp(-k * x) - floor)) / (1 - floor);
    }
    case 'step': {
      const n = spec.stages ?? DEFAULT_STEP_STAGES;
      return start * 0.5 ** Math.floor(n * x);
    }
  }
}

/**
 * `points` evenly spaced samples from step 0 to `until` (default: the horizon, or 1.25 horizons
 * when `pastHorizon` is set, to show the tail at zero), for drawing the curve.
 */
export function sampleSchedule(
  spec: ScheduleSpec,
  points: number,
  options: { until?: number; pastHorizon?: boolean } = {},
): SchedulePoint[] {
  validateSchedule(spec);
  if (!(Number.isInteger(points) && points >= 2)) throw new Error(`sampleSchedule: points must be an integer >= 2, got ${points}`);
  const until = options.until ?? spec.horizon * (options.pastHorizon ? 1.25 : 1);
  if (!(Number.isFinite(until) && until > 0)) throw new Error(`sampleSchedule: until must be a positive number, got ${until}`);
  const out: SchedulePoint[] = [];
  for (let i = 0; i < points; i++) {
    const step = (until * i) / (points - 1);
    out.push({ step, value: scheduleValue(spec, step) });
  }
  return out;
}

/** λ1 and λ2 at a training step. */
export function lambdasAt(s: { lambda1: ScheduleSpec; lambda2: ScheduleSpec }, step: number): { lambda1: number; lambda2: number } {
  return { lambda1: scheduleValue(s.lambda1, step), lambda2: scheduleValue(s.lambda2, step) };
}
