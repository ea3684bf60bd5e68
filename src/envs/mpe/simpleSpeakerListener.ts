/**
 * simple_speaker_listener_v4 (PettingZoo scenarios/simple_speaker_listener.py): a fixed speaker
 * ("speaker_0", not movable, says one of dim_c = 3 symbols) sees the colour of the goal landmark;
 * a silent listener ("listener_0") moves and hears the speaker. Neither collides.
 *
 * Reward (shared): r = −‖p_listener − p_goal‖²
 * Observations: speaker [goal colour (3)]; listener [v, (p_l − p) per landmark (3 × 2), speaker's c (3)] = 11.
 */
import type { Rng } from '../../core/rng';
import { Agent, Landmark, World, distance, type Entity, type Rgb } from './core';
import type { MetricSpec, Scenario } from './scenario';

export const SPEAKER_LISTENER = {
  id: 'simple_speaker_listener_v4',
  dimC: 3,
  numLandmarks: 3,
  agentSize: 0.075,
  landmarkSize: 0.04,
  agentColor: [0.25, 0.25, 0.25] as const,
  landmarkColors: [
    [0.65, 0.15, 0.15],
    [0.15, 0.65, 0.15],
    [0.15, 0.15, 0.65],
  ] as const,
  /** Added to the goal landmark's colour to colour the listener. */
  goalTint: 0.45,
} as const;

export class SimpleSpeakerListenerScenario implements Scenario {
  readonly id = SPEAKER_LISTENER.id;
  readonly metrics: readonly MetricSpec[] = [{ name: 'goalDistance', aggregate: 'last' }];

  makeWorld(): World {
    const agents: Agent[] = [];
    for (let i = 0; i < 2; i++) {
      const a = new Agent(SPEAKER_LISTENER.dimC);
      a.name = i === 0 ? 'speaker_0' : 'listener_0';
      a.role = i === 0 ? 'speaker' : 'listener';
      a.collide = false;
      a.size = SPEAKER_LISTENER.agentSize;
      agents.push(a);
    }
    agents[0].movable = false;
    agents[1].silent = true;
    const landmarks: Landmark[] = [];
    for (let i = 0; i < SPEAKER_LISTENER.numLandmarks; i++) {
      const l = new Landmark();
      l.name = `landmark ${i}`;
      l.collide = false;
      l.movable = false;
      l.size = SPEAKER_LISTENER.landmarkSize;
      landmarks.push(l);
    }
    return new World(SPEAKER_LISTENER.dimC, agents, landmarks);
  }

  resetWorld(world: World, rng: Rng): void {
    const [speaker, listener] = world.agents;
    for (const a of world.agents) {
      a.goalA = null;
      a.goalB = null;
    }
    speaker.goalA = listener;
    speaker.goalB = world.landmarks[rng.int(world.landmarks.length)]; // np_random.choice
    for (const a of world.agents) a.color = SPEAKER_LISTENER.agentColor;
    world.landmarks.forEach((l, i) => (l.color = SPEAKER_LISTENER.landmarkColors[i % SPEAKER_LISTENER.landmarkColors.length]));
    const g = speaker.goalB.color;
    const t = SPEAKER_LISTENER.goalTint;
    listener.color = [g[0] + t, g[1] + t, g[2] + t] satisfies Rgb;
    for (const a of world.agents) {
      a.pos[0] = rng.uniformRange(-1, 1);
      a.pos[1] = rng.uniformRange(-1, 1);
      a.vel.fill(0);
      a.comm.fill(0);
    }
    for (const l of world.landmarks) {
      l.pos[0] = rng.uniformRange(-1, 1);
      l.pos[1] = rng.uniformRange(-1, 1);
      l.vel.fill(0);
    }
  }

  reward(_agent: Agent, world: World): number {
    const [a, b] = goal(world);
    const dx = a.pos[0] - b.pos[0];
    const dy = a.pos[1] - b.pos[1];
    return -(dx * dx + dy * dy);
  }

  observation(agent: Agent, world: World, out: Float32Array, offset: number): number {
    let k = offset;
    if (!agent.movable) {
      const color = agent.goalB ? agent.goalB.color : [0, 0, 0];
      for (let c = 0; c < world.dimColor; c++) out[k++] = color[c];
      return k - offset;
    }
    out[k++] = agent.vel[0];
    out[k++] = agent.vel[1];
    for (const l of world.landmarks) {
      out[k++] = l.pos[0] - agent.pos[0];
      out[k++] = l.pos[1] - agent.pos[1];
    }
    for (const o of world.agents) {
      if (o === agent) continue;
      for (let c = 0; c < o.comm.length; c++) out[k++] = o.comm[c];
    }
    return k - offset;
  }

  measure(world: World, out: Float64Array): void {
    out[0] = goalDistance(world);
  }
}

function goal(world: World): [Entity, Entity] {
  const speaker = world.agents[0];
  if (!speaker.goalA || !speaker.goalB) throw new Error('simple_speaker_listener: world not reset');
  return [speaker.goalA, speaker.goalB];
}

function goalDistance(world: World): number {
  const [a, b] = goal(world);
  return distance(a, b);
}
