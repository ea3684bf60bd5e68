/**
 * A look at the values the agent learns beside its policy, for the "Inside the agent" panel:
 *   - Box-action actor-critics (DDPG, TD3, SAC, CQL): each critic's Q(s, a) on a few probe states
 *     as the action sweeps its range, and the action the actor takes there;
 *   - multi-agent learners on the first state of an episode (a fixed reset): QMIX, VDN and IQL
 *     each agent's Q(o, u) from a zero hidden state (exactly the first step's values) and the
 *     team's Q_tot of the greedy joint action (QMIX's mixer, VDN's sum); MADDPG each agent's
 *     action probabilities and its centralised critic's Q_i(x, u_1 … u_N) as the agent's own
 *     action varies, the others held at their most likely ones.
 * Computed with the learner's own models (one small batch each), so they are what it trains.
 */
import * as tf from '@tensorflow/tfjs';
import type { MarlTaskSpec } from '../algorithms/marl';
import { agentInputDim, sharedActorInputDim, writeAgentInputs, writeSharedActorInput, type MarlActingSpec } from '../algorithms/marl';
import { DeterministicActor, GsdeActor, QCritic, SquashedGaussianActor } from '../core/continuousMlp';
import { QmixMixer } from '../core/qmixMixer';
import { deriveSeed } from '../core/rng';
import { RnnAgent } from '../core/rnnAgent';
import { makeMpeEnv } from '../envs/mpe';
import type { AgentValues, CriticCurveSnapshot, TeamSnapshot } from '../runs/records';
import { CONTINUOUS_VIEWS, type NetworkProbe } from './inspect';

/** Points on the swept action range. */
export const ACTION_POINTS = 41;

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The states the critics' curves are drawn for. Pendulum: hanging at rest, where either push starts
 * the swing, so the true Q is the same for a torque and its opposite; and a little off upright
 * either way (θ = ±0.3 rad, at rest), where gravity pulls it further over and a push back (a torque
 * of the opposite sign) is what keeps it up: the two curves mirror each other.
 */
export const CRITIC_PROBES: Readonly<Record<string, readonly { label: string; state: number[] }[]>> = {
  'Pendulum-v1': [
    { label: 'hanging straight down, at rest', state: [-1, 0, 0] },
    { label: 'just off upright (θ = +0.3), at rest', state: [round(Math.cos(0.3)), round(Math.sin(0.3)), 0] },
    { label: 'just off upright (θ = −0.3), at rest', state: [round(Math.cos(0.3)), round(-Math.sin(0.3)), 0] },
  ],
  'MountainCarContinuous-v0': [{ label: 'at rest in the valley', state: [-0.5, 0] }],
};

type BoxActor = DeterministicActor | SquashedGaussianActor | GsdeActor;

const isBoxActor = (m: unknown): m is BoxActor => m instanceof DeterministicActor || m instanceof SquashedGaussianActor || m instanceof GsdeActor;

function own(o: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

/** The critics an actor-critic trains, by name: TD3, SAC and CQL their twins, DDPG its one; empty for others. */
export function criticsOf(algorithm: object): { name: string; critic: QCritic }[] {
  const c1 = own(algorithm, 'critic1');
  const c2 = own(algorithm, 'critic2');
  if (c1 instanceof QCritic && c2 instanceof QCritic) {
    return [
      { name: 'Q1', critic: c1 },
      { name: 'Q2', critic: c2 },
    ];
  }
  const c = own(algorithm, 'critic');
  return c instanceof QCritic ? [{ name: 'Q', critic: c }] : [];
}

/** The actor's action on `obs` [1, obsDim] without exploration, in env units [1, A] (call inside tf.tidy). */
function actorAction(actor: BoxActor, obs: tf.Tensor2D): tf.Tensor2D {
  if (actor instanceof DeterministicActor) return actor.forward(obs).action;
  return actor.toEnvAction(tf.tanh(actor.forward(obs).mean));
}

/**
 * Each critic's Q on the env's probe states (or the zero state, for an env without them) over the
 * first action dimension's range, the others at the actor's action; empty without a Box actor and a Q critic.
 */
export async function criticCurves(algorithm: { model: unknown }, envId: string, points = ACTION_POINTS): Promise<CriticCurveSnapshot[]> {
  const actor = algorithm.model;
  const critics = criticsOf(algorithm);
  if (!isBoxActor(actor) || critics.length === 0) return [];
  const { obsDim, actionDim } = actor.spec;
  const view = CONTINUOUS_VIEWS[envId] as (typeof CONTINUOUS_VIEWS)[string] | undefined;
  const probes = CRITIC_PROBES[envId] as (typeof CRITIC_PROBES)[string] | undefined;
  const fits = view !== undefined && probes !== undefined && view.obsNames.length === obsDim && view.actionNames.length === actionDim;
  const named = fits ? probes : [{ label: 'all observations 0', state: new Array<number>(obsDim).fill(0) }];
  const out: CriticCurveSnapshot[] = [];
  for (const probe of named) {
    const curve = await criticCurveAt(actor, critics, probe.state, points);
    out.push({
      ...curve,
      stateNames: fits ? [...view.obsNames] : probe.state.map((_, i) => `obs ${i}`),
      stateLabel: probe.label,
      actionName: fits ? view.actionNames[0] : 'action 0',
    });
  }
  return out;
}

async function criticCurveAt(actor: BoxActor, critics: { name: string; critic: QCritic }[], state: number[], points: number): Promise<Omit<CriticCurveSnapshot, 'stateNames' | 'stateLabel' | 'actionName'>> {
  const { obsDim, actionDim, actionLow, actionHigh } = actor.spec;
  const [low, high] = [actionLow[0], actionHigh[0]];
  const actions = Array.from({ length: points }, (_, k) => low + ((high - low) * k) / (points - 1));
  const out = tf.tidy(() => {
    const s = tf.tensor2d(state, [1, obsDim]);
    const chosen = actorAction(actor, s);
    const rest = tf.tile(chosen, [points, 1]);
    const swept = actionDim === 1 ? tf.tensor2d(actions, [points, 1]) : tf.concat([tf.tensor2d(actions, [points, 1]), tf.slice(rest, [0, 1], [points, actionDim - 1])], 1);
    const states = tf.tile(s, [points, 1]);
    return { chosen, curves: critics.map(({ critic }) => critic.qValue(states, swept)), atChosen: critics.map(({ critic }) => critic.qValue(s, chosen)) };
  });
  try {
    const chosen = await out.chosen.data();
    const curves = await Promise.all(out.curves.map((t) => t.data()));
    const atChosen = await Promise.all(out.atChosen.map((t) => t.data()));
    return {
      state: [...state],
      actions: actions.map(round),
      critics: critics.map(({ name }, k) => ({ name, q: Array.from(curves[k], round) })),
      actorAction: round(chosen[0]),
      actorQ: atChosen.map((q) => round(q[0])),
    };
  } finally {
    tf.dispose([out.chosen, ...out.curves, ...out.atChosen]);
  }
}

const MOVES = ['stay', 'left', 'right', 'down', 'up'];

/** An MPE agent's actions in words: the five moves of a movable, silent agent, else numbered. */
export function mpeActionNames(size: number): string[] {
  return size === MOVES.length ? [...MOVES] : Array.from({ length: size }, (_, i) => `action ${i}`);
}

/** The probe: the first state of an episode from a reset with a fixed seed (the same for every update). */
export function probeState(task: MarlTaskSpec, seed: number): Float32Array {
  const state = new Float32Array(task.stateDim);
  makeMpeEnv(task.envId, { seed: deriveSeed(seed, 0x1a5e) }).resetInto(state, 0);
  return state;
}

const PROBE_LABEL = 'the first step of an episode (the same reset every time)';

/** What each number of a simple_spread observation is (src/envs/mpe/simpleSpread.ts writes them in this order). */
function spreadObservationNames(agents: number, commDim: number): string[] {
  const others = Array.from({ length: agents - 1 }, (_, i) => i + 1);
  return [
    'own velocity x', 'own velocity y', 'own position x', 'own position y',
    ...Array.from({ length: agents }, (_, l) => [`landmark ${l + 1} dx`, `landmark ${l + 1} dy`]).flat(),
    ...others.map((o) => [`other agent ${o} dx`, `other agent ${o} dy`]).flat(),
    ...others.map((o) => Array.from({ length: commDim }, (_, c) => `other agent ${o} says ${c + 1}`)).flat(),
  ];
}

/** Names of agent `a`'s observation: simple_spread's by meaning where they fit, else numbered. */
function observationNames(task: MarlTaskSpec, a: number): string[] {
  const n = task.obsDims[a];
  const agents = task.agents.length;
  const spread = task.envId.startsWith('simple_spread') ? spreadObservationNames(agents, (n - 4 - 2 * agents - 2 * (agents - 1)) / (agents - 1)) : null;
  return spread && spread.length === n ? spread : Array.from({ length: n }, (_, i) => `obs ${i}`);
}

/**
 * The probe drawn in a shared actor's network (MAPPO): agent 1's input row on the probe state, its
 * own observation and its one-hot id, as the actor sees it when it acts; null for other actors.
 */
export function sharedActorProbe(task: MarlTaskSpec, acting: MarlActingSpec, state: Float32Array): NetworkProbe | null {
  if (acting.kind !== 'mlpShared') return null;
  const row = new Float32Array(sharedActorInputDim(task, acting.agentId));
  writeSharedActorInput(task, acting.agentId, state, 0, 0, row, 0);
  const own = observationNames(task, 0);
  const padding = Array.from({ length: Math.max(...task.obsDims) - own.length }, (_, i) => `padding ${i + 1}`);
  const ids = acting.agentId ? task.agents.map((_, i) => `is agent ${i + 1}`) : [];
  return {
    input: Array.from(row, (x) => Math.round(x * 1e4) / 1e4),
    inputNames: [...own, ...padding, ...ids],
    outputNames: mpeActionNames(Math.max(...task.actionSizes)).map((m) => `${m} (logit)`),
    stateLabel: `agent 1 at ${PROBE_LABEL}`,
  };
}

function argmax(xs: ArrayLike<number>, n: number): number {
  let best = 0;
  for (let i = 1; i < n; i++) if (xs[i] > xs[best]) best = i;
  return best;
}

/** The structural parts of QMIX / VDN / IQL the probe reads (their module is loaded lazily, so no instanceof). */
interface QLearnerParts {
  task: MarlTaskSpec;
  model: RnnAgent;
  mixer: { kind: 'qmix' | 'vdn' | 'none'; online: QmixMixer | null };
}

/** The structural parts of MADDPG the probe reads. */
interface MaddpgParts {
  task: MarlTaskSpec;
  model: { agentLogits(i: number, x: tf.Tensor2D): tf.Tensor2D };
  critics: { value(i: number, x: tf.Tensor2D, joint: tf.Tensor2D): tf.Tensor1D };
}

function isQLearner(a: object): a is QLearnerParts {
  const mixer = own(a, 'mixer');
  if (typeof mixer !== 'object' || mixer === null) return false;
  const kind = own(mixer, 'kind');
  const online = own(mixer, 'online');
  return own(a, 'model') instanceof RnnAgent && (kind === 'qmix' || kind === 'vdn' || kind === 'none') && (online === null || online instanceof QmixMixer);
}

function isMaddpg(a: object): a is MaddpgParts {
  const model: unknown = own(a, 'model');
  const critics: unknown = own(a, 'critics');
  return typeof model === 'object' && model !== null && typeof (model as { agentLogits?: unknown }).agentLogits === 'function' && typeof critics === 'object' && critics !== null && typeof (critics as { value?: unknown }).value === 'function';
}

async function qLearnerValues(alg: QLearnerParts, state: Float32Array): Promise<TeamSnapshot> {
  const { task } = alg;
  const A = task.agents.length;
  const D = agentInputDim(task);
  const inputs = new Float32Array(A * D);
  writeAgentInputs(task, state, 0, null, 0, inputs, 0);
  const qT = tf.tidy(() => alg.model.forward(tf.tensor2d(inputs, [A, D])).q);
  const width = qT.shape[1];
  const q = await qT.data();
  qT.dispose();
  const agents: AgentValues[] = task.agents.map((name, a) => {
    const n = task.actionSizes[a];
    const row = Array.from(q.subarray(a * width, a * width + n), round);
    return { name, actionNames: mpeActionNames(n), q: row, prob: null, chosen: argmax(row, n) };
  });
  const chosenQ = agents.map((g) => g.q[g.chosen]);
  let teamQ: number | null = null;
  const mixer = alg.mixer.online;
  if (alg.mixer.kind === 'vdn') teamQ = round(chosenQ.reduce((s, x) => s + x, 0));
  else if (alg.mixer.kind === 'qmix' && mixer) {
    const t = tf.tidy(() => mixer.mix(tf.tensor2d(chosenQ, [1, A]), tf.tensor2d(state, [1, task.stateDim])));
    teamQ = round((await t.data())[0]);
    t.dispose();
  }
  return { mixer: alg.mixer.kind, stateLabel: PROBE_LABEL, agents, teamQ };
}

async function maddpgValues(alg: MaddpgParts, state: Float32Array): Promise<TeamSnapshot> {
  const { task } = alg;
  const sizes = task.actionSizes;
  const offsets = sizes.map((_, i) => sizes.slice(0, i).reduce((s, n) => s + n, 0));
  const total = sizes.reduce((s, n) => s + n, 0);
  const x = tf.tensor2d(state, [1, task.stateDim]);
  try {
    const logits = await Promise.all(
      task.agents.map(async (_, i) => {
        const t = tf.tidy(() => tf.softmax(alg.model.agentLogits(i, x)));
        const p = await t.data();
        t.dispose();
        return Array.from(p);
      }),
    );
    const chosen = logits.map((p, i) => argmax(p, sizes[i]));
    const agents = await Promise.all(
      task.agents.map(async (name, i): Promise<AgentValues> => {
        // Row u: every agent at its chosen action, agent i at u.
        const joint = new Float32Array(sizes[i] * total);
        for (let u = 0; u < sizes[i]; u++) chosen.forEach((c, j) => (joint[u * total + offsets[j] + (j === i ? u : c)] = 1));
        const t = tf.tidy(() => alg.critics.value(i, tf.tile(x, [sizes[i], 1]), tf.tensor2d(joint, [sizes[i], total])));
        const q = await t.data();
        t.dispose();
        return { name, actionNames: mpeActionNames(sizes[i]), q: Array.from(q, round), prob: logits[i].map(round), chosen: chosen[i] };
      }),
    );
    return { mixer: 'maddpg', stateLabel: PROBE_LABEL, agents, teamQ: null };
  } finally {
    x.dispose();
  }
}

/** Every agent's values on the probe state, and the team's; null for a multi-agent algorithm it does not know. */
export async function teamValues(algorithm: { task: MarlTaskSpec }, state: Float32Array): Promise<TeamSnapshot | null> {
  if (isQLearner(algorithm)) return qLearnerValues(algorithm, state);
  if (isMaddpg(algorithm)) return maddpgValues(algorithm, state);
  return null;
}
