import { useEffect, useState } from 'react';

const STEPS: { target: string; title: string; text: string }[] = [
  { target: 'presets', title: 'Pick an experiment', text: 'Each preset is a ready experiment with one sentence on what it shows. Every setting below it has its range, default and a line of help.' },
  { target: 'run-controls', title: 'Run it', text: 'Start trains in Web Workers: a learner (WebGPU when your browser has it) and actors that play the environment. Pause, step one update, stop or reset at any time.' },
  { target: 'charts', title: 'Watch it learn', text: 'Return per episode and its running mean; for swarm presets the PARL reward parts, λ annealing and critical against total steps. Each chart downloads as PNG.' },
  { target: 'actors', title: 'The actors', text: 'Every actor worker with its throughput and errors. Crash one: the pool replaces it and training goes on.' },
  { target: 'runs', title: 'Keep and compare', text: 'Every run is saved in this browser as it goes. Overlay runs on the return chart, export them as JSON or CSV, and share the experiment with Copy link.' },
  { target: 'teaching', title: 'What am I looking at?', text: 'Short notes on serial collapse, spurious parallelism, annealing, critical steps and policy lag, each with the preset that shows it.' },
];

/** A short guided tour: one card per part of the screen, with that part outlined. */
export function Tour({ onClose }: { onClose: () => void }) {
  const [i, setI] = useState(0);
  const step = STEPS[i];
  useEffect(() => {
    const el = document.getElementById(step.target);
    el?.classList.add('tour-target');
    el?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    return () => el?.classList.remove('tour-target');
  }, [step.target]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="tour" role="dialog" aria-modal="false" aria-labelledby="tour-title" data-testid="tour">
      <div className="muted">
        {i + 1} / {STEPS.length}
      </div>
      <h2 id="tour-title">{step.title}</h2>
      <p>{step.text}</p>
      <div className="tour-buttons">
        <button type="button" onClick={() => setI(i - 1)} disabled={i === 0}>
          Back
        </button>
        {i < STEPS.length - 1 ? (
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
