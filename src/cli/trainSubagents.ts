/**
 * Train the frozen subagents of the agent swarm, offline, with the engine's PPO:
 *
 *   npm run subagents                 (writes public/subagents/*.ckpt and manifest.json)
 *   npm run subagents -- --out DIR    (somewhere else)
 *
 * Each subagent is an ItemSearch policy (obs 23 → hidden → 5 actions) trained on a mix of grid
 * sides (3, 4, 5, 6, 8) so it serves every swarm task. `small` (hidden [16]) trains briefly,
 * `large` (hidden [64, 64]) longer; checkpoints are kept along the way (`<size>-u<update>.ckpt`).
 * A specialist (`searcher`: the small network on grid 8 only) is trained the same way on its one
 * grid side. `--only NAME` trains one of them and keeps the manifest's other entries.
 * Only the policy head is saved (the critic is a training aid). The manifest records each file's
 * size and its success rate and mean steps on held-out seeds (seeds the training never drew),
 * acting as the swarm runs it: sampled from softmax(logits) with the task's step cap.
 *
 * Deterministic: fixed seeds for init, envs, sampling and minibatch shuffles, so the command
 * re-creates the same files on the same backend (wasm).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { Ppo } from '../algorithms/ppo';
import { chooseBackend } from '../core/backend';
import { encodeCheckpoint } from '../core/checkpoint';
import { ActorCriticMlp } from '../core/mlp';
import { Rng, deriveSeed } from '../core/rng';
import { ITEM_OBS_DIM, ItemSearchEnv } from '../envs/swarm/itemSearch';
import { FrozenSubagent, SUBAGENT_HIDDEN, subagentSpec, type SubagentSize } from '../swarm/subagents';
import { loadSubagentCheckpoint } from '../swarm/subagentFiles';
import { oneLine, runMain } from './runMain';
import { printHelpIfAsked } from './help';
import { parseFlags } from '../cluster/flags';
import { defaultParams } from '../config/algorithm';
import { PPO } from '../config/algorithms/ppo';

const GRIDS = [3, 4, 5, 6, 8];
const NUM_ENVS = 32;
const ROLLOUT = 48;
const SEED = 7;
/** Updates per size, and the updates at which an intermediate checkpoint is kept. */
const PLAN: Record<SubagentSize, { updates: number; keep: number[]; lr: number }> = {
  small: { updates: 20, keep: [10], lr: 3e-3 },
  large: { updates: 200, keep: [50, 100], lr: 1e-3 },
};
/**
 * Specialists: trained on ONE grid side only (a different subtask kind from the mix the others
 * train on). `searcher`: the small network's final checkpoint trained on further on the widest
 * grid (8) alone, the decomposition task's 'search' subtasks (src/swarm/subagentSkills.ts maps
 * grid 8 to search); from scratch on grid 8 alone PPO finds no reward (measured: 0.2% success).
 */
const SPECIALISTS = { searcher: { hidden: SUBAGENT_HIDDEN.small, grids: [8], updates: 40, keep: [] as number[], lr: 1e-3, seedStream: 3, from: 'small' } } as const;
type SpecialistName = keyof typeof SPECIALISTS;
const SUBAGENT_NAMES = ['small', 'large', ...Object.keys(SPECIALISTS)];
const USAGE = `Usage: npm run subagents -- [--out DIR] [--only NAME]
  Trains the swarm's frozen subagents and writes their checkpoints and manifest.json to DIR
  (default public/subagents, the shipped files); --only NAME trains one of them (${SUBAGENT_NAMES.join(', ')})
  and keeps the manifest's other entries.`;

interface TrainPlan {
  /** File stem of the final checkpoint (and prefix of the intermediate ones). */
  label: string;
  size: SubagentSize;
  hidden: readonly number[];
  grids: readonly number[];
  updates: number;
  keep: readonly number[];
  lr: number;
  seedStream: number;
  /** Start the policy from this checkpoint in the output folder (its critic starts fresh). */
  from?: string;
}

function sizePlan(size: SubagentSize): TrainPlan {
  return { label: size, size, hidden: SUBAGENT_HIDDEN[size], grids: GRIDS, ...PLAN[size], seedStream: size === 'small' ? 1 : 2 };
}

function specialistPlan(name: SpecialistName): TrainPlan {
  return { label: name, size: 'small', ...SPECIALISTS[name] };
}
const EVAL_SEED = 1_000_003; // never drawn by training (training seeds derive from SEED)
const EVAL_PER_GRID = 100;
/** The subagent step cap the swarm tasks use by default. */
const EVAL_STEP_CAP = 100;

interface EvalFigures {
  successRate: number;
  meanSteps: number;
  byGrid: Record<string, { successRate: number; meanSteps: number }>;
}

async function evaluate(agent: FrozenSubagent, seed: number): Promise<EvalFigures> {
  const rng = new Rng(seed);
  const byGrid: EvalFigures['byGrid'] = {};
  let ok = 0;
  let steps = 0;
  let n = 0;
  for (const W of GRIDS) {
    const envs = Array.from({ length: EVAL_PER_GRID }, (_, i) => {
      const env = new ItemSearchEnv({ gridSize: W, maxEpisodeSteps: EVAL_STEP_CAP });
      env.reset({ seed: deriveSeed(seed, W, i) });
      return env;
    });
    let active = envs.map((_, i) => i);
    const obs = new Float32Array(envs.length * ITEM_OBS_DIM);
    const found = new Uint8Array(envs.length);
    while (active.length > 0) {
      active.forEach((e, row) => envs[e].writeObs(obs, row * ITEM_OBS_DIM));
      const a = await agent.act(obs, active.length, rng);
      const scratch = new Float32Array(ITEM_OBS_DIM);
      const next: number[] = [];
      active.forEach((e, row) => {
        envs[e].stepInto(a[row], scratch, 0);
        if (envs[e].lastClaim?.correct) found[e] = 1;
        if (!envs[e].done) next.push(e);
      });
      active = next;
    }
    let gOk = 0;
    let gSteps = 0;
    envs.forEach((env, i) => {
      gOk += found[i];
      gSteps += env.elapsedSteps;
    });
    byGrid[String(W)] = { successRate: gOk / envs.length, meanSteps: gSteps / envs.length };
    ok += gOk;
    steps += gSteps;
    n += envs.length;
  }
  return { successRate: ok / n, meanSteps: steps / n, byGrid };
}

function policyCheckpoint(model: ActorCriticMlp, size: string, hidden: readonly number[], update: number, envSteps: number, grids: readonly number[]) {
  const nPolicy = 2 * (hidden.length + 1);
  const specs = model.weightSpecs().slice(0, nPolicy);
  return {
    weights: model.getWeights().slice(0, nPolicy),
    shapes: specs.map((s) => s.shape),
    names: specs.map((s) => s.name),
    meta: { kind: 'swarm-subagent', size, hidden: [...hidden], update, envSteps, seed: SEED, grids: [...grids], algorithm: 'ppo' },
  };
}

async function trainSize(plan: TrainPlan, outDir: string): Promise<Record<string, unknown>[]> {
  const { hidden, size, label } = plan;
  const seed = deriveSeed(SEED, plan.seedStream);
  const model = new ActorCriticMlp({ ...subagentSpec(hidden), kind: 'actorCritic' }, seed);
  if (plan.from) {
    const init = await loadSubagentCheckpoint(join(outDir, `${plan.from}.ckpt`));
    const ws = model.getWeights();
    init.weights.forEach((w, i) => (ws[i] = w));
    model.setWeights(ws);
  }
  const ppo = new Ppo(model, { ...defaultParams(PPO.settings), lr: plan.lr, numMinibatches: 4, updateEpochs: 4, entCoef: 0.01, gamma: 0.98, gaeLambda: 0.95, seed });
  const rng = new Rng(deriveSeed(seed, 0x5a));
  const envs = Array.from({ length: NUM_ENVS }, (_, i) => new ItemSearchEnv({ gridSize: plan.grids[i % plan.grids.length], seed: deriveSeed(seed, 100 + i) }));
  const N = NUM_ENVS;
  const D = ITEM_OBS_DIM;
  let obs = new Float32Array(N * D);
  envs.forEach((env, i) => env.resetInto(obs, i * D));
  const out: Record<string, unknown>[] = [];
  let envSteps = 0;
  const started = performance.now();
  const save = async (name: string, update: number) => {
    const ckpt = policyCheckpoint(model, size, hidden, update, envSteps, plan.grids);
    const file = join(outDir, name);
    writeFileSync(file, encodeCheckpoint(ckpt));
    const frozen = new FrozenSubagent(ckpt, name);
    const figures = await evaluate(frozen, EVAL_SEED);
    frozen.dispose();
    const entry = { file: name, size, ...(label !== size ? { specialist: label, trainedOnGrids: [...plan.grids] } : {}), hidden: [...hidden], update, envSteps, bytes: statSync(file).size, ...figures };
    out.push(entry);
    process.stderr.write(`  ${name}: success ${(figures.successRate * 100).toFixed(1)}%, mean steps ${figures.meanSteps.toFixed(1)}\n`);
  };
  for (let update = 1; update <= plan.updates; update++) {
    const B = ROLLOUT * N;
    const bObs = new Float32Array(B * D);
    const bAct = new Int32Array(B);
    const bLogp = new Float32Array(B);
    const bVal = new Float32Array(B);
    const bRew = new Float32Array(B);
    const bDone = new Uint8Array(B);
    const bTrunc = new Uint8Array(B);
    const bBoot = new Float32Array(B);
    let episodes = 0;
    let solved = 0;
    for (let t = 0; t < ROLLOUT; t++) {
      const { probs, values } = tf.tidy(() => {
        const o = model.forward(tf.tensor2d(obs, [N, D]));
        return { probs: tf.softmax(o.logits).dataSync(), values: o.value.dataSync() };
      });
      const finalObs: Array<Float32Array | null> = new Array<Float32Array | null>(N).fill(null);
      const next = new Float32Array(N * D);
      for (let i = 0; i < N; i++) {
        const row = t * N + i;
        const a = rng.categorical(probs, i * 5, 5);
        bObs.set(obs.subarray(i * D, (i + 1) * D), row * D);
        bAct[row] = a;
        bLogp[row] = Math.log(Math.max(probs[i * 5 + a], 1e-12));
        bVal[row] = values[i];
        const env = envs[i];
        bRew[row] = env.stepInto(a, next, i * D);
        if (env.done) {
          episodes += 1;
          if (env.lastClaim?.correct) solved += 1;
          if (env.lastTruncated) {
            bTrunc[row] = 1;
            finalObs[i] = next.slice(i * D, (i + 1) * D);
          }
          bDone[row] = env.lastTerminated ? 1 : 0;
          env.resetInto(next, i * D);
        }
      }
      // V(real last obs) of truncated episodes, for bootstrapping.
      const truncRows = finalObs.map((f, i) => (f ? i : -1)).filter((i) => i >= 0);
      if (truncRows.length > 0) {
        const fo = new Float32Array(truncRows.length * D);
        truncRows.forEach((i, k) => fo.set(finalObs[i] as Float32Array, k * D));
        const v = tf.tidy(() => model.forward(tf.tensor2d(fo, [truncRows.length, D])).value.dataSync());
        truncRows.forEach((i, k) => (bBoot[t * N + i] = v[k]));
      }
      obs = next;
      envSteps += N;
    }
    const lastValues = tf.tidy(() => new Float32Array(model.forward(tf.tensor2d(obs, [N, D])).value.dataSync()));
    const m = ppo.learn({
      obs: bObs,
      actions: bAct,
      batchSize: B,
      logProbs: bLogp,
      values: bVal,
      rewards: bRew,
      dones: bDone,
      truncated: bTrunc,
      bootstrapValues: bBoot,
      lastValues,
      numEnvs: N,
    });
    if (update % 10 === 0 || update === 1) {
      const secs = (performance.now() - started) / 1000;
      process.stderr.write(
        `${label} update ${update}/${plan.updates}: solved ${solved}/${episodes} episodes, entropy ${m.entropy.toFixed(3)}, ${secs.toFixed(0)} s\n`,
      );
    }
    if (plan.keep.includes(update)) await save(`${label}-u${update}.ckpt`, update);
  }
  await save(`${label}.ckpt`, plan.updates);
  ppo.dispose();
  return out;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (printHelpIfAsked(argv, USAGE)) return 0;
  let flags: Map<string, string>;
  try {
    flags = parseFlags(argv, ['--out', '--only']);
  } catch (err) {
    process.stderr.write(`error: ${oneLine(err)}\n${USAGE}\n`);
    return 2;
  }
  const outDir = flags.get('--out') ?? join('public', 'subagents');
  // --only NAME trains one size or specialist and keeps the manifest's other entries.
  const only = flags.get('--only') ?? null;
  if (only !== null && !SUBAGENT_NAMES.includes(only)) throw new Error(`--only: unknown subagent '${only}' (known: ${SUBAGENT_NAMES.join(', ')})`);
  mkdirSync(outDir, { recursive: true });
  const backend = await chooseBackend({ preferred: 'wasm' });
  process.stderr.write(`backend: ${backend.name}\n`);
  let entries: Record<string, unknown>[] = [];
  for (const size of ['small', 'large'] as const) {
    if (only && only !== size) continue;
    entries.push(...(await trainSize(sizePlan(size), outDir)));
  }
  for (const name of Object.keys(SPECIALISTS) as SpecialistName[]) {
    if (only && only !== name) continue;
    entries.push(...(await trainSize(specialistPlan(name), outDir)));
  }
  if (only) {
    let kept: Record<string, unknown>[];
    try {
      const old = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as { checkpoints?: Record<string, unknown>[] };
      kept = (old.checkpoints ?? []).filter((c) => !entries.some((e) => e.file === c.file));
    } catch {
      kept = [];
    }
    entries = [...kept, ...entries];
  }
  const manifest = {
    description: 'Frozen ItemSearch subagents for the agent swarm; made by `npm run subagents` (src/cli/trainSubagents.ts).',
    evaluation: { seed: EVAL_SEED, grids: GRIDS, perGrid: EVAL_PER_GRID, stepCap: EVAL_STEP_CAP, policy: 'sampled from softmax(logits)' },
    backend: backend.name,
    checkpoints: entries,
  };
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  process.stderr.write(`wrote ${entries.length} checkpoints and manifest.json to ${outDir}\n`);
  return 0;
}

runMain(main);
