import { describe, expect, it } from 'vitest';
import { fitText, layoutLabels, type NodeLabel } from '../../../src/ui/components/networkLabels';

// A monospace stand-in for the canvas's measureText: 6 px a character.
const mono = (text: string) => 6 * text.length;
// The default spacing: gap 6, node radius 6, so each side's fixed part is 2·6 + 6 = 18 px.
const CHROME = 18;

const cartpoleInputs: NodeLabel[] = [
  { name: 'cart position', value: '0.01' },
  { name: 'cart velocity', value: '-0.20' },
  { name: 'pole angle', value: '0.03' },
  { name: 'pole angular velocity', value: '0.00' },
];
const cartpoleOutputs: NodeLabel[] = [
  { name: 'push left', value: '0.50' },
  { name: 'push right', value: '0.50' },
];

/** Every label line lies inside [0, width], and the node columns keep their order. */
function expectInside(layout: ReturnType<typeof layoutLabels>, width: number): void {
  for (const label of layout.inputs) for (const line of label) expect(layout.inputRight - mono(line)).toBeGreaterThanOrEqual(0);
  for (const label of layout.outputs) for (const line of label) expect(layout.outputLeft + mono(line)).toBeLessThanOrEqual(width);
  expect(layout.firstX).toBeLessThan(layout.lastX);
}

describe('network view labels', () => {
  it('keep one line each where the canvas is wide enough, the columns just clear of them', () => {
    const layout = layoutLabels(cartpoleInputs, cartpoleOutputs, 560, mono, { inputs: 4, outputs: 9 });
    expect(layout.inputs).toEqual([['cart position 0.01'], ['cart velocity -0.20'], ['pole angle 0.03'], ['pole angular velocity 0.00']]);
    expect(layout.outputs).toEqual([['push left 0.50'], ['push right 0.50']]);
    // Widest input "pole angular velocity 0.00": 26 chars = 156 px; widest output "push right 0.50": 90 px.
    expect(layout.firstX).toBe(CHROME + 156);
    expect(layout.lastX).toBe(560 - CHROME - 90);
    expect(layout.inputRight).toBe(layout.firstX - 12);
    expect(layout.outputLeft).toBe(layout.lastX + 12);
    expectInside(layout, 560);
  });

  it('wrap names at spaces in a narrow column and stay inside it (the left labels used to be cut off)', () => {
    // Room for labels: 224·0.6 − 2·18 = 98.4 px, asked 156 + 90 = 246: each side gets 0.4 of its
    // want, 62.4 px (10 chars) for the inputs and 36 px (6 chars) for the outputs.
    const layout = layoutLabels(cartpoleInputs, cartpoleOutputs, 224, mono, { inputs: 4, outputs: 9 });
    expect(layout.inputs).toEqual([
      ['cart', 'position', '0.01'],
      ['cart', 'velocity', '-0.20'],
      ['pole angle', '0.03'],
      ['pole', 'angular', 'velocity', '0.00'],
    ]);
    expect(layout.outputs).toEqual([
      ['push', 'left', '0.50'],
      ['push', 'right', '0.50'],
    ]);
    expect(layout.firstX).toBe(CHROME + 60); // "pole angle": 60 px
    expect(layout.lastX).toBe(224 - CHROME - 30); // "right" and "0.50": 30 and 24 px
    expectInside(layout, 224);
  });

  it('cut a name that has no room for its words with an ellipsis', () => {
    // Six inputs in a row of 36 px: 3 lines, so at most 2 for the name.
    const inputs = [{ name: 'θ1 angular velocity of the first link', value: '1.00' }];
    const layout = layoutLabels(inputs, [{ name: 'torque', value: '0.33' }], 150, mono, { inputs: 3, outputs: 3 });
    expect(layout.inputs[0]).toHaveLength(3);
    expect(layout.inputs[0][1].endsWith('…')).toBe(true);
    expect(layout.inputs[0][2]).toBe('1.00');
    expectInside(layout, 150);
  });

  it('fitText keeps text that fits and cuts the rest to fit', () => {
    expect(fitText('push left', 54, mono)).toBe('push left');
    expect(fitText('push left', 53, mono)).toBe('push le…'); // "push lef…" is 9 chars, 54 px; "push le…" 48
    expect(fitText('push left', 30, mono)).toBe('push…'); // "push …" loses its space first: 5 chars, 30 px
    expect(mono(fitText('pole angular velocity', 40, mono))).toBeLessThanOrEqual(40);
    expect(fitText('anything', 3, mono)).toBe('');
  });
});
