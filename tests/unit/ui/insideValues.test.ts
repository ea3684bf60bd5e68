import { describe, expect, it } from 'vitest';
import { axisDigits, bestAction } from '../../../src/ui/components/CriticCurve';
import { formatValue, rowShares } from '../../../src/ui/components/TeamValues';

describe('inside the agent: how the values are drawn', () => {
  it('places each Q between its row’s lowest and highest; a flat row in the middle', () => {
    expect(rowShares([-2, 0, 2])).toEqual([0, 0.5, 1]);
    expect(rowShares([3, 3])).toEqual([0.5, 0.5]);
  });

  it('writes a value with two decimals, three digits past 100, and never "-0.00"', () => {
    expect(formatValue(-0.001)).toBe('0.00');
    expect(formatValue(0.126)).toBe('0.13');
    expect(formatValue(-12.346)).toBe('-12.35');
    expect(formatValue(-1234.5)).toBe('-1,230');
  });

  it('gives the Q axis enough decimals to tell its ends apart', () => {
    expect(axisDigits(-900, -100)).toBe(0);
    expect(axisDigits(-30.3, -30)).toBe(2);
    expect(axisDigits(-31, -29)).toBe(1);
  });

  it('finds the action a critic rates highest', () => {
    expect(bestAction([-2, 0, 2], [-5, -1, -3])).toBe(0);
  });
});
