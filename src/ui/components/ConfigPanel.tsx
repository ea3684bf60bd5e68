import { PRESETS } from '../../experiments/presets';
import { SETTINGS, type SettingKey, type Setting } from '../../experiments/settings';
import { usePlayground } from '../store';

const SHOWN: SettingKey[] = ['seed', 'env.id', 'actors', 'envsPerActor', 'backend', 'run.envSteps', 'model.hidden', 'reinforce.lr', 'reinforce.gamma'];

export function ConfigPanel() {
  const config = usePlayground((s) => s.config);
  const status = usePlayground((s) => s.status);
  const setPreset = usePlayground((s) => s.setPreset);
  const setSetting = usePlayground((s) => s.setSetting);
  const locked = !['idle', 'done', 'error'].includes(status);
  const preset = PRESETS.find((p) => p.name === config.preset);

  return (
    <form className="config" onSubmit={(e) => e.preventDefault()}>
      <label className="field">
        <span>Preset</span>
        <select value={config.preset} disabled={locked} onChange={(e) => setPreset(e.target.value)} data-testid="preset">
          {PRESETS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.title}
            </option>
          ))}
        </select>
        {preset && <small className="help">{preset.description}</small>}
      </label>
      {SHOWN.map((key) => (
        <SettingField key={key} settingKey={key} setting={SETTINGS[key] as Setting} value={config.settings[key]} disabled={locked} onChange={setSetting} />
      ))}
    </form>
  );
}

interface FieldProps {
  settingKey: SettingKey;
  setting: Setting;
  value: string | number | boolean;
  disabled: boolean;
  onChange: (key: SettingKey, value: never) => void;
}

function SettingField({ settingKey, setting, value, disabled, onChange }: FieldProps) {
  const id = `setting-${settingKey}`;
  const commit = (v: string | number | boolean) => {
    try {
      onChange(settingKey, v as never);
    } catch {
      // Out-of-range input: keep the last valid value; the field shows the bounds.
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{setting.label}</label>
      {setting.kind === 'enum' ? (
        <select id={id} value={String(value)} disabled={disabled} onChange={(e) => commit(e.target.value)}>
          {setting.options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      ) : setting.kind === 'bool' ? (
        <input id={id} type="checkbox" checked={Boolean(value)} disabled={disabled} onChange={(e) => commit(e.target.checked)} />
      ) : (
        <input
          id={id}
          type="number"
          min={setting.min}
          max={setting.max}
          step={setting.kind === 'int' ? 1 : 'any'}
          defaultValue={Number(value)}
          key={String(value)}
          disabled={disabled}
          onBlur={(e) => commit(Number(e.target.value))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(Number((e.target as HTMLInputElement).value));
          }}
        />
      )}
      <small className="help">
        {setting.help}
        {setting.kind === 'int' || setting.kind === 'number' ? ` Range ${setting.min}–${setting.max}, default ${setting.default}.` : ''}
      </small>
    </div>
  );
}
