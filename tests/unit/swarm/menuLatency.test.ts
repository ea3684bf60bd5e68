import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { OrchestrationSim, latencyFactor, resolveLimits } from '../../../src/envs/swarm/orchestration';
import { generateWideSearch } from '../../../src/envs/swarm/wideSearch';
import { oracleDriver } from '../../../src/envs/swarm/drivers';
import {
  ACTION_ASSIGN_ALL, ACTION_DIRECT, ACTION_FINISH, ACTION_OVERSPAWN, MaskedActorCritic, NUM_ORCH_ACTIONS, ORCH_FEATURES,
  actionMask, assignCounts, decodeAction,
} from '../../../src/swarm/orchestrator';

describe('soft deadline (latency-aware r_perf)', () => {
  const l = { deadline: 1 / 3, lateFloor: 0.8 };
  it('is 1 up to the deadline, lateFloor at and beyond the serial baseline, linear between', () => {
    expect(latencyFactor(10, 90, l)).toBe(1);
    expect(latencyFactor(30, 90, l)).toBe(1);
    expect(latencyFactor(90, 90, l)).toBeCloseTo(0.8, 12);
    expect(latencyFactor(500, 90, l)).toBeCloseTo(0.8, 12);
    expect(latencyFactor(60, 90, l)).toBeCloseTo(0.9, 12);
    expect(latencyFactor(500, 90, { deadline: 0, lateFloor: 0.5 })).toBe(1);
  });
  it('with lateAt, reaches lateFloor at lateAt × serial and is flat beyond it (a plateau around serial work)', () => {
    const m = { deadline: 1 / 3, lateFloor: 0.8, lateAt: 2 / 3 };
    expect(latencyFactor(30, 90, m)).toBe(1);
    expect(latencyFactor(45, 90, m)).toBeCloseTo(0.9, 12);
    expect(latencyFactor(60, 90, m)).toBeCloseTo(0.8, 12);
    // Less late than serial work, but not by enough: no credit.
    expect(latencyFactor(75, 90, m)).toBeCloseTo(0.8, 12);
    expect(latencyFactor(90, 90, m)).toBeCloseTo(0.8, 12);
  });
  it('is a hard deadline when lateAt is at or below the deadline', () => {
    const h = { deadline: 1 / 3, lateFloor: 0.8, lateAt: 0.2 };
    expect(latencyFactor(30, 90, h)).toBe(1);
    expect(latencyFactor(31, 90, h)).toBeCloseTo(0.8, 12);
    expect(latencyFactor(31, 90, { ...h, lateAt: 1 / 3 })).toBeCloseTo(0.8, 12);
  });
  it('rejects bad deadline settings', () => {
    expect(() => resolveLimits({ deadline: 1 })).toThrow(/deadline/);
    expect(() => resolveLimits({ lateFloor: 1.5 })).toThrow(/lateFloor/);
    expect(() => resolveLimits({ lateAt: 0 })).toThrow(/lateAt/);
    expect(() => resolveLimits({ lateAt: 1.2 })).toThrow(/lateAt/);
  });
  it('scales the episode r_perf: serial work gets everything right but earns only lateFloor', () => {
    const task = generateWideSearch({ numItems: 6, difficulty: 'medium' }, 3);
    const sim = new OrchestrationSim(task, { maxMainSteps: 500, contextBudget: 500, subagentStepCap: 40, deadline: 1 / 3, lateFloor: 0.8 });
    while (sim.canDirect()) sim.direct(sim.readySubtasks()[0], oracleDriver);
    sim.finish();
    const log = sim.log();
    expect(log.quality).toBe(1);
    expect(log.latencyFactor).toBeCloseTo(0.8, 12);
    expect(log.rPerf).toBeCloseTo(0.8, 12);
    const par = new OrchestrationSim(task, { maxMainSteps: 500, contextBudget: 500, subagentStepCap: 40, deadline: 1 / 3, lateFloor: 0.8 });
    par.assign(par.readySubtasks(), oracleDriver);
    par.finish();
    expect(par.log().rPerf).toBe(1);
  });
});

describe('relative assign menu', () => {
  it('maps options to counts of the ready subtasks, over-spawn to duplicates', () => {
    expect(assignCounts(decodeAction(1), 32, 100)).toEqual({ real: 1, extra: 0 });
    expect(assignCounts(decodeAction(2), 32, 100)).toEqual({ real: 8, extra: 0 });
    expect(assignCounts(decodeAction(3), 5, 100)).toEqual({ real: 3, extra: 0 });
    expect(assignCounts(decodeAction(ACTION_ASSIGN_ALL), 32, 100)).toEqual({ real: 32, extra: 0 });
    expect(assignCounts(decodeAction(ACTION_OVERSPAWN), 32, 100)).toEqual({ real: 32, extra: 32 });
    expect(assignCounts(decodeAction(ACTION_OVERSPAWN), 80, 100)).toEqual({ real: 80, extra: 20 });
    expect(assignCounts(decodeAction(ACTION_OVERSPAWN), 100, 100)).toEqual({ real: 100, extra: 0 });
    expect(() => decodeAction(NUM_ORCH_ACTIONS)).toThrow(/invalid action/);
  });
  it('masks assigns whose results do not fit in the context left', () => {
    const task = generateWideSearch({ numItems: 32, difficulty: 'medium' }, 1);
    const sim = new OrchestrationSim(task, { contextBudget: 200, contextPerResult: 4 });
    const m = actionMask(sim);
    expect(m[ACTION_DIRECT]).toBe(1);
    expect(m[ACTION_ASSIGN_ALL]).toBe(1); // 32 · 4 = 128 ≤ 200
    expect(m[ACTION_OVERSPAWN]).toBe(0); // 64 · 4 = 256 > 200
    expect(m[ACTION_FINISH]).toBe(1);
  });
});

describe('orchestrator init', () => {
  it('directBias only raises the direct logit at the start', async () => {
    await chooseBackend({ preferred: 'cpu' });
    const a = new MaskedActorCritic([8], 1);
    const b = new MaskedActorCritic([8], 1, { directBias: 5 });
    const x = tf.concat([tf.zeros([1, ORCH_FEATURES]), tf.ones([1, NUM_ORCH_ACTIONS])], 1) as tf.Tensor2D;
    const la = a.forward(x).logits.dataSync();
    const lb = b.forward(x).logits.dataSync();
    for (let i = 0; i < NUM_ORCH_ACTIONS; i++) expect(lb[i] - la[i]).toBeCloseTo(i === ACTION_DIRECT ? 5 : 0, 5);
    expect(() => new MaskedActorCritic([8], 1, { directBias: Number.NaN })).toThrow(/directBias/);
    a.dispose();
    b.dispose();
    x.dispose();
  });
});
