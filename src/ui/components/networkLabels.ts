/**
 * Room for the network view's labels: the input labels sit right-aligned left of the first column
 * of nodes, the output labels left-aligned right of the last, and both must stay inside the canvas
 * whatever its width (a phone, or a narrow column beside the heatmap). Each side takes the width
 * of its widest label; when that leaves the network too little room, a label wraps: its name at
 * spaces over as many lines as its node's row has room for, then its value on a line of its own;
 * a name that still does not fit is shortened with an ellipsis.
 */

export interface NodeLabel {
  name: string;
  value: string;
}

export interface LabelLayout {
  /** x of the first and of the last column of nodes. */
  firstX: number;
  lastX: number;
  /** Where the input labels end (right-aligned) and the output labels begin (left-aligned). */
  inputRight: number;
  outputLeft: number;
  /** The lines of each input and output label, in order. */
  inputs: string[][];
  outputs: string[][];
}

/** Text width in px (the canvas's measureText in the page). */
export type Measure = (text: string) => number;

export interface LabelSpacing {
  /** From a node's edge to its label, and from a label to the canvas edge. */
  gap: number;
  /** Largest node radius. */
  radius: number;
  /** The share of the width kept for the network between the label columns. */
  networkShare: number;
}

const DEFAULT_SPACING: LabelSpacing = { gap: 6, radius: 6, networkShare: 0.4 };

function widest(lines: string[][], measure: Measure): number {
  let w = 0;
  for (const label of lines) for (const line of label) w = Math.max(w, measure(line));
  return w;
}

/** `text` cut (with an ellipsis) to fit `maxWidth`; the whole text when it fits. */
export function fitText(text: string, maxWidth: number, measure: Measure): string {
  if (measure(text) <= maxWidth) return text;
  for (let n = text.length - 1; n > 0; n--) {
    const cut = `${text.slice(0, n).trimEnd()}…`;
    if (measure(cut) <= maxWidth) return cut;
  }
  return '';
}

/** `name` wrapped at spaces into at most `maxLines` lines of at most `budget` px. */
function wrapName(name: string, budget: number, maxLines: number, measure: Measure): string[] {
  const lines: string[] = [];
  for (const word of name.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && measure(`${lines[last]} ${word}`) <= budget) lines[last] = `${lines[last]} ${word}`;
    else if (lines.length < maxLines) lines.push(word);
    else lines[last] = `${lines[last]} ${word}`; // no line left: the last one takes the rest, cut below
  }
  return lines.map((line) => fitText(line, budget, measure));
}

/** One side's labels, on as few lines as its `budget` allows (at most `maxLines` each). */
function sideLabels(labels: readonly NodeLabel[], budget: number, maxLines: number, measure: Measure): string[][] {
  const oneLine = labels.map((l) => [`${l.name} ${l.value}`]);
  if (widest(oneLine, measure) <= budget) return oneLine;
  return labels.map((l) => [...wrapName(l.name, budget, Math.max(1, maxLines - 1), measure), l.value]);
}

/**
 * The columns' x and the labels' lines for a canvas `width` px wide. `lines` is how many text
 * lines fit in one node's row on each side (at least 2: a name and a value).
 */
export function layoutLabels(
  inputs: readonly NodeLabel[],
  outputs: readonly NodeLabel[],
  width: number,
  measure: Measure,
  lines: { inputs: number; outputs: number },
  spacing: LabelSpacing = DEFAULT_SPACING,
): LabelLayout {
  const { gap, radius, networkShare } = spacing;
  // Each side: canvas edge, gap, label, gap, node radius.
  const chrome = 2 * gap + radius;
  const labelRoom = Math.max(0, width * (1 - networkShare) - 2 * chrome);
  const want = (ls: readonly NodeLabel[]) => widest(ls.map((l) => [`${l.name} ${l.value}`]), measure);
  const wantIn = want(inputs);
  const wantOut = want(outputs);
  // Split the room between the sides in proportion to what they ask for, when they ask for more.
  const scale = wantIn + wantOut > labelRoom ? labelRoom / Math.max(1e-9, wantIn + wantOut) : 1;
  const inLines = sideLabels(inputs, wantIn * scale, Math.max(2, lines.inputs), measure);
  const outLines = sideLabels(outputs, wantOut * scale, Math.max(2, lines.outputs), measure);
  const firstX = chrome + widest(inLines, measure);
  const lastX = width - chrome - widest(outLines, measure);
  return { firstX, lastX, inputRight: firstX - gap - radius, outputLeft: lastX + gap + radius, inputs: inLines, outputs: outLines };
}
