/**
 * SwarmActor: owns the decomposition episodes of one actor (one DecompositionSim per episode)
 * and runs no network. Inference is central (SEED style): every tick it reports the observation
 * of each episode waiting for a decision (every running episode waits: one decision per tick),
 * and the learner answers all rows of all actors with ONE forward pass (src/swarm/swarmRollouts.ts).
 *
 * A finished episode returns its outcome (plain data, stages left out). An episode that reaches
 * `maxDecisions` is ended by rule (the pending plan is launched, then finish): a cap on the
 * orchestrator's tool calls, so an untrained policy cannot plan forever.
 *
 * Everything the actor needs is plain data (the skill source is a table), so it can run in a worker.
 */
import { deriveSeed } from '../core/rng';
import { DecompositionSim, type DecompositionOptions, type DecompositionOutcome } from '../envs/swarm/decomposition';
import { skillTable, type SkillTable } from '../envs/swarm/decompositionSkills';
import { drawTaskSkills, LATENT_KINDS } from '../envs/swarm/skillPrior';
import { generateDecomposition, type DecompositionConfig } from '../envs/swarm/decompositionTask';
import { DecisionLedger, type DecisionCreditParts } from './decisionCredit';
import { SP_OBS_DIM, applySetAction, decodeSetAction, encodeSetObservation } from './setActions';

export interface SwarmTaskSpec {
  task: DecompositionConfig;
  /** Rules; the skill source comes from `skills` (a table), the kinds from `subagentKinds`. */
  rules: Omit<DecompositionOptions, 'skills'>;
  /** Skill table of every agent kind (default: DEFAULT_SKILL_TABLE). */
  skills?: SkillTable;
  /**
   * Latent skills: each task draws its own table from the prior (src/envs/swarm/skillPrior.ts), with
   * the task's seed, and the orchestrator sees only what the task shows of it (`skills` is ignored).
   */
  latentSkills?: boolean;
  /** Cap on one episode's decisions. */
  maxDecisions: number;
  /**
   * Training episodes that play the SAME task (default 1): slots s of an update play task
   * floor(s / episodesPerTask), so the learner can compare runs of one task (the group baseline in
   * swarmLearner.ts). Evaluation seeds are given explicitly and ignore it.
   */
  episodesPerTask?: number;
  /** Record what each decision produced (decisionCredit.ts) for the learner's per-decision credit (default off). */
  recordCredit?: boolean;
}

/** The task seed of an episode: a pure function of the run seed, the update, the actor and the slot. */
export function swarmEpisodeSeed(seed: number, update: number, actorIndex: number, slot: number): number {
  return deriveSeed(seed, 0xd2, update, actorIndex, slot);
}

/** The sim options of the spec's rules for task `taskSeed` (with latent skills, that task's own table). */
export function swarmSimOptions(spec: SwarmTaskSpec, taskSeed: number): DecompositionOptions {
  if (spec.latentSkills) return { ...spec.rules, skills: skillTable(drawTaskSkills(taskSeed, LATENT_KINDS)), subagentKinds: LATENT_KINDS, skillsHidden: true };
  return { ...spec.rules, ...(spec.skills ? { skills: skillTable(spec.skills) } : {}) };
}

/** A sim of the spec's rules on task `taskSeed` (throws a DecompositionError for bad rules). */
export function makeSwarmSim(spec: SwarmTaskSpec, taskSeed: number): DecompositionSim {
  return new DecompositionSim(generateDecomposition(spec.task, taskSeed), swarmSimOptions(spec, taskSeed));
}

export type SwarmEpisodeOutcome = Omit<DecompositionOutcome, 'stages'> & {
  /** Subagents per launch stage. */
  launches: number[];
  decisions: number;
  taskSeed: number;
  /** Ended by the decision cap. */
  capped: boolean;
};

export function summariseOutcome(o: DecompositionOutcome, decisions: number, taskSeed: number, capped: boolean): SwarmEpisodeOutcome {
  const { stages, ...rest } = o;
  return { ...rest, launches: stages.filter((s) => s.kind === 'launch').map((s) => s.subagents.length), decisions, taskSeed, capped };
}

export interface SwarmPending {
  actorIndex: number;
  /** [n · SP_OBS_DIM] */
  obs: Float32Array;
  /** [n] episode slot of each row. */
  slots: Int32Array;
  /** `credit`: what each decision produced (decisionCredit.ts), when the spec asks for it. */
  finished: Array<{ slot: number; outcome: SwarmEpisodeOutcome; credit?: DecisionCreditParts }>;
  running: number;
}

interface Episode {
  slot: number;
  seed: number;
  sim: DecompositionSim;
  candidates: number[];
  decisions: number;
  ledger: DecisionLedger | null;
}

export class SwarmActor {
  static readonly actorKey = 'SwarmActor';
  private episodes: Episode[] = [];

  constructor(private readonly options: { spec: SwarmTaskSpec; actorIndex: number; seed: number }) {}

  /** Start `episodes` episodes of update `update` (task seeds from swarmEpisodeSeed, or `taskSeeds` when given). */
  start(update: number, episodes: number, taskSeeds: number[] | null = null): SwarmPending {
    const { spec, actorIndex, seed } = this.options;
    this.episodes = Array.from({ length: episodes }, (_, slot) => {
      const s = taskSeeds ? taskSeeds[slot] : swarmEpisodeSeed(seed, update, actorIndex, Math.floor(slot / (spec.episodesPerTask ?? 1)));
      const sim = makeSwarmSim(spec, s);
      return { slot, seed: s, sim, candidates: [], decisions: 0, ledger: spec.recordCredit ? new DecisionLedger(sim) : null };
    });
    return this.pending([]);
  }

  /** One action per row of the last pending, in its order. */
  advance(actions: Int32Array): SwarmPending {
    const running = this.episodes.filter((e) => !e.sim.finished);
    if (actions.length !== running.length) throw new Error(`SwarmActor ${this.options.actorIndex}: ${actions.length} actions for ${running.length} waiting episodes`);
    const finished: SwarmPending['finished'] = [];
    running.forEach((e, r) => {
      const t = e.decisions;
      e.ledger?.before(decodeSetAction(actions[r]));
      const stage = applySetAction(e.sim, e.candidates, actions[r]);
      if (stage) e.ledger?.stage(stage, t);
      e.decisions += 1;
      let capped = false;
      if (!e.sim.finished && e.decisions >= this.options.spec.maxDecisions) {
        capped = true;
        if (e.sim.canLaunch()) {
          const launched = e.sim.launch();
          e.ledger?.stage(launched, -1);
        }
        if (!e.sim.finished) e.sim.finish();
      }
      if (e.sim.finished) {
        const outcome = summariseOutcome(e.sim.outcome(), e.decisions, e.seed, capped);
        finished.push(e.ledger ? { slot: e.slot, outcome, credit: e.ledger.parts() } : { slot: e.slot, outcome });
      }
    });
    return this.pending(finished);
  }

  private pending(finished: SwarmPending['finished']): SwarmPending {
    const running = this.episodes.filter((e) => !e.sim.finished);
    const obs = new Float32Array(running.length * SP_OBS_DIM);
    running.forEach((e, r) => (e.candidates = encodeSetObservation(e.sim, obs, r * SP_OBS_DIM)));
    return { actorIndex: this.options.actorIndex, obs, slots: Int32Array.from(running, (e) => e.slot), finished, running: running.length };
  }
}
