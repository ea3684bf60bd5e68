import { describe, expect, it } from 'vitest';
import { labelPosition } from '../../../src/ui/components/charts/ChangeMarkers';
import { exportWidth } from '../../../src/ui/components/charts/pngExport';

describe('change markers: labels towards the middle of the plot', () => {
  it('puts the label right of a mark in the first half and left of one in the second', () => {
    expect(labelPosition(0, 1000)).toBe('insideTopLeft');
    expect(labelPosition(100, 1000)).toBe('insideTopLeft');
    expect(labelPosition(900, 1000)).toBe('insideTopRight');
    expect(labelPosition(1000, 1000)).toBe('insideTopRight');
  });

  it('reads an empty chart as the first half', () => {
    expect(labelPosition(0, 0)).toBe('insideTopLeft');
  });
});

describe('PNG export: the legend fits whole', () => {
  const measure = (text: string) => text.length * 7;
  it('widens the image when the canvas font makes the last item run past the figure', () => {
    const width = exportWidth(300, [{ left: 10, text: 'this run' }, { left: 200, text: 'an overlaid run (seed 3)' }], measure);
    expect(width).toBeGreaterThanOrEqual(200 + 18 + 24 * 7);
  });

  it('keeps the figure’s width when everything fits', () => {
    expect(exportWidth(600, [{ left: 10, text: 'this run' }], measure)).toBe(600);
  });
});
