/** Swarm tasks for PARL: the item problem, the two tasks, drivers and the orchestration simulator. */
export * from './types';
export * from './itemSearch';
export * from './drivers';
export * from './wideSearch';
export * from './taskGraph';
export * from './orchestration';
