/** Shared look of the recharts charts (dark theme, small ticks, no animation). */
export const AXIS_TICK = { fill: '#94a3b8', fontSize: 11 };
export const GRID = '#2a3342';
export const TOOLTIP_STYLE = { background: '#0f172a', border: '1px solid #334155', fontSize: 12 };
export const MARGIN = { top: 8, right: 16, bottom: 16, left: 0 };
export const SERIES_COLORS = ['#38bdf8', '#a78bfa', '#f472b6', '#4ade80', '#f59e0b', '#fb7185', '#2dd4bf', '#e879f9', '#facc15', '#60a5fa'];
export const axisLabel = (value: string) => ({ value, position: 'insideBottom' as const, offset: -8, fill: '#94a3b8', fontSize: 11 });
export const CHART_HEIGHT = 200;
