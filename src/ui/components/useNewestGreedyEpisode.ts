import { useEffect, useRef, type RefObject } from 'react';
import type { GreedyEpisodeRecord } from '../../runs/records';
import { usePlayground } from '../store';

/**
 * The newest greedy episode of `envId`, in a ref: a view's animation loop reads it from there, so a
 * new record never restarts the loop (the episode on screen plays to its end first).
 */
export function useNewestGreedyEpisode(envId: string): RefObject<GreedyEpisodeRecord | null> {
  const episode = usePlayground((s) => (s.greedyEpisode && s.greedyEpisode.envId === envId ? s.greedyEpisode : null));
  const newest = useRef<GreedyEpisodeRecord | null>(episode);
  useEffect(() => {
    newest.current = episode;
  }, [episode]);
  return newest;
}
