/** A one-line progress bar on stderr (redrawn in place when stderr is a terminal). */
export class ProgressBar {
  private lastDraw = 0;
  private readonly tty: boolean;

  constructor(private readonly total: number, private readonly stream: NodeJS.WriteStream = process.stderr) {
    this.tty = Boolean(stream.isTTY);
  }

  update(done: number, detail: string, force = false): void {
    const now = Date.now();
    // On a terminal redraw at most 10 times a second; in a log write a line every 2 s.
    if (!force && now - this.lastDraw < (this.tty ? 100 : 2000)) return;
    this.lastDraw = now;
    const frac = Math.max(0, Math.min(1, done / this.total));
    const width = 28;
    const filled = Math.round(frac * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(frac * 100).toFixed(1).padStart(5)}%`;
    const line = `${bar} ${detail}`;
    if (this.tty) this.stream.write(`\r\x1b[2K${line}`);
    else this.stream.write(`${line}\n`);
  }

  finish(detail: string): void {
    this.update(this.total, detail, true);
    if (this.tty) this.stream.write('\n');
  }
}
