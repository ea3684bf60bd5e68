/**
 * signals: Ctrl-C and SIGTERM through the real `npm run train` command, across the loop kinds.
 * Each trial starts a long run with --checkpoint, waits for its first update line plus a delay,
 * then sends SIGINT to the command's process group (what Ctrl-C in a terminal does) or SIGTERM
 * to npm alone (what `kill PID` or a supervisor does). A trial passes when the command exits 0
 * with its summary line, a checkpoint file that the checkpoint reader loads, and no process of
 * its group left behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCheckpointFile } from '../src/core/checkpoint';
import { budgetMax } from '../src/config/budget';
import { resolveExperiment } from '../src/config/config';
import { markdownTable, type Benchmark } from './types';

/** One preset per loop kind (sync, off-policy, MARL, swarm, continuous on-policy, offline, DQN, async, ES, REINFORCE). */
export const SIGNAL_PRESETS = ['ppo-cartpole', 'sac-pendulum', 'maddpg-spread', 'qmix-spread', 'swarm-annealed', 'ppo-continuous-pendulum', 'cql-pendulum', 'dqn-cartpole', 'impala-cartpole', 'es-cartpole'];
/** Milliseconds after the run's first update line. */
const DELAYS_MS = [0, 300, 1000, 150, 2000, 600, 50, 1500, 800, 3000];
const REPO = new URL('..', import.meta.url).pathname;

export interface SignalTrial {
  preset: string;
  signal: 'SIGINT' | 'SIGTERM';
  delayMs: number;
  /** The command's exit code (null when a signal killed it). */
  code: number | null;
  /** Milliseconds from the signal to the command's exit. */
  exitMs: number;
  summary: boolean;
  /** The checkpoint's update, or why it did not load. */
  checkpoint: { update: number } | { error: string };
  leftover: boolean;
  passed: boolean;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Run `npm run train -- --preset P` with a budget it will not reach, signal it, and check how it ended. */
export async function signalTrial(preset: string, signal: 'SIGINT' | 'SIGTERM', delayMs: number, startTimeoutMs = 180_000): Promise<SignalTrial> {
  const dir = mkdtempSync(join(tmpdir(), 'parl-signals-'));
  const ckpt = join(dir, 'run.parlckpt');
  // The largest budget the preset's own budget setting takes (env steps, a swarm's updates, an offline run's gradient steps).
  const steps = String(budgetMax(resolveExperiment(preset).settings.algorithm));
  const child = spawn('npm', ['run', '-s', 'train', '--', '--preset', preset, '--steps', steps, '--checkpoint', ckpt, '--quiet'], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = child.pid ?? -1;
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const started = Date.now();
    let ended = false;
    void exited.then(() => (ended = true));
    while (!out.includes('"type":"update"') && !ended && Date.now() - started < startTimeoutMs) await new Promise((r) => setTimeout(r, 20));
    if (!out.includes('"type":"update"')) throw new Error(`${preset} made no update in ${startTimeoutMs} ms: ${err.trim().split('\n').slice(-2).join(' ')}`);
    await new Promise((r) => setTimeout(r, delayMs));
    const sentAt = Date.now();
    if (signal === 'SIGINT') process.kill(-pgid, 'SIGINT');
    else child.kill('SIGTERM');
    const code = await exited;
    const exitMs = Date.now() - sentAt;
    // Helpers of the group (tsx's esbuild service) end on their own once node has exited.
    for (let waited = 0; groupAlive(pgid) && waited < 3_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    const leftover = groupAlive(pgid);
    const summary = out.split('\n').some((line) => line.startsWith('{"type":"summary"'));
    let checkpoint: SignalTrial['checkpoint'];
    try {
      checkpoint = existsSync(ckpt) ? { update: Number((await loadCheckpointFile(ckpt)).meta.update) } : { error: 'no file' };
    } catch (e) {
      checkpoint = { error: e instanceof Error ? e.message : String(e) };
    }
    const passed = code === 0 && summary && 'update' in checkpoint && !leftover;
    return { preset, signal, delayMs, code, exitMs, summary, checkpoint, leftover, passed };
  } finally {
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

export const signalsBenchmark: Benchmark = {
  name: 'signals',
  description: 'Ctrl-C and SIGTERM through `npm run train` across the loop kinds: trials ending with a summary line and a loadable checkpoint',
  help: {
    seeds: null,
    flags: [
      { name: 'trials', value: 'N', text: 'how many trials (default 20): the presets in turn, SIGINT and SIGTERM alternating, the delays in turn' },
      { name: 'presets', value: 'a,b', text: `the presets to cycle through (default ${SIGNAL_PRESETS.join(',')})` },
      { name: 'delays', value: 'ms,ms', text: `the delays after the first update to cycle through (default ${DELAYS_MS.join(',')}): longer ones signal an off-policy run once its learner is busy` },
    ],
  },
  async run({ flags }) {
    const trials = flags.trials === undefined ? 20 : Number(flags.trials);
    if (!Number.isInteger(trials) || trials < 1) throw new Error(`--trials: expected a whole number ≥ 1, got ${flags.trials}`);
    const presets = flags.presets === undefined ? SIGNAL_PRESETS : flags.presets.split(',').map((p) => p.trim()).filter(Boolean);
    const delays = flags.delays === undefined ? DELAYS_MS : flags.delays.split(',').map((d) => Number(d.trim()));
    if (delays.length === 0 || !delays.every((d) => Number.isInteger(d) && d >= 0)) throw new Error(`--delays: expected whole numbers of milliseconds ≥ 0, got ${flags.delays}`);
    const results: SignalTrial[] = [];
    for (let i = 0; i < trials; i++) {
      const preset = presets[i % presets.length];
      const signal = i % 2 === 0 ? 'SIGINT' : 'SIGTERM';
      const delay = delays[i % delays.length];
      const r = await signalTrial(preset, signal, delay).catch((e: unknown): SignalTrial => ({
        preset, signal, delayMs: delay, code: null, exitMs: NaN, summary: false, checkpoint: { error: e instanceof Error ? e.message : String(e) }, leftover: false, passed: false,
      }));
      results.push(r);
      process.stderr.write(`${i + 1}/${trials} ${preset} ${signal} +${delay} ms: ${r.passed ? 'ok' : 'FAILED'} (exit ${r.code}, ${r.exitMs} ms)\n`);
    }
    const rows = results.map((r, i) => [
      i + 1, r.preset, r.signal, r.delayMs, String(r.code), r.exitMs, r.summary ? 'yes' : 'NO', 'update' in r.checkpoint ? `update ${r.checkpoint.update}` : `NO: ${r.checkpoint.error.slice(0, 80)}`, r.leftover ? 'YES' : 'no', r.passed ? 'ok' : 'FAILED',
    ]);
    const passed = results.filter((r) => r.passed).length;
    const exitMs = results.filter((r) => r.passed).map((r) => r.exitMs);
    const table = `${markdownTable(['#', 'preset', 'signal', 'delay ms', 'exit', 'ms to exit', 'summary', 'checkpoint', 'left running', 'result'], rows)}\n\n${passed} of ${trials} exited 0 with a summary line and a loadable checkpoint, leaving nothing running${exitMs.length ? `; slowest exit ${Math.max(...exitMs)} ms after the signal` : ''}`;
    return { table, figures: { trials, passed, maxExitMs: exitMs.length ? Math.max(...exitMs) : null } };
  },
};
