/**
 * Finding the numbers a text states, and judging each against the named figures and the
 * documented exceptions (tests/unit/docs/swarmFigures.test.ts).
 *
 * A number is a run of digits (with thousands commas and a decimal part) not glued to a letter, so
 * λ1, K2.5, r_perf and file names are not numbers; inline code and link targets are left out.
 */

export interface StatedNumber {
  /** As written, e.g. "0.755" or "1,500". */
  raw: string;
  value: number;
  /** Where it starts in the text. */
  at: number;
  /** The words around it, for a message. */
  context: string;
}

/** A number stated for another reason than a measurement: a setting, a rule, a definition. */
export interface FigureException {
  /** Text around the number (its match covers the number) that says what it is. */
  pattern: RegExp;
  why: string;
}

/** The text with inline code, link targets and HTML comments blanked out (same length, so positions hold). */
export function proseOnly(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return text
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/`[^`\n]*`/g, blank)
    .replace(/\]\([^)\s]*\)/g, (m) => `]${blank(m.slice(1))}`);
}

export function statedNumbers(text: string): StatedNumber[] {
  const prose = proseOnly(text);
  const out: StatedNumber[] = [];
  for (const m of prose.matchAll(/(?<![\p{L}\p{N}_.#/-])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\p{L}\p{N}_])|(?<![\p{L}\p{N}_.#/-])\d+(?:\.\d+)?(?![\p{L}\p{N}_])/gu)) {
    const raw = m[0];
    const at = m.index ?? 0;
    out.push({ raw, value: Number(raw.replace(/,/g, '')), at, context: prose.slice(Math.max(0, at - 40), at + raw.length + 40).replace(/\s+/g, ' ').trim() });
  }
  return out;
}

/** The forms a figure may be stated in: at its own digits, or one fewer (0.755 as 0.76), never fewer than one. */
export function statedForms(value: number, digits: number): string[] {
  const forms = [value.toFixed(digits)];
  if (digits >= 2) forms.push(value.toFixed(digits - 1));
  return forms;
}

/**
 * The numbers of `text` that are neither a form of a named figure nor inside a match of an
 * exception's pattern (a figure's form is compared without thousands commas).
 */
export function unexplainedNumbers(text: string, figureForms: ReadonlySet<string>, exceptions: readonly FigureException[]): StatedNumber[] {
  const prose = proseOnly(text);
  const covered: [number, number][] = [];
  for (const e of exceptions) {
    const re = new RegExp(e.pattern.source, e.pattern.flags.includes('g') ? e.pattern.flags : `${e.pattern.flags}g`);
    for (const m of prose.matchAll(re)) covered.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  return statedNumbers(text).filter((n) => {
    if (figureForms.has(n.raw.replace(/,/g, ''))) return false;
    return !covered.some(([a, b]) => n.at >= a && n.at + n.raw.length <= b);
  });
}
