import { describe, expect, it } from 'vitest';
import { TOUR_STEPS } from '../../../src/ui/components/Tour';

describe('the tour', () => {
  it('each card says what it outlines, and the card on sharing outlines Copy link, not the runs', () => {
    for (const step of TOUR_STEPS) expect(`${step.title} ${step.text}`.toLowerCase(), step.target).toContain(step.names.toLowerCase());
    const share = TOUR_STEPS.filter((s) => /copy link/i.test(s.text));
    expect(share.map((s) => s.target)).toEqual(['share']);
    expect(new Set(TOUR_STEPS.map((s) => s.target)).size).toBe(TOUR_STEPS.length);
  });
});
