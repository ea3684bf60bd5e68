/**
 * What a return means in a multi-agent world: the return of a uniformly random team and of a
 * scripted reference team (src/envs/mpe/spreadScripted.ts) on the same episodes, drawn beside the
 * return chart so that a curve can be read against them. Both come from `npm run bench -- marl
 * --eval-episodes 100` (the evaluation starts of seeds 1–5, 100 episodes each; BENCHMARKS.md, "marl").
 */
import type { ExperimentSettings } from './settings';
import { descriptorOf } from './registry';

export interface ReturnScale {
  /** Mean team return of uniformly random actions. */
  random: number;
  /** Mean team return of the scripted reference. */
  scripted: number;
  /** What the scripted reference does, in a few words. */
  scriptedLabel: string;
}

export const SPREAD_SCALE: ReturnScale = { random: -79.1, scripted: -24.0, scriptedLabel: 'scripted' };

/**
 * The family's target on simple_spread: a mean return of the last 20 training episodes 19 above
 * random's, 35 % of the way from random (−79.1) to the scripted reference (−24.0); standing still
 * scores −72.5.
 */
export const SPREAD_TARGET = -60;

const MARL_SCALES: Readonly<Record<string, ReturnScale>> = { simple_spread_v3: SPREAD_SCALE };

/** The scale of the run's world, or null (single-agent families, worlds without one). */
export function returnScaleOf(settings: Pick<ExperimentSettings, 'algorithm' | 'marl.env'>): ReturnScale | null {
  if (descriptorOf(settings.algorithm).family !== 'marl') return null;
  return MARL_SCALES[settings['marl.env']] ?? null;
}
