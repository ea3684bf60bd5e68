/**
 * The environment, drawn on a canvas. It plays in the main thread with the env classes (they are
 * pure TypeScript and cost microseconds a step), at about 30 frames a second, and only while the
 * canvas is on screen and the tab is visible. The learner sends no policy snapshots yet, so the
 * actions come from a seeded uniform policy, and the panel says so.
 */
import { useEffect, useRef, useState } from 'react';
import { Rng } from '../../core/rng';
import { makeEnv } from '../../envs/registry';
import { usePlayground } from '../store';

const W = 320;
const H = 200;
const FRAME_MS = 33;

type Draw = (ctx: CanvasRenderingContext2D, s: Record<string, number>) => void;

const drawCartPole: Draw = (ctx, s) => {
  const scale = W / 4.8;
  const groundY = H * 0.7;
  ctx.strokeStyle = '#475569';
  ctx.beginPath();
  ctx.moveTo(0, groundY);
  ctx.lineTo(W, groundY);
  ctx.stroke();
  const cx = W / 2 + s.x * scale;
  ctx.fillStyle = '#38bdf8';
  ctx.fillRect(cx - 25, groundY - 15, 50, 30);
  const len = scale * 1.0;
  ctx.strokeStyle = '#f59e0b';
  ctx.lineWidth = 8;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(cx, groundY - 10);
  ctx.lineTo(cx + Math.sin(s.theta) * len, groundY - 10 - Math.cos(s.theta) * len);
  ctx.stroke();
  ctx.lineWidth = 1;
};

const drawAcrobot: Draw = (ctx, s) => {
  const scale = H / 4.6;
  const cx = W / 2;
  const cy = H / 2;
  ctx.strokeStyle = '#475569';
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(0, cy - scale);
  ctx.lineTo(W, cy - scale);
  ctx.stroke();
  ctx.setLineDash([]);
  const x1 = cx + Math.sin(s.theta1) * scale;
  const y1 = cy + Math.cos(s.theta1) * scale;
  const x2 = x1 + Math.sin(s.theta1 + s.theta2) * scale;
  const y2 = y1 + Math.cos(s.theta1 + s.theta2) * scale;
  ctx.lineWidth = 7;
  ctx.lineCap = 'round';
  ctx.strokeStyle = '#38bdf8';
  ctx.beginPath();
  ctx.moveTo(cx, cy);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.strokeStyle = '#a78bfa';
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x2, y2);
  ctx.stroke();
  ctx.lineWidth = 1;
};

const drawMountainCar: Draw = (ctx, s) => {
  const min = -1.2;
  const max = 0.6;
  const sx = (x: number) => ((x - min) / (max - min)) * W;
  const sy = (x: number) => H - 20 - (Math.sin(3 * x) * 0.45 + 0.55) * (H - 40);
  ctx.strokeStyle = '#64748b';
  ctx.beginPath();
  for (let i = 0; i <= 60; i++) {
    const x = min + ((max - min) * i) / 60;
    if (i === 0) ctx.moveTo(sx(x), sy(x));
    else ctx.lineTo(sx(x), sy(x));
  }
  ctx.stroke();
  ctx.fillStyle = '#f59e0b';
  ctx.fillRect(sx(0.5) - 1, sy(0.5) - 24, 2, 24);
  ctx.fillStyle = '#38bdf8';
  ctx.beginPath();
  ctx.arc(sx(s.position), sy(s.position) - 7, 7, 0, 2 * Math.PI);
  ctx.fill();
};

const DRAW: Record<string, Draw> = { 'CartPole-v1': drawCartPole, 'Acrobot-v1': drawAcrobot, 'MountainCar-v0': drawMountainCar };

export function EnvView() {
  const envId = usePlayground((s) => s.config.settings['env.id']);
  const seed = usePlayground((s) => s.config.settings.seed);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [episode, setEpisode] = useState({ n: 0, ret: 0 });

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    const draw = DRAW[envId];
    if (!canvas || !ctx || !draw) return;
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const env = makeEnv(envId);
    const rng = new Rng(seed);
    const n = env.actionSpace.kind === 'discrete' ? env.actionSpace.n : 1;
    env.reset({ seed });
    let ret = 0;
    let episodes = 0;
    let visible = true;
    let raf = 0;
    let last = 0;
    const observer = new IntersectionObserver(([e]) => (visible = e.isIntersecting));
    observer.observe(canvas);
    const frame = (t: number) => {
      raf = requestAnimationFrame(frame);
      if (!visible || document.hidden || t - last < FRAME_MS) return;
      last = t;
      const step = env.step(rng.int(n));
      ret += step.reward;
      if (step.terminated || step.truncated) {
        episodes += 1;
        setEpisode({ n: episodes, ret });
        ret = 0;
        env.reset();
      }
      ctx.fillStyle = '#0b1220';
      ctx.fillRect(0, 0, W, H);
      draw(ctx, env.renderState());
    };
    raf = requestAnimationFrame(frame);
    return () => {
      cancelAnimationFrame(raf);
      observer.disconnect();
    };
  }, [envId, seed]);

  if (!DRAW[envId]) return null;
  return (
    <section aria-label="Environment view" id="env-view">
      <h2>
        {envId} <span className="muted">live view</span>
      </h2>
      <canvas ref={canvasRef} className="env-canvas" style={{ aspectRatio: `${W} / ${H}` }} role="img" aria-label={`${envId} animation`} data-testid="env-canvas" />
      <p className="help">
        Uniform random actions (the learner does not send policy snapshots yet), so you see the task, not the agent. Episode {episode.n}, last return{' '}
        {episode.ret.toFixed(0)}.
      </p>
    </section>
  );
}
