import { useEffect, useRef } from 'react';
import { PRESETS } from '../../config/presets';
import { usePlayground } from '../store';
import { useOpenPreset } from '../session/useOpenPreset';

/** Every preset with the sentence on what it shows; a radio group, so arrow keys move through it. */
export function PresetGallery() {
  const current = usePlayground((s) => s.config.preset);
  const status = usePlayground((s) => s.status);
  const openPreset = useOpenPreset();
  const locked = !['idle', 'done', 'error'].includes(status);
  const list = useRef<HTMLDivElement>(null);
  // A link that opens a preset far down the list shows it: the list scrolls (never the page).
  useEffect(() => {
    const box = list.current;
    const chosen = box?.querySelector<HTMLElement>('.preset-current');
    if (!box || !chosen) return;
    const outer = box.getBoundingClientRect();
    const inner = chosen.getBoundingClientRect();
    if (inner.top < outer.top || inner.bottom > outer.bottom) box.scrollTop += inner.top - outer.top - 4;
  }, [current]);
  return (
    <fieldset className="presets" id="presets" disabled={locked} data-testid="presets">
      <legend>Preset</legend>
      <div className="preset-list" ref={list}>
        {PRESETS.map((p) => (
          <label key={p.name} className={`preset${p.name === current ? ' preset-current' : ''}`}>
            <input type="radio" name="preset" value={p.name} checked={p.name === current} onChange={() => openPreset(p.name)} />
            <span>
              <strong>{p.title}</strong>
              <small className="help">{p.description}</small>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
