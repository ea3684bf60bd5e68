import { useState } from 'react';
import { SETTINGS, SETTING_KEYS, type ExperimentSettings, type Setting, type SettingKey } from '../../config/settings';
import { isSwarm } from '../../config/watchable';
import { envIdsFor } from '../../config/actionSpace';
import { descriptorOf } from '../../config/registry';
import { hasTargetReturn, TARGET_KEYS } from '../../config/targetReturn';
import { usePlayground } from '../store';
import { LambdaEditor, lambdaEditorKeys } from './LambdaEditor';
import { SettingField } from './SettingField';
import { LiveChangesList } from './LiveChangesList';

const GROUP_TITLES: Record<string, string> = {
  run: 'Run',
  env: 'Environment',
  parallel: 'Actors and inference',
  model: 'Network',
};
const GROUP_ORDER = ['run', 'env', 'parallel', 'model'];

/** The settings table says which algorithms each setting applies to (from the descriptors). */
function relevant(key: SettingKey, algorithm: string): boolean {
  const setting = SETTINGS[key] as Setting;
  return !setting.appliesTo || setting.appliesTo.includes(algorithm);
}

export function groupedSettings(settings: Pick<ExperimentSettings, 'algorithm' | 'marl.env'>, hidden: readonly string[]): [string, SettingKey[]][] {
  const algorithm = settings.algorithm;
  const skip = new Set<string>([...hidden, ...(isSwarm(algorithm) ? lambdaEditorKeys(algorithm) : []), ...(hasTargetReturn(settings) ? [] : TARGET_KEYS)]);
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
  const world = usePlayground((s) => s.config.settings['marl.env']);
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
      {groupedSettings({ algorithm, 'marl.env': world }, hidden).map(([group, keys]) => (
        <details key={group} className="group" open={!compact && group !== 'model'}>
          <summary>{GROUP_TITLES[group] ?? `${group.toUpperCase()} hyperparameters`}</summary>
          <div className="group-fields">
            {keys.map((key) => (
              <SettingField
                key={key}
                settingKey={key}
                disabled={locked}
                optionNote={key === 'backend' ? backendNote : undefined}
                options={key === 'env.id' ? envIdsFor(descriptorOf(algorithm)) : undefined}
              />
            ))}
          </div>
        </details>
      ))}
      {isSwarm(algorithm) && <LambdaEditor disabled={locked} />}
      {locked && <p className="help">While a run trains only the settings marked live can change; they apply at its next update and are marked on the charts. The rest are fixed until it ends.</p>}
      <LiveChangesList />
    </form>
  );
}
