import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/core/rng';
import {
  ITEM_ACTION,
  ItemSearchEnv,
  OrchestrationError,
  OrchestrationSim,
  TaskGraphTask,
  cellIndex,
  exploreDriver,
  generateTaskGraph,
  generateWideSearch,
  itemF1,
  oracleDriver,
  randomDriver,
  type TaskGraph,
  type WorkerBatch,
  type WorkerDriver,
} from '../../../../src/envs/swarm';

const g = (spec: Array<[number[], number]>): TaskGraph => ({ nodes: spec.map(([deps, work], id) => ({ id, deps, work })) });
/** 0 (work 2) feeds 1 (work 5) and 2 (work 3), which both feed 3 (work 1). */
const diamond = () => new TaskGraphTask(g([[[], 2], [[0], 5], [[0], 3], [[1, 2], 1]]), 1);
const ids = (n: number) => Array.from({ length: n }, (_, i) => i);
const claimNow: WorkerDriver = (b) => new Int32Array(b.n).fill(ITEM_ACTION.CLAIM);

describe('OrchestrationSim stages', () => {
  it('runs a wide search all at once: one stage costs 1 + the slowest item', () => {
    const task = generateWideSearch({ numItems: 6 }, 3);
    const sim = new OrchestrationSim(task);
    const rec = sim.assign(ids(6), oracleDriver);
    expect(rec.action).toBe('assign');
    expect(rec.subagents.map((s) => s.steps)).toEqual(task.subtasks.map((s) => s.minSteps));
    expect(rec.subagents.every((s) => s.outcome === 'done')).toBe(true);
    expect(rec.mainSteps).toBe(1);
    expect(rec.criticalStepsSoFar).toBe(1 + task.lowerBound);
    const fin = sim.finish();
    expect(fin.criticalStepsSoFar).toBe(1 + task.lowerBound + 1);
    const log = sim.log();
    expect(log).toMatchObject({ nAssigned: 6, nCompleted: 6, nDirect: 0, rPerf: 1, contextUsed: 6, finished: true, mainStepsUsed: 2 });
  });

  it('runs it serially with direct work: critical = serial baseline + finish', () => {
    const task = generateWideSearch({ numItems: 5 }, 4);
    const sim = new OrchestrationSim(task);
    for (const id of ids(5)) {
      const rec = sim.direct(id, oracleDriver);
      expect(rec.direct).toMatchObject({ subtaskId: id, outcome: 'done', steps: task.subtasks[id].minSteps });
      expect(rec.mainSteps).toBe(task.subtasks[id].minSteps);
      expect(rec.subagents).toEqual([]);
    }
    sim.finish();
    expect(sim.elapsedCriticalSteps).toBe(task.serialBaseline + 1);
    // direct work uses context per step
    expect(sim.contextUsed).toBe(task.serialBaseline);
    expect(sim.log()).toMatchObject({ nAssigned: 0, nCompleted: 0, nDirect: 5, nDirectCompleted: 5, rPerf: 1 });
  });
});

describe('OrchestrationSim limits', () => {
  it('cuts direct work when the context budget runs out, then only finish is possible', () => {
    const task = new TaskGraphTask(g([[[], 9]]), 0);
    const sim = new OrchestrationSim(task, { contextBudget: 5 });
    const rec = sim.direct(0, oracleDriver);
    // 9 steps needed, 5 context units at 1 per step: cut after 5
    expect(rec.direct).toMatchObject({ steps: 5, outcome: 'timeout', answer: null });
    expect(sim.contextLeft).toBe(0);
    expect(sim.canAct()).toBe(false);
    expect(() => sim.direct(0, oracleDriver)).toThrow(/context budget \(5\) is used up/);
    expect(() => sim.assign([0], oracleDriver)).toThrow(/need 1 context units but 0 are left/);
    sim.finish();
    expect(sim.log()).toMatchObject({ budgetExhausted: true, rPerf: 0, contextUsed: 5 });
  });

  it('charges subagents only for their results (context sharding)', () => {
    const task = new TaskGraphTask(g([[[], 20], [[], 20], [[], 20], [[], 1]]), 0);
    const sim = new OrchestrationSim(task, { contextBudget: 3, contextPerResult: 1 });
    const rec = sim.assign([0, 1, 2], oracleDriver);
    expect(rec.subagents.map((s) => s.steps)).toEqual([20, 20, 20]);
    // 60 steps of subagent work, 3 context units
    expect(rec.contextUsedSoFar).toBe(3);
    expect(() => sim.assign([3], oracleDriver)).toThrow(OrchestrationError);
  });

  it('caps each subagent run, and a failed subtask can be retried', () => {
    const task = new TaskGraphTask(g([[[], 9], [[], 2]]), 0);
    const sim = new OrchestrationSim(task, { subagentStepCap: 3 });
    const rec = sim.assign([0, 1], oracleDriver);
    expect(rec.subagents).toEqual([
      { subtaskId: 0, steps: 3, outcome: 'timeout', answer: null },
      expect.objectContaining({ subtaskId: 1, steps: 2, outcome: 'done' }),
    ]);
    // 1 + max(3, 2) = 4
    expect(rec.criticalStepsSoFar).toBe(4);
    expect(sim.status(0)).toBe('ready');
    expect(sim.status(1)).toBe('done');
    sim.assign([0], oracleDriver);
    expect(sim.attempts(0)).toBe(2);
    expect(sim.lastOutcome(0)).toBe('timeout');
    expect(sim.log()).toMatchObject({ nAssigned: 3, nCompleted: 1 });
  });

  it("caps the orchestrator's own steps, and direct runs", () => {
    const task = new TaskGraphTask(g([[[], 9], [[], 9]]), 0);
    const sim = new OrchestrationSim(task, { maxMainSteps: 4 });
    expect(sim.direct(0, oracleDriver).direct).toMatchObject({ steps: 4, outcome: 'timeout' });
    expect(sim.mainStepsLeft).toBe(0);
    expect(() => sim.assign([1], oracleDriver)).toThrow(/step cap \(4\) is reached/);
    expect(() => sim.direct(1, oracleDriver)).toThrow(/step cap/);
    sim.finish(); // always possible, one step on top of the cap
    expect(sim.mainStepsUsed).toBe(5);

    const capped = new OrchestrationSim(task, { directStepCap: 2 });
    expect(capped.direct(0, oracleDriver).direct).toMatchObject({ steps: 2, outcome: 'timeout' });
  });

  it('limits subagents per stage', () => {
    const sim = new OrchestrationSim(generateWideSearch({ numItems: 3 }, 0), { maxSubagentsPerStage: 2 });
    expect(() => sim.assign([0, 1, 2], oracleDriver)).toThrow(/at most 2 subagents per stage/);
    expect(sim.canAssign(3)).toBe(false);
    expect(sim.canAssign(2)).toBe(true);
  });
});

describe('OrchestrationSim gating and refusals (they throw OrchestrationError)', () => {
  it('refuses to start a subtask whose inputs are not done', () => {
    const sim = new OrchestrationSim(diamond());
    expect(sim.readySubtasks()).toEqual([0]);
    expect(sim.status(1)).toBe('blocked');
    expect(() => sim.assign([1], oracleDriver)).toThrow(/subtask 1 is blocked; its inputs 0 are not done/);
    expect(() => sim.assign([0, 1], oracleDriver)).toThrow(/blocked/);
    expect(() => sim.direct(3, oracleDriver)).toThrow(/subtask 3 is blocked; its inputs 1, 2 are not done/);
    expect(sim.log().stages).toEqual([]); // refused actions leave no trace
    sim.assign([0], oracleDriver);
    expect(sim.readySubtasks()).toEqual([1, 2]);
    sim.assign([1, 2], oracleDriver);
    expect(sim.readySubtasks()).toEqual([3]);
    sim.assign([3], oracleDriver);
    sim.finish();
    // (1 + 2) + (1 + max(5, 3)) + (1 + 1) + 1 = 3 + 6 + 2 + 1 = 12; lower bound 2 + 5 + 1 = 8
    expect(sim.elapsedCriticalSteps).toBe(12);
    expect(sim.log()).toMatchObject({ rPerf: 1, lowerBound: 8, serialBaseline: 11, nSubtasksDone: 4 });
  });

  it('refuses invalid actions with clear messages', () => {
    const sim = new OrchestrationSim(diamond());
    expect(() => sim.assign([], oracleDriver)).toThrow(/at least one subtask/);
    expect(() => sim.assign([7], oracleDriver)).toThrow(/unknown subtask 7/);
    sim.assign([0], oracleDriver);
    expect(() => sim.assign([0], oracleDriver)).toThrow(/subtask 0 is already done/);
    expect(() => sim.assign([1, 1], oracleDriver)).toThrow(/appears twice/);
    const run = sim.beginAssign([1]);
    expect(() => sim.direct(2, oracleDriver)).toThrow(/still running/);
    expect(() => sim.finish()).toThrow(/still running/);
    while (!run.done) run.step(oracleDriver(run.batch()));
    sim.finish();
    expect(() => sim.assign([2], oracleDriver)).toThrow(/finished/);
    expect(() => sim.finish()).toThrow(/finished/);
  });
});

describe('OrchestrationSim drivers', () => {
  it('asks the driver once per step for all active runs, in one packed batch', () => {
    const task = new TaskGraphTask(g([[[], 1], [[], 4], [[], 2], [[], 4]]), 3);
    const sim = new OrchestrationSim(task);
    const sizes: number[] = [];
    const driver: WorkerDriver = (b: WorkerBatch) => {
      sizes.push(b.n);
      expect(b.obs.length).toBe(b.n * b.obsDim);
      const own = new Float32Array(b.obsDim);
      b.runs.forEach((r, i) => {
        expect(r.role).toBe('subagent');
        r.env.writeObs(own, 0);
        expect(Array.from(b.obs.subarray(i * b.obsDim, (i + 1) * b.obsDim))).toEqual(Array.from(own));
      });
      return oracleDriver(b);
    };
    sim.assign([0, 1, 2, 3], driver);
    // works 1, 4, 2, 4: all 4 active at step 1, then 3 (work 1 done), 2, 2
    expect(sizes).toEqual([4, 3, 2, 2]);
  });

  it('gives direct work to the driver as an orchestrator run', () => {
    const sim = new OrchestrationSim(diamond());
    const roles = new Set<string>();
    sim.direct(0, (b) => {
      b.runs.forEach((r) => roles.add(r.role));
      return oracleDriver(b);
    });
    expect([...roles]).toEqual(['orchestrator']);
  });

  it('accepts async drivers with the same results', async () => {
    const task = generateTaskGraph({ width: 3, depth: 3, edgeDensity: 0.5 }, 8);
    const runSync = () => {
      const sim = new OrchestrationSim(task, { subagentStepCap: 12 });
      const d = exploreDriver(new Rng(1));
      while (sim.canAssign()) sim.assign(sim.readySubtasks(), d);
      sim.finish();
      return sim.log();
    };
    const runAsync = async () => {
      const sim = new OrchestrationSim(task, { subagentStepCap: 12 });
      const d = exploreDriver(new Rng(1));
      while (sim.canAssign()) await sim.assignAsync(sim.readySubtasks(), async (b) => d(b));
      sim.finish();
      return sim.log();
    };
    expect(await runAsync()).toEqual(runSync());
  });

  it('rejects a driver that returns too few actions', () => {
    const sim = new OrchestrationSim(generateWideSearch({ numItems: 2 }, 0));
    expect(() => sim.assign([0, 1], () => [0])).toThrow(/returned 1 actions for 2 active runs/);
  });
});

describe('OrchestrationSim reports', () => {
  it('reports every answer received by default, wrong claims included', () => {
    const task = generateWideSearch({ numItems: 30, difficulty: 'easy' }, 12);
    const sim = new OrchestrationSim(task);
    const rec = sim.assign(ids(30), claimNow);
    // each subagent claims its start cell at step 1: right only where start = target
    const starts = task.subtasks.map((s) => cellIndex(s.problem.gridSize, s.problem.start[0], s.problem.start[1]));
    rec.subagents.forEach((s, i) => {
      expect(s.steps).toBe(1);
      expect(s.answer).toBe(starts[i]);
      expect(s.outcome).toBe(starts[i] === task.answers[i] ? 'done' : 'failed');
    });
    sim.finish();
    const expected = itemF1(new Map(starts.map((c, i) => [i, c] as [number, number])), task.answers).f1;
    expect(sim.log().rPerf).toBeCloseTo(expected, 12);
    expect(sim.log().nCompleted).toBe(starts.filter((c, i) => c === task.answers[i]).length);
  });

  it('reports only the chosen subtasks when asked', () => {
    const task = generateWideSearch({ numItems: 4 }, 2);
    const sim = new OrchestrationSim(task);
    sim.assign([0, 1], oracleDriver);
    expect(() => new OrchestrationSim(task).finish({ report: [0] })).toThrow(/no answer to report/);
    sim.finish({ report: [0] });
    // 1 right of 1 reported, K = 4: P = 1, R = 1/4, F1 = 2 * 1/4 / (5/4) = 0.4
    expect(sim.log().rPerf).toBeCloseTo(0.4, 12);
  });
});

describe('determinism', () => {
  it('gives the same episode for the same seeds', () => {
    const episode = (seed: number) => {
      const task = generateTaskGraph({ width: 4, depth: 3, edgeDensity: 0.4 }, seed);
      const sim = new OrchestrationSim(task, { subagentStepCap: 10, contextBudget: 60 });
      const rng = new Rng(seed);
      const d = randomDriver(rng.fork(1));
      while (sim.canAct()) {
        const ready = sim.readySubtasks();
        if (rng.uniform() < 0.3 && sim.canDirect()) sim.direct(ready[0], d);
        else if (sim.canAssign(ready.length)) sim.assign(ready, d);
        else break;
      }
      sim.finish();
      return sim.log();
    };
    expect(episode(5)).toEqual(episode(5));
    expect(episode(5)).not.toEqual(episode(6));
    // the env that workers use is exported for training on its own
    expect(new ItemSearchEnv().id).toBe('SwarmItemSearch-v0');
  });
});
