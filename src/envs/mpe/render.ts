/**
 * A drawing description of an MPE world (plain data, no DOM), after PettingZoo's SimpleEnv.draw:
 * circles of radius `size` at `pos` (world units; the camera spans ±`camRange`), colours in
 * [0, 1] (PettingZoo paints colour × 200 out of 255), and one line "<agent> sends <word>" per
 * agent that can speak: "_" while silent (all zeros), the symbol letter A, B, C… (argmax) for
 * discrete messages, the values for continuous ones.
 */
import type { Entity, World } from './core';

export interface MpeRenderEntity {
  name: string;
  kind: 'agent' | 'landmark';
  /** 'adversary' / 'good' (simple_tag), 'speaker' / 'listener', or 'agent' / 'landmark'. */
  role: string;
  x: number;
  y: number;
  vx: number;
  vy: number;
  size: number;
  color: [number, number, number];
  /** speaker_listener: the landmark the listener must reach. */
  isGoal: boolean;
}

export interface MpeMessage {
  from: string;
  /** The word PettingZoo prints: '_', a letter, or '[0.12,0.80,0.00]'. */
  word: string;
  values: number[];
}

export interface MpeRenderFrame {
  envId: string;
  step: number;
  maxCycles: number;
  /** max |coordinate| over all entities (PettingZoo's cam_range). */
  camRange: number;
  entities: MpeRenderEntity[];
  messages: MpeMessage[];
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function messageWord(comm: ArrayLike<number>, continuous: boolean): string {
  let allZero = true;
  let best = 0;
  for (let i = 0; i < comm.length; i++) {
    if (comm[i] !== 0) allZero = false;
    if (comm[i] > comm[best]) best = i;
  }
  if (allZero) return '_';
  if (continuous) return `[${Array.from(comm, (c) => c.toFixed(2)).join(',')}]`;
  return ALPHABET[best] ?? String(best);
}

export function describeWorld(world: World, envId: string, step: number, maxCycles: number, continuous: boolean): MpeRenderFrame {
  const goals = new Set(world.agents.map((a) => a.goalB).filter((g) => g !== null));
  let camRange = 0;
  const describe = (e: Entity, kind: 'agent' | 'landmark', role: string): MpeRenderEntity => {
    camRange = Math.max(camRange, Math.abs(e.pos[0]), Math.abs(e.pos[1]));
    return {
      name: e.name,
      kind,
      role,
      x: e.pos[0],
      y: e.pos[1],
      vx: e.vel[0],
      vy: e.vel[1],
      size: e.size,
      color: [e.color[0], e.color[1], e.color[2]],
      isGoal: goals.has(e),
    };
  };
  const entities = [
    ...world.agents.map((a) => describe(a, 'agent', a.role)),
    ...world.landmarks.map((l) => describe(l, 'landmark', 'landmark')),
  ];
  const messages: MpeMessage[] = world.agents
    .filter((a) => !a.silent)
    .map((a) => ({ from: a.name, word: messageWord(a.comm, continuous), values: Array.from(a.comm) }));
  return { envId, step, maxCycles, camRange, entities, messages };
}
