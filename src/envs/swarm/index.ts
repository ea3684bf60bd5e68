/** Swarm tasks for PARL: the item problem the frozen subagents were trained on, and its drivers. */
export * from './types';
export * from './itemSearch';
export * from './drivers';
