/**
 * Live changes on the charts: a dashed vertical line where each change applied (before its
 * update), labelled with what changed. Returned as an array of recharts children, so a chart adds
 * `{changeLines(marks, 'episode')}` inside its LineChart.
 */
import { ReferenceLine } from 'recharts';
import type { ChangeMark, PlaygroundState } from '../../store';
import { formatLiveValue, settingLabel } from '../LiveChangesList';

export const selectChangeMarks = (s: PlaygroundState) => s.changeMarks;

/** Where a change sits on each kind of x axis: episodes, env steps or gradient steps before its update, or the update itself. */
const X_OF = {
  episode: (m: ChangeMark) => m.episode,
  envSteps: (m: ChangeMark) => m.envSteps,
  gradientSteps: (m: ChangeMark) => m.gradientSteps,
  update: (m: ChangeMark) => m.update,
} as const;

const MARK_COLOR = '#e879f9';

export function changeLabel(m: ChangeMark): string {
  return `${settingLabel(m.key)} ${formatLiveValue(m.from)} → ${formatLiveValue(m.to)}`;
}

/**
 * Which side of its line a mark's label goes: towards the middle of the plot, so that a label
 * never runs off the plot's edge (to the right of marks in the first half, to the left after).
 */
export function labelPosition(x: number, xMax: number): 'insideTopLeft' | 'insideTopRight' {
  return xMax > 0 && x > xMax / 2 ? 'insideTopRight' : 'insideTopLeft';
}

/** The marks as lines; `xMax` is the largest x the chart shows (its data's last point). */
export function changeLines(marks: readonly ChangeMark[], axis: keyof typeof X_OF, xMax: number) {
  const right = Math.max(xMax, ...marks.map(X_OF[axis]));
  return marks.map((m, i) => (
    <ReferenceLine
      key={`change-${i}`}
      x={X_OF[axis](m)}
      className="change-marker"
      stroke={MARK_COLOR}
      strokeDasharray="2 3"
      ifOverflow="extendDomain"
      label={{ value: changeLabel(m), fill: MARK_COLOR, fontSize: 10, position: labelPosition(X_OF[axis](m), right) }}
    />
  ));
}
