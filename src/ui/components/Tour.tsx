import { useEffect, useMemo, useRef, useState } from 'react';

/**
 * The tour's cards. `target` is the id of the part a card outlines; `names` is the text of what
 * the card is about, which that part must contain (the tour outlines what it names).
 */
export interface TourStep {
  target: string;
  names: string;
  title: string;
  text: string;
}

export const TOUR_STEPS: TourStep[] = [
  { target: 'presets', names: 'Preset', title: 'Pick an experiment', text: 'Each preset is a ready experiment with one sentence on what it shows. Every setting below it has its range, default and a line of help.' },
  { target: 'run-controls', names: 'Start', title: 'Run it', text: 'Start trains in Web Workers: a learner on the fastest backend this browser measured, and actors that play the environment. Pause, step one update, stop or reset at any time.' },
  { target: 'share', names: 'Copy link', title: 'Share it', text: 'Copy link copies a link to this experiment: whoever opens it gets the same settings and seed. Link options make a teaching link that starts training by itself and hides parts of the page.' },
  { target: 'charts', names: 'Episode return', title: 'Watch it learn', text: 'The episode return and its running average; for swarm presets the reward parts, the λ weights and critical against total steps. “What is this?” under each title says what good and bad look like.' },
  { target: 'env-view', names: 'live view', title: 'The live view', text: 'The agent plays a greedy episode with recent weights every few seconds, so you see what the numbers mean.' },
  { target: 'actors', names: 'Actors', title: 'The actors', text: 'Actors: every actor worker of a run with its throughput and errors. Crash one: the pool starts a new one in its place and training goes on.' },
  { target: 'runs', names: 'Runs', title: 'Keep and compare', text: 'Runs: every run is saved in this browser as it goes. Overlay runs on the return chart, export them as JSON or CSV, rename or delete them (Delete can be undone for a few seconds).' },
  { target: 'teaching', names: 'What am I looking at?', title: 'What am I looking at?', text: 'Short notes on the ideas behind the charts for the kind of learning the open preset shows (classic control, continuous control, offline, multi-agent or the agent swarm), each with the preset that shows it; the other kinds’ notes are folded below.' },
];

/**
 * A short guided tour: one card per part of the screen, with that part outlined. Parts a link
 * hides are skipped. The card sits at the bottom of the screen, or at the top when the part it
 * points at is in the lower half, so it never covers it. Closing it gives focus back to
 * whatever opened it.
 */
export function Tour({ onClose }: { onClose: () => void }) {
  const steps = useMemo(() => TOUR_STEPS.filter((s) => document.getElementById(s.target) !== null), []);
  const [i, setI] = useState(0);
  const [atTop, setAtTop] = useState(false);
  const opener = useRef<Element | null>(document.activeElement);
  const step = steps[Math.min(i, steps.length - 1)];
  useEffect(() => {
    const back = opener.current;
    // Room below the page, so a target near its end can still scroll clear of the card.
    document.body.classList.add('touring');
    return () => {
      document.body.classList.remove('touring');
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    };
  }, []);
  useEffect(() => {
    if (!step) return;
    const el = document.getElementById(step.target);
    if (!el) return;
    el.classList.add('tour-target');
    // Scroll only to a part that is not all on screen: on a one-screen desktop the page stays put.
    const shown = el.getBoundingClientRect();
    if (shown.top < 0 || shown.bottom > window.innerHeight) el.scrollIntoView({ block: 'start', behavior: 'auto' });
    // The card covers the bottom (or top) 45% of a phone screen at most; keep the target clear of it.
    const raf = requestAnimationFrame(() => {
      const r = el.getBoundingClientRect();
      setAtTop(r.top > window.innerHeight - Math.min(r.bottom, window.innerHeight));
    });
    return () => {
      cancelAnimationFrame(raf);
      el.classList.remove('tour-target');
    };
  }, [step]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  if (!step) return null;
  return (
    <div className={`tour${atTop ? ' tour-top' : ''}`} role="dialog" aria-modal="false" aria-labelledby="tour-title" data-testid="tour" data-target={step.target} data-names={step.names}>
      <div className="muted">
        {i + 1} / {steps.length}
      </div>
      <h2 id="tour-title">{step.title}</h2>
      <p>{step.text}</p>
      <div className="tour-buttons">
        <button type="button" onClick={() => setI(i - 1)} disabled={i === 0}>
          Back
        </button>
        {i < steps.length - 1 ? (
          <button type="button" className="primary" onClick={() => setI(i + 1)} autoFocus>
            Next
          </button>
        ) : (
          <button type="button" className="primary" onClick={onClose} autoFocus>
            Done
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
