import { useMemo, useState } from 'react';
import { resolveExperiment } from '../../config/config';
import { SETTINGS, type Setting, type SettingKey } from '../../config/settings';
import { usePlayground } from '../store';
import { browserPresetActors, presetActorsAreLight } from '../store/slices';
import { optionText, settingProblem, shownDefault } from './settingText';
import { useCanChangeLive, useSetOrChange, useShownValue } from './liveSetting';

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
  // While a run trains, a live setting shows the run's value and its edits go to the learner (liveSetting.ts).
  const value = useShownValue(settingKey);
  const liveNow = useCanChangeLive(settingKey);
  disabled = disabled && !liveNow;
  const preset = usePlayground((s) => s.config.preset);
  const setSetting = useSetOrChange(settingKey);
  // What the field starts at: the preset's value, and for actors this browser's rule (the store's).
  const presetDefault = useMemo(() => (settingKey === 'actors' ? browserPresetActors(preset) : resolveExperiment(preset).settings[settingKey]), [preset, settingKey]);
  // What is typed, and what is wrong with it, while it differs from the setting's value; a new
  // value (another preset, a link) drops it.
  const [edit, setEdit] = useState<{ text: string; problem: string | null; base: unknown } | null>(null);
  const current = edit && edit.base === value ? edit : null;
  const text = current?.text ?? String(value);
  const problem = current?.problem ?? null;
  const setProblem = (p: string | null, typed = text) => setEdit(p === null ? null : { text: typed, problem: p, base: value });
  const setText = (typed: string) => setEdit({ text: typed, problem, base: value });
  const id = `setting-${settingKey}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const commit = (v: string | number | boolean) => {
    if (typeof v === 'string' && (setting.kind === 'int' || setting.kind === 'number')) {
      const bad = settingProblem(setting, v);
      if (bad) return setProblem(bad, v);
      v = Number(v);
    }
    setProblem(null);
    if (v === value) return;
    try {
      setSetting(v);
    } catch (err) {
      // The config's own check: said in words with the label, never the internal key.
      const detail = err instanceof Error ? err.message.replace(/^[\w.]+: /, '') : String(err);
      setProblem(`${setting.label}: ${detail}`, String(v));
    }
  };
  const describedBy = problem ? `${helpId} ${errorId}` : helpId;
  return (
    <div className={`field field-${setting.kind}`} data-setting={settingKey}>
      <label htmlFor={id}>{setting.label}</label>
      {liveNow && (
        <span className="live-badge" title="Can change while it trains: applied at the next update">
          {' '}live
        </span>
      )}
      {setting.kind === 'enum' ? (
        <select id={id} value={String(value)} disabled={disabled} aria-describedby={describedBy} onChange={(e) => commit(e.target.value)}>
          {(options ?? setting.options).map((o) => (
            <option key={o} value={o}>
              {optionText(settingKey, o)}
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
        {setting.help} {shownDefault(setting, presetDefault, settingKey === 'actors' && !presetActorsAreLight(preset) ? 'one per spare core, at most 4' : undefined, (o) => optionText(settingKey, o))}
      </small>
    </div>
  );
}
