import { useEffect, useRef, type RefObject } from 'react';
import type { DemoRecord } from '../../runs/records';
import { usePlayground } from '../store';

/**
 * The newest demo episode of `envId`, in a ref: a view's animation loop reads it from there, so a
 * new record never restarts the loop (the episode on screen plays to its end first).
 */
export function useNewestDemo(envId: string): RefObject<DemoRecord | null> {
  const demo = usePlayground((s) => (s.demo && s.demo.envId === envId ? s.demo : null));
  const newest = useRef<DemoRecord | null>(demo);
  useEffect(() => {
    newest.current = demo;
  }, [demo]);
  return newest;
}
