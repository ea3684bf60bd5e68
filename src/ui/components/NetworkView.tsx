/**
 * The learner's network as TensorFlow Playground draws its own: one column of nodes per layer,
 * an edge per weight (blue positive, orange negative, wider for larger |w|), each node coloured
 * by its activation on the state shown (the centre of the heatmap's slice, or the state pointed
 * at there). Drawn on a canvas: a 64-unit layer has 4,096 edges.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { NetworkSnapshot } from '../../runs/records';
import { forwardLayers } from '../../runs/networkMath';
import { layoutLabels } from './networkLabels';
import { divergingColor } from './PolicyHeatmap';

interface Props {
  network: NetworkSnapshot;
  activation: 'tanh' | 'relu';
  /** The state to show activations for (default: the record's own). */
  input: number[] | null;
}

/** Widest the view is drawn (CSS px); narrower where its column is, and always drawn at its shown size. */
const MAX_W = 560;
const H = 240;
const PAD_Y = 12;
const FONT_PX = 10;
const LINE_PX = 11;

/** The activations on `input`: the record's own, or one forward pass in the page. */
export function activationsFor(net: NetworkSnapshot, activation: 'tanh' | 'relu', input: number[] | null): number[][] {
  if (!input) return net.activations;
  return forwardLayers({ sizes: net.sizes, weights: net.weights, biases: net.biases, activation }, input, 1).map((a) => Array.from(a));
}

export function NetworkView({ network: net, activation, input }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Drawn at the size it is shown, so the labels keep their 10 px and are laid out for that width.
  const [width, setWidth] = useState(420);
  useEffect(() => {
    const el = canvas.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = Math.round(entries[0]?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const acts = useMemo(() => activationsFor(net, activation, input), [net, activation, input]);
  const maxW = useMemo(() => Math.max(1e-6, ...net.weights.map((w) => w.reduce((m, x) => Math.max(m, Math.abs(x)), 0))), [net]);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const dpr = globalThis.devicePixelRatio || 1;
    el.width = Math.round(width * dpr);
    el.height = Math.round(H * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = `${FONT_PX}px sans-serif`;
    const L = net.sizes.length;
    const labels = layoutLabels(
      net.inputNames.map((name, i) => ({ name, value: (acts[0]?.[i] ?? 0).toFixed(2) })),
      net.outputNames.map((name, i) => ({ name, value: (acts[L - 1]?.[i] ?? 0).toFixed(2) })),
      width,
      (text) => ctx.measureText(text).width,
      // Text lines that fit in one node's row, first and last layer.
      { inputs: Math.floor((H - 2 * PAD_Y) / net.sizes[0] / LINE_PX), outputs: Math.floor((H - 2 * PAD_Y) / net.sizes[L - 1] / LINE_PX) },
    );
    const x = (l: number) => labels.firstX + ((labels.lastX - labels.firstX) * l) / (L - 1);
    const y = (l: number, i: number) => PAD_Y + ((H - 2 * PAD_Y) * (i + 0.5)) / net.sizes[l];
    ctx.clearRect(0, 0, width, H);
    for (let l = 0; l + 1 < L; l++) {
      const nOut = net.sizes[l + 1];
      const w = net.weights[l];
      for (let i = 0; i < net.sizes[l]; i++) {
        for (let j = 0; j < nOut; j++) {
          const v = w[i * nOut + j];
          const m = Math.abs(v) / maxW;
          if (m < 0.05) continue;
          ctx.strokeStyle = v > 0 ? `rgba(8,119,189,${0.15 + 0.6 * m})` : `rgba(245,147,34,${0.15 + 0.6 * m})`;
          ctx.lineWidth = 0.3 + 2.5 * m;
          ctx.beginPath();
          ctx.moveTo(x(l), y(l, i));
          ctx.lineTo(x(l + 1), y(l + 1, j));
          ctx.stroke();
        }
      }
    }
    for (let l = 0; l < L; l++) {
      const n = net.sizes[l];
      const r = Math.max(1.5, Math.min(6, (H - 2 * PAD_Y) / n / 2.4));
      const a = acts[l] ?? [];
      // Hidden units are in [-1, 1] (tanh) or [0, ∞) (relu); inputs and outputs by their own range.
      const span = Math.max(1e-6, ...a.map(Math.abs));
      for (let i = 0; i < n; i++) {
        const t = l === 0 || l === L - 1 ? 0.5 + a[i] / span / 2 : activation === 'tanh' ? (a[i] + 1) / 2 : 0.5 + Math.min(1, a[i]) / 2;
        ctx.fillStyle = `rgb(${divergingColor(t).join(',')})`;
        ctx.beginPath();
        ctx.arc(x(l), y(l, i), r, 0, 2 * Math.PI);
        ctx.fill();
        ctx.strokeStyle = '#94a3b8';
        ctx.lineWidth = 0.5;
        ctx.stroke();
      }
    }
    ctx.fillStyle = '#cbd5e1';
    // A label's lines, centred on its node's row.
    const drawLabel = (lines: string[], lx: number, ly: number) =>
      lines.forEach((line, k) => ctx.fillText(line, lx, ly + 3 + (k - (lines.length - 1) / 2) * LINE_PX));
    ctx.textAlign = 'right';
    labels.inputs.forEach((lines, i) => drawLabel(lines, labels.inputRight, y(0, i)));
    ctx.textAlign = 'left';
    labels.outputs.forEach((lines, i) => drawLabel(lines, labels.outputLeft, y(L - 1, i)));
  }, [net, acts, activation, maxW, width]);

  return (
    <figure className="network-view" data-testid="network-view">
      <figcaption>
        <strong>The {net.stack} network</strong>{' '}
        <span className="muted">
          {net.sizes.join(' → ')} units; edges: blue positive, orange negative weights, wider for larger; nodes: the activation on the state shown
        </span>
      </figcaption>
      <canvas ref={canvas} role="img" aria-label={`The ${net.stack} network, ${net.sizes.join(', ')} units per layer`} style={{ display: 'block', width: '100%', maxWidth: MAX_W, height: H }} />
    </figure>
  );
}
