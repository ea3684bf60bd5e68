/**
 * Download a figure's charts as one PNG: every recharts surface in it is drawn onto a canvas at
 * its place in the figure, on the page's background, under the figure's title.
 */
const SCALE = 2;

function svgImage(svg: SVGSVGElement): Promise<HTMLImageElement> {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const { width, height } = svg.getBoundingClientRect();
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  // Text inherits the page font and colour only through CSS; pin them on the copy.
  clone.setAttribute('font-family', 'system-ui, sans-serif');
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(clone))}`;
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('could not render the chart as an image'));
    img.src = src;
  });
}

const LEGEND_FONT = '11px system-ui, sans-serif';
/** The legend's line sample and the gap after it, as legend.tsx's CSS draws them. */
const SAMPLE = 18;

/**
 * How wide the PNG must be for every legend item to fit whole: the canvas font can be wider than
 * the page's, so an item at the right edge of the figure would be cut.
 */
export function exportWidth(figureWidth: number, items: readonly { left: number; text: string }[], measure: (text: string) => number): number {
  return Math.max(figureWidth, ...items.map((it) => it.left + SAMPLE + measure(it.text) + 6));
}

/** The HTML legends (legend.tsx) at their places: a line sample in each item's colour, then its name. */
function drawLegends(ctx: CanvasRenderingContext2D, figure: HTMLElement, box: DOMRect): void {
  ctx.font = LEGEND_FONT;
  ctx.textBaseline = 'middle';
  ctx.lineWidth = 2;
  for (const li of figure.querySelectorAll<HTMLElement>('.chart-legend li')) {
    const r = li.getBoundingClientRect();
    const x = r.left - box.left;
    const y = r.top - box.top + r.height / 2;
    const color = getComputedStyle(li).color;
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.setLineDash(li.classList.contains('dashed') ? [4, 3] : []);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 14, y);
    ctx.stroke();
    ctx.fillText(li.textContent ?? '', x + SAMPLE, y);
  }
  ctx.setLineDash([]);
}

export async function figureToPng(figure: HTMLElement, title: string): Promise<Blob> {
  const box = figure.getBoundingClientRect();
  const surfaces = [...figure.querySelectorAll<SVGSVGElement>('svg.recharts-surface, svg.export-surface')].filter((s) => s.getBoundingClientRect().width >= 60);
  const canvas = document.createElement('canvas');
  const probe = canvas.getContext('2d');
  if (!probe) throw new Error('no 2d canvas');
  probe.font = LEGEND_FONT;
  const items = [...figure.querySelectorAll<HTMLElement>('.chart-legend li')].map((li) => ({ left: li.getBoundingClientRect().left - box.left, text: li.textContent ?? '' }));
  const width = exportWidth(box.width, items, (text) => probe.measureText(text).width);
  canvas.width = Math.ceil(width * SCALE);
  canvas.height = Math.ceil(box.height * SCALE);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d canvas');
  ctx.scale(SCALE, SCALE);
  ctx.fillStyle = '#111a2e';
  ctx.fillRect(0, 0, width, box.height);
  ctx.fillStyle = '#e2e8f0';
  ctx.font = '600 14px system-ui, sans-serif';
  ctx.fillText(title, 8, 18);
  for (const svg of surfaces) {
    const r = svg.getBoundingClientRect();
    ctx.drawImage(await svgImage(svg), r.left - box.left, r.top - box.top, r.width, r.height);
  }
  drawLegends(ctx, figure, box);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
}
