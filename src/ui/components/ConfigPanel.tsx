import { useState } from 'react';
import { ALGORITHMS, SETTINGS, SETTING_KEYS, type Setting, type SettingKey } from '../../config/settings';
import { usePlayground } from '../store';
import { LambdaEditor, lambdaEditorKeys } from './LambdaEditor';
import { SettingField } from './SettingField';

const GROUP_TITLES: Record<string, string> = {
  run: 'Run',
  env: 'Environment',
  parallel: 'Actors and inference',
  model: 'Network',
};
const GROUP_ORDER = ['run', 'env', 'parallel', 'model'];

/**
 * A setting belongs to another algorithm when the settings table says which algorithms it applies
 * to, or when its group or key prefix names an algorithm that is not chosen.
 */
function relevant(key: SettingKey, algorithm: string): boolean {
  const setting = SETTINGS[key] as Setting;
  if (setting.appliesTo && !setting.appliesTo.includes(algorithm)) return false;
  const prefix = key.includes('.') ? key.slice(0, key.indexOf('.')) : '';
  const algos = ALGORITHMS as readonly string[];
  const isSwarmAlgo = algorithm.startsWith('swarm');
  for (const tag of [setting.group, prefix]) {
    if (algos.includes(tag) && tag !== algorithm) return false;
    if (tag.startsWith('swarm') && !isSwarmAlgo) return false;
  }
  return true;
}

export function groupedSettings(algorithm: string, hidden: readonly string[]): [string, SettingKey[]][] {
  const skip = new Set<string>([...hidden, ...lambdaEditorKeys()]);
  const groups = new Map<string, SettingKey[]>();
  for (const key of SETTING_KEYS) {
    if (skip.has(key) || !relevant(key, algorithm)) continue;
    const g = (SETTINGS[key] as Setting).group;
    groups.set(g, [...(groups.get(g) ?? []), key]);
  }
  const rank = (g: string) => (GROUP_ORDER.includes(g) ? GROUP_ORDER.indexOf(g) : g === algorithm ? GROUP_ORDER.length : GROUP_ORDER.length + 1);
  return [...groups.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}

export function ConfigPanel() {
  const algorithm = usePlayground((s) => s.config.settings.algorithm);
  const status = usePlayground((s) => s.status);
  const hidden = usePlayground((s) => s.view.hide);
  const backend = usePlayground((s) => s.backend);
  const locked = !['idle', 'done', 'error'].includes(status);
  // On a phone the groups start folded, so the run controls are not a long scroll away.
  const [compact] = useState(() => window.matchMedia('(max-width: 820px)').matches);
  const backendNote = (option: string) => {
    const attempt = backend?.attempts.find((a) => a.name === option);
    if (option === 'auto') return backend ? ` (→ ${backend.name})` : '';
    return attempt ? (attempt.ok ? ' ✓ supported' : ' ✗ not here') : '';
  };

  return (
    <form className="config" onSubmit={(e) => e.preventDefault()} aria-label="Settings">
      {groupedSettings(algorithm, hidden).map(([group, keys]) => (
        <details key={group} className="group" open={!compact && group !== 'model'}>
          <summary>{GROUP_TITLES[group] ?? `${group.toUpperCase()} hyperparameters`}</summary>
          <div className="group-fields">
            {keys.map((key) => (
              <SettingField key={key} settingKey={key} disabled={locked} optionNote={key === 'backend' ? backendNote : undefined} />
            ))}
          </div>
        </details>
      ))}
      {algorithm.startsWith('swarm') && <LambdaEditor disabled={locked} />}
      {locked && <p className="help">Settings are locked while a run is in progress.</p>}
    </form>
  );
}
