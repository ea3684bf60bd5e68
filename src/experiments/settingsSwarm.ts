/**
 * Settings of the agent swarm (Kimi K2.5's PARL): the task, the subagents, the orchestrator's
 * limits, the PARL reward and the λ annealing schedules. Keys start with `swarm.`.
 */
import type { Setting } from './settingKinds';

export const SWARM_SETTINGS = {} as const satisfies Record<string, Setting>;
