import { SETTINGS, type Setting, type SettingKey } from '../../config/settings';
import { usePlayground } from '../store';

interface Props {
  settingKey: SettingKey;
  disabled: boolean;
  /** Extra text per enum option (for example whether this browser supports a backend). */
  optionNote?: (option: string) => string;
}

/** One setting: its control, its range and default, and its one-line help. */
export function SettingField({ settingKey, disabled, optionNote }: Props) {
  const setting = SETTINGS[settingKey] as Setting;
  const value = usePlayground((s) => s.config.settings[settingKey]);
  const setSetting = usePlayground((s) => s.setSetting);
  const notify = usePlayground((s) => s.notify);
  const id = `setting-${settingKey}`;
  const helpId = `${id}-help`;
  const commit = (v: string | number | boolean) => {
    if (v === value) return;
    try {
      setSetting(settingKey, v as never);
    } catch (err) {
      notify('warning', err instanceof Error ? err.message : String(err));
    }
  };
  const range =
    setting.kind === 'int' || setting.kind === 'number'
      ? ` Range ${setting.min}–${setting.max}, default ${setting.default}.`
      : setting.kind === 'enum'
        ? ` Default ${setting.default}.`
        : ` Default ${setting.default ? 'on' : 'off'}.`;
  return (
    <div className={`field field-${setting.kind}`} data-setting={settingKey}>
      <label htmlFor={id}>{setting.label}</label>
      {setting.kind === 'enum' ? (
        <select id={id} value={String(value)} disabled={disabled} aria-describedby={helpId} onChange={(e) => commit(e.target.value)}>
          {setting.options.map((o) => (
            <option key={o} value={o}>
              {o}
              {optionNote ? optionNote(o) : ''}
            </option>
          ))}
        </select>
      ) : setting.kind === 'bool' ? (
        <input id={id} type="checkbox" checked={Boolean(value)} disabled={disabled} aria-describedby={helpId} onChange={(e) => commit(e.target.checked)} />
      ) : (
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min={setting.min}
          max={setting.max}
          step={setting.kind === 'int' ? 1 : 'any'}
          defaultValue={Number(value)}
          key={String(value)}
          disabled={disabled}
          aria-describedby={helpId}
          onBlur={(e) => commit(Number(e.target.value))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(Number((e.target as HTMLInputElement).value));
          }}
        />
      )}
      <small className="help" id={helpId}>
        {setting.help}
        {range}
      </small>
    </div>
  );
}
