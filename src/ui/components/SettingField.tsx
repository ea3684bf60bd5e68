import { useEffect, useMemo, useState } from 'react';
import { resolveExperiment } from '../../config/config';
import { SETTINGS, type Setting, type SettingKey } from '../../config/settings';
import { usePlayground } from '../store';
import { settingProblem, shownDefault } from './settingText';

interface Props {
  settingKey: SettingKey;
  disabled: boolean;
  /** Extra text per enum option (for example whether this browser supports a backend). */
  optionNote?: (option: string) => string;
  /** The enum options to offer (default: all of them). */
  options?: readonly string[];
}

/**
 * One setting: its control, its range and default, and its one-line help. A number that cannot
 * be used stays in the field as typed, with the problem in words under it (the setting keeps its
 * last good value until the field holds a good one).
 */
export function SettingField({ settingKey, disabled, optionNote, options }: Props) {
  const setting = SETTINGS[settingKey] as Setting;
  const value = usePlayground((s) => s.config.settings[settingKey]);
  const preset = usePlayground((s) => s.config.preset);
  const setSetting = usePlayground((s) => s.setSetting);
  const presetDefault = useMemo(() => resolveExperiment(preset).settings[settingKey], [preset, settingKey]);
  const [text, setText] = useState(String(value));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setText(String(value));
    setProblem(null);
  }, [value]);
  const id = `setting-${settingKey}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const commit = (v: string | number | boolean) => {
    if (typeof v === 'string' && (setting.kind === 'int' || setting.kind === 'number')) {
      const bad = settingProblem(setting, v);
      if (bad) return setProblem(bad);
      v = Number(v);
    }
    setProblem(null);
    if (v === value) return;
    try {
      setSetting(settingKey, v as never);
    } catch (err) {
      // The config's own check: said in words with the label, never the internal key.
      const detail = err instanceof Error ? err.message.replace(/^[\w.]+: /, '') : String(err);
      setProblem(`${setting.label}: ${detail}`);
    }
  };
  const describedBy = problem ? `${helpId} ${errorId}` : helpId;
  return (
    <div className={`field field-${setting.kind}`} data-setting={settingKey}>
      <label htmlFor={id}>{setting.label}</label>
      {setting.kind === 'enum' ? (
        <select id={id} value={String(value)} disabled={disabled} aria-describedby={describedBy} onChange={(e) => commit(e.target.value)}>
          {(options ?? setting.options).map((o) => (
            <option key={o} value={o}>
              {o}
              {optionNote ? optionNote(o) : ''}
            </option>
          ))}
        </select>
      ) : setting.kind === 'bool' ? (
        <input id={id} type="checkbox" checked={Boolean(value)} disabled={disabled} aria-describedby={describedBy} onChange={(e) => commit(e.target.checked)} />
      ) : (
        <input
          id={id}
          type="text"
          inputMode="decimal"
          value={text}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => setText(e.target.value)}
          onBlur={(e) => commit(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit((e.target as HTMLInputElement).value);
          }}
        />
      )}
      {problem && (
        <small className="field-error" id={errorId} role="alert" data-testid={`error-${settingKey}`}>
          {problem}
        </small>
      )}
      <small className="help" id={helpId}>
        {setting.help} {shownDefault(setting, presetDefault)}
      </small>
    </div>
  );
}
