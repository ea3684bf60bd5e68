/**
 * The live view of a multi-agent run: the newest greedy episode (a greedy episode actor 0 plays
 * with recent weights, src/engine/marlActor.ts) drawn as PettingZoo draws MPE: landmarks and
 * agents as circles of their size and colour in a camera spanning ±the farthest entity, and the
 * speaker's message (speaker_listener) under the picture. Before the first greedy episode, a uniformly
 * random joint policy plays in the page.
 */
import { useEffect, useRef, useState } from 'react';
import { Rng } from '../../core/rng';
import { makeMpeEnv, messageWord, type MpeRenderFrame } from '../../envs/mpe';
import type { GreedyEpisodeRecord } from '../../runs/records';
import { usePlayground } from '../store';
import { optionText } from './settingText';
import { useNewestGreedyEpisode } from './useNewestGreedyEpisode';

const SIZE = 260;
const FRAME_MS = 120;
const HOLD_MS = 800;

/** A greedy-episode frame (keys `name.x`, `name.y`, `name.size`, `name.r/g/b`, `name.goal`, `speaker.msgK`) as a render frame. */
export function frameFromGreedyEpisode(template: MpeRenderFrame, d: GreedyEpisodeRecord, f: number): MpeRenderFrame {
  const k = d.keys.length;
  const v: Record<string, number> = {};
  for (let i = 0; i < k; i++) v[d.keys[i]] = d.frames[f * k + i];
  let camRange = 0;
  const entities = template.entities.map((e) => {
    const x = v[`${e.name}.x`] ?? e.x;
    const y = v[`${e.name}.y`] ?? e.y;
    camRange = Math.max(camRange, Math.abs(x), Math.abs(y));
    const color: [number, number, number] = [v[`${e.name}.r`] ?? e.color[0], v[`${e.name}.g`] ?? e.color[1], v[`${e.name}.b`] ?? e.color[2]];
    return { ...e, x, y, color, size: v[`${e.name}.size`] ?? e.size, isGoal: v[`${e.name}.goal`] === 1 };
  });
  const messages = template.messages.map((m) => {
    const values = m.values.map((old, j) => v[`${m.from}.msg${j}`] ?? old);
    return { ...m, values, word: messageWord(values, false) };
  });
  return { ...template, step: f, camRange, entities, messages };
}

function draw(ctx: CanvasRenderingContext2D, frame: MpeRenderFrame): void {
  ctx.fillStyle = '#0b1220';
  ctx.fillRect(0, 0, SIZE, SIZE);
  const cam = Math.max(1, frame.camRange);
  const scale = (SIZE / 2) * 0.9 / cam;
  const px = (x: number) => SIZE / 2 + x * scale;
  const py = (y: number) => SIZE / 2 - y * scale;
  // Landmarks first, agents on top (PettingZoo draws entities in world order: agents, then landmarks).
  const ordered = [...frame.entities.filter((e) => e.kind === 'landmark'), ...frame.entities.filter((e) => e.kind === 'agent')];
  for (const e of ordered) {
    // PettingZoo's colours are meant for a white page; on the dark panel they are lifted so that
    // its dark grey landmarks stay visible, keeping their hue.
    const [r, g, b] = e.color.map((c) => Math.round(70 + Math.min(1, Math.max(0, c)) * 185));
    ctx.beginPath();
    ctx.arc(px(e.x), py(e.y), Math.max(2, e.size * scale), 0, 2 * Math.PI);
    ctx.fillStyle = `rgb(${r}, ${g}, ${b})`;
    ctx.fill();
    ctx.lineWidth = e.isGoal ? 2.5 : 1;
    ctx.strokeStyle = e.isGoal ? '#f8fafc' : '#94a3b8';
    ctx.stroke();
  }
}

type Playing = { kind: 'random' } | { kind: 'greedy-episode'; update: number; ret: number };

export function MpeView() {
  const envId = usePlayground((s) => s.config.settings['marl.env']);
  const seed = usePlayground((s) => s.config.settings.seed);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const newest = useNewestGreedyEpisode(envId);
  const [playing, setPlaying] = useState<Playing>({ kind: 'random' });
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = SIZE * dpr;
    canvas.height = SIZE * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const env = makeMpeEnv(envId, { seed });
    const rng = new Rng(seed);
    const state = new Float32Array(env.stateDim);
    const rewards = new Float32Array(env.numAgents);
    const joint = new Int32Array(env.numAgents);
    const sizes = env.possibleAgents.map((a) => {
      const s = env.actionSpace(a);
      return s.kind === 'discrete' ? s.n : 1;
    });
    env.resetInto(state, 0, seed);
    const template = env.render();
    let current: GreedyEpisodeRecord | null = null;
    let frame = 0;
    let last = 0;
    let holdUntil = 0;
    let raf = 0;
    const show = (f: MpeRenderFrame) => {
      draw(ctx, f);
      setMessage(f.messages.length ? f.messages.map((m) => `${m.from} sends ${m.word}`).join(', ') : null);
    };
    const tick = (t: number) => {
      raf = requestAnimationFrame(tick);
      if (document.hidden || t - last < FRAME_MS || t < holdUntil) return;
      last = t;
      if (current === null || frame >= current.frames.length / current.keys.length) {
        const next = newest.current;
        if (next) {
          current = next;
          frame = 0;
          setPlaying({ kind: 'greedy-episode', update: next.update, ret: next.episodeReturn });
        }
      }
      if (current) {
        show(frameFromGreedyEpisode(template, current, frame));
        frame += 1;
        if (frame >= current.frames.length / current.keys.length) holdUntil = t + HOLD_MS;
        return;
      }
      if (env.lastTruncated) env.resetInto(state, 0);
      for (let a = 0; a < joint.length; a++) joint[a] = rng.int(sizes[a]);
      env.stepFlat(joint, 0, state, 0, rewards, 0);
      show(env.render());
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [envId, seed, newest]);

  return (
    <section aria-label="Environment view" id="env-view">
      <h2>
        {optionText('marl.env', envId)} <span className="muted">live view</span>
      </h2>
      <canvas ref={canvasRef} className="env-canvas" style={{ aspectRatio: '1 / 1', maxWidth: SIZE }} role="img" aria-label={`${envId}: agents and landmarks`} data-testid="mpe-canvas" />
      {message && (
        <p className="help" data-testid="mpe-message">
          {message}
        </p>
      )}
      <p className="help" data-testid="env-caption" data-source={playing.kind}>
        {playing.kind === 'greedy-episode'
          ? `Greedy episode after update ${playing.update}: team return ${playing.ret.toFixed(1)} (Σ over agents, 25 steps).`
          : 'Random joint actions until the first greedy episode arrives.'}
      </p>
    </section>
  );
}
