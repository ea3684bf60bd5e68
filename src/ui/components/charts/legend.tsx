/**
 * A chart legend in plain HTML above the chart. recharts' <Legend> measures its own box in the
 * DOM after every update (a forced layout per chart per update while training runs).
 */
export const LEGEND_HEIGHT = 22;

export interface LegendItem {
  name: string;
  color: string;
  dashed?: boolean;
}

export function ChartLegend({ items }: { items: readonly LegendItem[] }) {
  return (
    <ul className="chart-legend">
      {items.map((it) => (
        <li key={it.name} className={it.dashed ? 'dashed' : undefined} style={{ color: it.color }}>
          {it.name}
        </li>
      ))}
    </ul>
  );
}
