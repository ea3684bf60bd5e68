/**
 * What a set policy sees of the decomposition task (pointer or attention heads over the candidate
 * subtasks and the subagent kinds): fixed-size, padded arrays and the masks of legal actions.
 *
 * Rows: up to DECOMP_MAX_CANDIDATES candidate subtasks (sim.candidates(), id order; padded rows are
 * zero with candidateValid 0), and one row per subagent kind (sim.subagentKinds order).
 *
 * Subtask row (DECOMP_SUBTASK_FEATURES):
 *   [0..2]  kind one-hot (lookup, search, reason)
 *   [3]     size / maxSize                  [4]  difficulty
 *   [5]     1 if in a chain                 [6]  position in chain / (maxChainLength − 1)
 *   [7]     work after it in its chain: summed size of the later links / (maxSize · maxChainLength)
 *   [8]     1 if it has an unchecked claim  [9]  that claim's confidence (0 with none)
 *   [10]    claims agreeing with it / 3 (clipped to 1)
 *   [11]    attempts / 4 (clipped)          [12] 1 if a check has refuted a claim of it
 *   [13]    planned subagents that have it / 2 (clipped)
 * Kind row (DECOMP_KIND_FEATURES), per subtask kind (lookup, search, reason), when the skill table is known:
 *   [0..2]  success at difficulty 0.5      [3..5] expected steps per unit (think + μ) / 8
 *   [6..8]  calibration
 * and when it is hidden (latent skills: only what the task has shown, skillBelief.ts):
 *   [0..2]  posterior mean success at difficulty 0.5
 *   [3..5]  checks of its claims so far, c / (c + 2)
 *   [6]     believed steps per unit (θ + μ) / 8
 *   [7]     mean reported confidence of its claims that checks found wrong (0 with none)
 *   [8]     share of its compared claims that another kind's claim agreed with (0.5 with none)
 * and in both:
 *   [9]     subagents of this kind in the plan / maxSubagentsPerStage
 *   [10]    expected steps of its newest planned subagent / subagentStepCap (0 with none)
 * Global (DECOMP_GLOBAL_FEATURES):
 *   [0] critical steps left / budget      [1] context left / context budget
 *   [2] share of subtasks with a claim    [3] share verified         [4] share blocked
 *   [5] planned subagents / maxSubagentsPerStage
 *   [6] expected steps of the slowest planned subagent / subagentStepCap
 *   [7] 1 if the plan is empty            [8] expected context of the plan's results / context left (clipped at 2)
 * Masks (1 = legal):
 *   assignNew[i·K + k]  createSubagent(kinds[k], candidates[i])
 *   join[i·K + k]       addToSubagent(newest planned subagent of kinds[k], candidates[i])
 *   direct[i], check[i]; launch; finish
 * Expected steps use the mean tool latency μ: setup + Σ size · (think + μ), with the believed think
 * (the table's when it is known).
 */
import { ORCHESTRATOR_KIND, SUBTASK_KINDS } from './decompositionSkills';
import { longestChain, type DecompositionSim } from './decomposition';
import { kindEvidence, posteriorSuccess, posteriorThink, visibleSkills, type SkillBelief } from './skillBelief';

export const DECOMP_MAX_CANDIDATES = 100;
export const DECOMP_SUBTASK_FEATURES = 14;
export const DECOMP_KIND_FEATURES = 11;
export const DECOMP_GLOBAL_FEATURES = 9;

export interface DecompositionObservation {
  /** Candidate subtask ids; row i of the subtask arrays is candidates[i]. */
  candidates: number[];
  candidateValid: Uint8Array;
  subtaskFeatures: Float32Array;
  kindFeatures: Float32Array;
  globalFeatures: Float32Array;
  assignNew: Uint8Array;
  join: Uint8Array;
  direct: Uint8Array;
  check: Uint8Array;
  launch: boolean;
  finish: boolean;
}

/** Expected steps of one subtask by an agent kind: size · (think + μ), with the think the orchestrator believes. */
export function expectedSteps(sim: DecompositionSim, kind: string, id: number, belief: SkillBelief = visibleSkills(sim)): number {
  const s = sim.task.subtasks[id];
  return s.size * (belief.think(kind, s) + sim.limits.toolLatencyMean);
}

/** Expected steps of a planned subagent: setup + Σ items' expected steps. */
export function expectedLoad(sim: DecompositionSim, kind: string, items: readonly number[], belief: SkillBelief = visibleSkills(sim)): number {
  return sim.limits.setupSteps + items.reduce((a, id) => a + expectedSteps(sim, kind, id, belief), 0);
}

/**
 * The expected-steps floor of a task: the critical steps a policy that gets one claim on every
 * subtask needs in expectation, at the least. Chain links run in order, each in its own stage, and
 * a stage lasts its main steps plus its longest subagent, so every chain costs at least the sum
 * over its links of the link's cheapest way:
 *   direct:    size · (think_orchestrator + μ)
 *   delegated: 1 (the launch's main step) + setup + min_k size · (think_k + μ)
 * floor = 1 (finish) + max over chains of that sum. E[max] >= max E, so no policy that claims every
 * subtask beats it on average; one may go below it only by leaving subtasks without a claim.
 * (`lowerBound` of the sim is the bound for every draw, with latency 1 and no launch or setup.)
 */
export function expectedChainFloor(sim: DecompositionSim): number {
  const l = sim.limits;
  const link = (id: number) =>
    Math.min(expectedSteps(sim, ORCHESTRATOR_KIND, id), 1 + l.setupSteps + Math.min(...sim.subagentKinds.map((k) => expectedSteps(sim, k, id))));
  return 1 + longestChain(sim.task, link);
}

export function observeDecomposition(sim: DecompositionSim): DecompositionObservation {
  const M = DECOMP_MAX_CANDIDATES;
  const kinds = sim.subagentKinds;
  const K = kinds.length;
  const l = sim.limits;
  const cfg = sim.task.config;
  const candidates = sim.finished ? [] : sim.candidates().slice(0, M);
  const obs: DecompositionObservation = {
    candidates,
    candidateValid: new Uint8Array(M),
    subtaskFeatures: new Float32Array(M * DECOMP_SUBTASK_FEATURES),
    kindFeatures: new Float32Array(K * DECOMP_KIND_FEATURES),
    globalFeatures: new Float32Array(DECOMP_GLOBAL_FEATURES),
    assignNew: new Uint8Array(M * K),
    join: new Uint8Array(M * K),
    direct: new Uint8Array(M),
    check: new Uint8Array(M),
    launch: sim.canLaunch(),
    finish: sim.canFinish(),
  };
  const plan = sim.finished ? [] : sim.pendingPlan();
  const newest = kinds.map((k) => (sim.finished ? null : sim.lastPendingOf(k)));
  candidates.forEach((id, i) => {
    const s = sim.task.subtasks[id];
    const f = obs.subtaskFeatures;
    const o = i * DECOMP_SUBTASK_FEATURES;
    obs.candidateValid[i] = 1;
    f[o + SUBTASK_KINDS.indexOf(s.kind)] = 1;
    f[o + 3] = s.size / cfg.maxSize;
    f[o + 4] = s.difficulty;
    f[o + 5] = s.chain === null ? 0 : 1;
    f[o + 6] = s.position / (cfg.maxChainLength - 1);
    let later = 0;
    for (let v = s.next; v !== null; v = sim.task.subtasks[v].next) later += sim.task.subtasks[v].size;
    f[o + 7] = later / (cfg.maxSize * cfg.maxChainLength);
    const cur = sim.currentClaim(id);
    f[o + 8] = cur ? 1 : 0;
    f[o + 9] = cur ? cur.confidence : 0;
    f[o + 10] = Math.min(1, sim.support(id) / 3);
    f[o + 11] = Math.min(1, sim.attempts(id) / 4);
    f[o + 12] = sim.refutedCount(id) > 0 ? 1 : 0;
    f[o + 13] = Math.min(1, sim.inPlan(id) / 2);
    for (let k = 0; k < K; k++) {
      obs.assignNew[i * K + k] = sim.whyNotPlan(id, kinds[k], null) === null ? 1 : 0;
      const slot = newest[k];
      obs.join[i * K + k] = slot !== null && sim.whyNotPlan(id, kinds[k], slot) === null ? 1 : 0;
    }
    obs.direct[i] = sim.whyNotDirect(id) === null ? 1 : 0;
    obs.check[i] = sim.whyNotCheck(id) === null ? 1 : 0;
  });
  const mu = l.toolLatencyMean;
  let slowest = 0;
  let planContext = 0;
  for (const p of plan) {
    slowest = Math.max(slowest, expectedLoad(sim, p.kind, p.items));
    planContext += l.resultOverhead + l.contextPerResultUnit * p.items.reduce((a, id) => a + sim.task.subtasks[id].size, 0);
  }
  const evidence = sim.skillsHidden ? kindEvidence(sim) : null;
  kinds.forEach((kind, k) => {
    const f = obs.kindFeatures;
    const o = k * DECOMP_KIND_FEATURES;
    if (evidence) {
      const e = evidence[k];
      SUBTASK_KINDS.forEach((_sk, j) => {
        const checks = e.passed[j] + e.failed[j];
        f[o + j] = posteriorSuccess(e, j);
        f[o + 3 + j] = checks / (checks + 2);
      });
      f[o + 6] = (posteriorThink(e, mu) + mu) / 8;
      const wrong = e.failed.reduce((a, x) => a + x, 0);
      f[o + 7] = wrong > 0 ? e.confidenceWrong / wrong : 0;
      f[o + 8] = e.compared > 0 ? e.agreed / e.compared : 0.5;
    } else {
      SUBTASK_KINDS.forEach((sk, j) => {
        const d = sim.skills.distribution(kind, { kind: sk, size: 1, difficulty: 0.5 });
        f[o + j] = d.pCorrect;
        f[o + 3 + j] = (d.thinkStepsPerUnit + mu) / 8;
        f[o + 6 + j] = d.calibration;
      });
    }
    f[o + 9] = plan.filter((p) => p.kind === kind).length / l.maxSubagentsPerStage;
    const slot = newest[k];
    f[o + 10] = slot === null ? 0 : expectedLoad(sim, kind, plan[slot].items) / l.subagentStepCap;
  });
  const n = sim.numSubtasks;
  let claimed = 0;
  let verified = 0;
  let blocked = 0;
  for (let id = 0; id < n; id++) {
    const st = sim.state(id);
    if (st === 'claimed' || st === 'verified') claimed += 1;
    if (st === 'verified') verified += 1;
    if (st === 'blocked') blocked += 1;
  }
  const g = obs.globalFeatures;
  g[0] = Math.max(0, l.criticalBudget - sim.criticalSteps) / l.criticalBudget;
  g[1] = l.contextBudget > 0 ? Math.max(0, sim.contextLeft) / l.contextBudget : 0;
  g[2] = claimed / n;
  g[3] = verified / n;
  g[4] = blocked / n;
  g[5] = plan.length / l.maxSubagentsPerStage;
  g[6] = slowest / l.subagentStepCap;
  g[7] = plan.length === 0 ? 1 : 0;
  g[8] = Math.min(2, planContext / Math.max(1, sim.contextLeft));
  return obs;
}
