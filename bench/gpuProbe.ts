/**
 * The measuring side of `npm run bench -- gpu`, bundled for a dedicated worker in Chromium (where the
 * app's learner runs), with tfjs and its webgpu and wasm backends loaded as the global `tf`.
 *
 * For each backend, network width and batch size B it times, median of `repeats` after two warm-ups:
 *   - a learner step: one PPO gradient step (the engine's Ppo, one epoch of one minibatch) on B rows
 *     of the ppo-cartpole actor-critic, upload of the rows and the read of its metrics included
 *     (the learner reads them after every update);
 *   - central inference: one forward pass of B rows (logits and value) and the read of both, as a
 *     SEED-style learner or the swarm's central inference does every tick.
 * A cell slower than `cellBudgetMs` ends that backend's larger batches for that width.
 */
import * as tf from '@tensorflow/tfjs';
import { Ppo } from '../src/algorithms/ppo';
import { webgpuAdapterInfo } from '../src/core/backend';
import { installBlockedTransposedMatMul } from '../src/core/blockedMatMul';
import { ActorCriticMlp } from '../src/core/mlp';
import { Rng } from '../src/core/rng';
import { defaultParams } from '../src/config/algorithm';
import { PPO } from '../src/config/algorithms/ppo';

export interface GpuProbeOptions {
  backends: string[];
  hidden: number[];
  batches: number[];
  repeats: number;
  cellBudgetMs: number;
}

export interface GpuProbeCell {
  backend: string;
  hidden: number;
  batch: number;
  /** Median ms of one PPO gradient step with its upload and metrics read; null when skipped. */
  learnMs: number | null;
  /** Median ms of one forward pass of `batch` rows with its read; null when skipped. */
  inferMs: number | null;
}

export interface GpuProbeResult {
  /** What the WebGPU adapter says about itself (null: no adapter). */
  adapter: { software: boolean; description: string } | null;
  cells: GpuProbeCell[];
  errors: string[];
}

const OBS_DIM = 4;
const ACTIONS = 2;

function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeMedian(repeats: number, f: () => Promise<void>): Promise<number> {
  await f();
  await f();
  const ms: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return medianOf(ms);
}

function syntheticBatch(rng: Rng, rows: number) {
  return {
    obs: Float32Array.from({ length: rows * OBS_DIM }, () => rng.normal()),
    actions: Int32Array.from({ length: rows }, () => rng.int(ACTIONS)),
    logProbs: new Float32Array(rows).fill(Math.log(1 / ACTIONS)),
    values: Float32Array.from({ length: rows }, () => rng.normal()),
    advantages: Float32Array.from({ length: rows }, () => rng.normal()),
    returns: Float32Array.from({ length: rows }, () => rng.normal()),
    batchSize: rows,
  };
}

export async function runGpuProbe(opts: GpuProbeOptions): Promise<GpuProbeResult> {
  const result: GpuProbeResult = { adapter: await webgpuAdapterInfo(), cells: [], errors: [] };
  for (const backend of opts.backends) {
    let started: string;
    try {
      started = (await tf.setBackend(backend)) ? 'ok' : 'the backend did not start';
      await tf.ready();
    } catch (e) {
      started = e instanceof Error ? e.message : String(e);
    }
    if (started !== 'ok') {
      result.errors.push(`${backend}: ${started}`);
      continue;
    }
    if (backend === 'wasm') installBlockedTransposedMatMul();
    try {
      for (const hidden of opts.hidden) {
        const model = new ActorCriticMlp({ obsDim: OBS_DIM, numActions: ACTIONS, hidden: [hidden, hidden], activation: 'tanh' }, 1);
        const ppo = new Ppo(model, { ...defaultParams(PPO.settings), updateEpochs: 1, numMinibatches: 1, lr: 3e-4 });
        let over = false;
        for (const batch of opts.batches) {
          if (over) {
            result.cells.push({ backend, hidden, batch, learnMs: null, inferMs: null });
            continue;
          }
          const data = syntheticBatch(new Rng(batch), batch);
          // learn() reads its metrics back, so each timing ends when the step has really run.
          const learnMs = await timeMedian(opts.repeats, async () => {
            ppo.learn(data);
          });
          const obs = tf.tensor2d(data.obs, [batch, OBS_DIM]);
          const inferMs = await timeMedian(opts.repeats, async () => {
            const out = tf.tidy(() => model.forward(obs));
            await Promise.all([out.logits.data(), out.value.data()]);
            tf.dispose([out.logits, out.value]);
          });
          obs.dispose();
          result.cells.push({ backend, hidden, batch, learnMs, inferMs });
          if (learnMs > opts.cellBudgetMs || inferMs > opts.cellBudgetMs) over = true;
        }
        ppo.dispose(); // and its model
      }
    } catch (e) {
      // A lost device or a kernel failure ends this backend, not the bench: the rest is still measured.
      result.errors.push(`${backend}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return result;
}
