import { useCallback } from 'react';
import { usePlayground } from '../store';
import { useSession } from './context';

/**
 * Opens a preset. A run that has ended is cleared from the charts first (it stays in Runs), so
 * the page never shows one experiment's curves under another's settings and budget.
 */
export function useOpenPreset(): (name: string) => void {
  const { resetRun } = useSession();
  const setPreset = usePlayground((s) => s.setPreset);
  return useCallback(
    (name: string) => {
      if (usePlayground.getState().status !== 'idle') resetRun();
      setPreset(name);
    },
    [resetRun, setPreset],
  );
}
