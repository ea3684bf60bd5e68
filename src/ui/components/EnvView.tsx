/**
 * The environment, drawn on a canvas, only while the canvas is on screen and the tab is visible.
 * While training, it replays the newest greedy episode: a greedy episode actor 0 plays with recent
 * weights every few seconds (`greedyEpisode` records). An episode is played to its end before the next
 * newest one starts, so long episodes are seen whole. Before the first greedy episode arrives, a seeded
 * uniform-random policy plays in the main thread (the env classes cost microseconds a step), and
 * the panel says so.
 */
import { useEffect, useRef, useState } from 'react';
import type { GreedyEpisodeRecord } from '../../runs/records';
import { Rng } from '../../core/rng';
import { makeEnv } from '../../envs/registry';
import { usePlayground } from '../store';
import { descriptorOf } from '../../config/registry';
import { MpeView } from './MpeView';
import { CONTINUOUS_DRAW } from './ContinuousEnvViews';
import { useNewestGreedyEpisode } from './useNewestGreedyEpisode';

const W = 320;
const H = 200;
const FRAME_MS = 33;
/** Pause on an episode's last frame before the next one starts. */
const HOLD_MS = 600;

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

const DRAW: Record<string, Draw> = { 'CartPole-v1': drawCartPole, 'Acrobot-v1': drawAcrobot, 'MountainCar-v0': drawMountainCar, ...CONTINUOUS_DRAW };

/** What the caption says while random actions play: before the first update, or until the agent's first demo episode arrives. */
export function randomCaption(updates: number): string {
  if (updates === 0) return 'Random actions until the first update: you see the task, not the agent yet.';
  return `Random actions until the agent's first demo episode arrives (${updates.toLocaleString('en-US')} update${updates === 1 ? '' : 's'} so far).`;
}

/** What the caption says about the episode on the canvas. */
type Playing = { kind: 'random'; n: number; ret: number } | { kind: 'greedy-episode'; update: number; ret: number; frames: number; saved: boolean };

function greedyEpisodeState(d: GreedyEpisodeRecord, f: number): Record<string, number> {
  const k = d.keys.length;
  const out: Record<string, number> = {};
  for (let i = 0; i < k; i++) out[d.keys[i]] = d.frames[f * k + i];
  return out;
}

/** The live view: particle worlds for multi-agent runs (MpeView), the classic envs otherwise. */
export function EnvView() {
  const multiAgent = usePlayground((s) => descriptorOf(s.config.settings.algorithm).family === 'marl');
  return multiAgent ? <MpeView /> : <ClassicEnvView />;
}

function ClassicEnvView() {
  const envId = usePlayground((s) => s.config.settings['env.id']);
  const seed = usePlayground((s) => s.config.settings.seed);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const newest = useNewestGreedyEpisode(envId);
  const [playing, setPlaying] = useState<Playing>({ kind: 'random', n: 0, ret: 0 });
  const updates = usePlayground((s) => s.updates);

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
    let current: GreedyEpisodeRecord | null = null;
    let frame = 0;
    let holdUntil = 0;
    let visible = true;
    let raf = 0;
    let last = 0;
    // The newest entry decides: a busy page can get several in one callback (out, then in again),
    // and reading the first one left the view frozen on an old greedy episode while it was on screen.
    const observer = new IntersectionObserver((entries) => (visible = entries[entries.length - 1].isIntersecting));
    observer.observe(canvas);
    const paint = (state: Record<string, number>) => {
      ctx.fillStyle = '#0b1220';
      ctx.fillRect(0, 0, W, H);
      draw(ctx, state);
    };
    const tick = (t: number) => {
      raf = requestAnimationFrame(tick);
      if (!visible || document.hidden) {
        // Nobody is watching the replay: line up the newest greedy episode (and its caption) to play from
        // its start once the view is back on screen.
        const next = newest.current;
        if (next && next !== current) {
          current = next;
          frame = 0;
          holdUntil = 0;
          setPlaying({ kind: 'greedy-episode', update: next.update, ret: next.episodeReturn, frames: next.frames.length / next.keys.length, saved: next.saved === true });
        }
        return;
      }
      if (t - last < FRAME_MS || t < holdUntil) return;
      // Frames follow the clock, not the number of ticks: on a busy page (few animation frames a
      // second) a 500-step episode once took minutes to replay, and the view lagged far behind.
      const due = last === 0 || t - last > 1_000 ? 1 : Math.max(1, Math.floor((t - last) / FRAME_MS));
      last = t;
      if (current && newest.current === null) {
        // The run was reset: back to the random-action preview.
        current = null;
        setPlaying({ kind: 'random', n: episodes, ret: 0 });
      }
      if (current === null || frame >= current.frames.length / current.keys.length) {
        // Start the newest greedy episode (or replay the one just shown until a newer one comes).
        const next = newest.current;
        if (next) {
          current = next;
          frame = 0;
          setPlaying({ kind: 'greedy-episode', update: next.update, ret: next.episodeReturn, frames: next.frames.length / next.keys.length, saved: next.saved === true });
        }
      }
      if (current) {
        const count = current.frames.length / current.keys.length;
        frame = Math.min(frame + due - 1, count - 1);
        paint(greedyEpisodeState(current, frame));
        frame += 1;
        if (frame >= current.frames.length / current.keys.length) holdUntil = t + HOLD_MS;
        return;
      }
      const step = env.step(rng.int(n));
      ret += step.reward;
      if (step.terminated || step.truncated) {
        episodes += 1;
        setPlaying({ kind: 'random', n: episodes, ret });
        ret = 0;
        env.reset();
      }
      paint(env.renderState());
    };
    raf = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(raf);
      observer.disconnect();
    };
  }, [envId, seed, newest]);

  if (!DRAW[envId]) return null;
  return (
    <section aria-label="Environment view" id="env-view">
      <h2>
        {envId} <span className="muted">live view</span>
      </h2>
      <canvas ref={canvasRef} className="env-canvas" style={{ aspectRatio: `${W} / ${H}` }} role="img" aria-label={`${envId} animation`} data-testid="env-canvas" />
      {playing.kind === 'greedy-episode' ? (
        <p className="help" data-testid="env-caption" data-source="greedy-episode">
          {playing.saved ? (
            <>
              <strong>Saved weights</strong> from update {playing.update}: a greedy episode, return {playing.ret.toFixed(0)} ({playing.frames} steps).
            </>
          ) : (
            <>
              <strong>The agent</strong> at update {playing.update}: a greedy episode with its recent weights, return {playing.ret.toFixed(0)} ({playing.frames} steps).
            </>
          )}
        </p>
      ) : (
        <p className="help" data-testid="env-caption" data-source="random">
          {randomCaption(updates)}
          {playing.n > 0 ? ` Episode ${playing.n}, return ${playing.ret.toFixed(0)}.` : ''}
        </p>
      )}
    </section>
  );
}
