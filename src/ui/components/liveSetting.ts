/**
 * A setting field while a run trains: the settings that can change live (src/config/liveSettings.ts)
 * stay editable, show the value the run has now, and send a change to the learner instead of
 * editing the experiment; the rest stay locked.
 */
import { useContext } from 'react';
import { isLiveSetting, type LiveValue } from '../../config/liveSettings';
import type { SettingKey } from '../../config/settings';
import { SessionContext } from '../session/context';
import { isAtRest } from '../session/deps';
import { usePlayground } from '../store';

/** True while a run trains and `key` can change in it. */
export function useCanChangeLive(key: SettingKey): boolean {
  return usePlayground((s) => !isAtRest(s.status) && isLiveSetting(key, s.config.settings));
}

/** The value to show: while a run trains, the run's own (after its live changes). */
export function useShownValue(key: SettingKey): LiveValue {
  return usePlayground((s) => (!isAtRest(s.status) && key in s.liveValues ? s.liveValues[key] : s.config.settings[key]));
}

/** Edit the experiment at rest; while a run trains, ask the learner for a live change (it throws nothing). */
export function useSetOrChange(key: SettingKey): (value: LiveValue) => void {
  const session = useContext(SessionContext);
  const setSetting = usePlayground((s) => s.setSetting);
  const running = usePlayground((s) => !isAtRest(s.status));
  return (value) => {
    if (running && session) void session.changeSetting(key, value);
    else setSetting(key, value as never);
  };
}
