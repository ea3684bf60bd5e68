/**
 * Canvas drawings of the continuous-control envs for the live view (EnvView): Pendulum-v1 (the
 * rod at angle θ from upright, and the applied torque as an arc) and MountainCarContinuous-v0
 * (the hill y = 0.45·sin(3x) + 0.55, the car, the flag at x = 0.45, and the force as an arrow).
 * Each reads the env's renderState() keys.
 */
type Draw = (ctx: CanvasRenderingContext2D, s: Record<string, number>) => void;

const W = 320;
const H = 200;

const drawPendulum: Draw = (ctx, s) => {
  const cx = W / 2;
  const cy = H / 2;
  const len = H * 0.38;
  // θ = 0 is upright; the tip is at (sin θ, cos θ) from the pivot, y up.
  const x = cx + len * Math.sin(s.theta);
  const y = cy - len * Math.cos(s.theta);
  ctx.strokeStyle = '#f59e0b';
  ctx.lineWidth = 8;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(cx, cy);
  ctx.lineTo(x, y);
  ctx.stroke();
  ctx.fillStyle = '#e2e8f0';
  ctx.beginPath();
  ctx.arc(cx, cy, 5, 0, 2 * Math.PI);
  ctx.fill();
  // Torque u ∈ [−2, 2]: an arc around the pivot, its length ∝ |u|, its direction the sign of u.
  const u = s.torque ?? 0;
  if (Math.abs(u) > 1e-3) {
    ctx.strokeStyle = '#38bdf8';
    ctx.lineWidth = 3;
    ctx.beginPath();
    const sweep = (Math.abs(u) / 2) * Math.PI;
    ctx.arc(cx, cy, 24, -Math.PI / 2, -Math.PI / 2 - Math.sign(u) * sweep, u > 0);
    ctx.stroke();
  }
  ctx.fillStyle = '#94a3b8';
  ctx.font = '12px sans-serif';
  ctx.fillText(`torque ${u.toFixed(2)}`, 8, H - 8);
};

const drawMountainCarContinuous: Draw = (ctx, s) => {
  const minX = -1.2;
  const maxX = 0.6;
  const scale = W / (maxX - minX);
  const height = (x: number) => Math.sin(3 * x) * 0.45 + 0.55;
  const toY = (h: number) => H - 20 - h * scale * 0.9;
  ctx.strokeStyle = '#475569';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let i = 0; i <= 100; i++) {
    const x = minX + ((maxX - minX) * i) / 100;
    const px = (x - minX) * scale;
    if (i === 0) ctx.moveTo(px, toY(height(x)));
    else ctx.lineTo(px, toY(height(x)));
  }
  ctx.stroke();
  const flagX = (0.45 - minX) * scale;
  ctx.strokeStyle = '#e2e8f0';
  ctx.beginPath();
  ctx.moveTo(flagX, toY(height(0.45)));
  ctx.lineTo(flagX, toY(height(0.45)) - 30);
  ctx.stroke();
  ctx.fillStyle = '#facc15';
  ctx.fillRect(flagX, toY(height(0.45)) - 30, 14, 9);
  const px = (s.position - minX) * scale;
  const py = toY(height(s.position));
  ctx.fillStyle = '#f59e0b';
  ctx.beginPath();
  ctx.arc(px, py - 8, 8, 0, 2 * Math.PI);
  ctx.fill();
  // Force ∈ [−1, 1]: an arrow from the car, right for positive.
  const f = s.force ?? 0;
  if (Math.abs(f) > 1e-3) {
    ctx.strokeStyle = '#38bdf8';
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(px, py - 8);
    ctx.lineTo(px + f * 30, py - 8);
    ctx.stroke();
  }
  ctx.fillStyle = '#94a3b8';
  ctx.font = '12px sans-serif';
  ctx.fillText(`force ${f.toFixed(2)}`, 8, H - 4);
};

/** Drawings by env id, merged into EnvView's table. */
export const CONTINUOUS_DRAW: Record<string, Draw> = {
  'Pendulum-v1': drawPendulum,
  'MountainCarContinuous-v0': drawMountainCarContinuous,
};
