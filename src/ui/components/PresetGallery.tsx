import { PRESETS } from '../../config/presets';
import { usePlayground } from '../store';

/** Every preset with the sentence on what it shows; a radio group, so arrow keys move through it. */
export function PresetGallery() {
  const current = usePlayground((s) => s.config.preset);
  const status = usePlayground((s) => s.status);
  const setPreset = usePlayground((s) => s.setPreset);
  const locked = !['idle', 'done', 'error'].includes(status);
  return (
    <fieldset className="presets" id="presets" disabled={locked} data-testid="presets">
      <legend>Preset</legend>
      <div className="preset-list">
        {PRESETS.map((p) => (
          <label key={p.name} className={`preset${p.name === current ? ' preset-current' : ''}`}>
            <input type="radio" name="preset" value={p.name} checked={p.name === current} onChange={() => setPreset(p.name)} />
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
