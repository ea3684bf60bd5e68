/**
 * Makes an offline-RL dataset from a trained Box-action policy: whole episodes played in-process
 * (no workers) with the final actor weights, split evenly over the parts of a mix:
 * - mixed (the default): greedy, Gaussian noise σ = 0.3 and σ = 1 on the tanh scale, and uniformly
 *   random actions. Data of every quality that covers the action space, where imitating the average
 *   (behaviour cloning) does worse than picking the best actions the data shows (CQL).
 * - medium (after D4RL's medium split): one partly trained policy's own actions, greedy and with
 *   σ = 0.1 noise only. Narrow data, where Q on actions the data never tried is unchecked: the case
 *   CQL's conservative term is for (Kumar et al. 2020).
 */
import type { ExperimentConfig } from '../config/config';
import { descriptorOf } from '../config/registry';
import { decodeCheckpoint } from '../core/checkpoint';
import { writeDataset, type Dataset } from '../runs/dataset';
import { continuousNetFor } from './continuousLearner';
import type { ExploreMode } from './continuousPolicy';
import { ContinuousRolloutActor } from './continuousRolloutActor';

export interface DatasetMixPart {
  label: string;
  mode: ExploreMode;
}

const GREEDY: DatasetMixPart = { label: 'greedy', mode: { random: false, noise: 0, sample: false } };
const noisy = (sigma: number): DatasetMixPart => ({ label: `σ ${sigma}`, mode: { random: false, noise: sigma, sample: false } });

export const DATASET_MIXES = {
  mixed: [GREEDY, noisy(0.3), noisy(1), { label: 'uniform', mode: { random: true, noise: 0, sample: false } }],
  medium: [GREEDY, noisy(0.1)],
} as const satisfies Record<string, readonly DatasetMixPart[]>;

export type DatasetMixName = keyof typeof DATASET_MIXES;
export const DATASET_MIX_NAMES = Object.keys(DATASET_MIXES) as DatasetMixName[];

/** The default mix, what every dataset made before the mix option was made of. */
export const DATASET_MIX: readonly DatasetMixPart[] = DATASET_MIXES.mixed;

export function isDatasetMixName(name: string): name is DatasetMixName {
  return Object.hasOwn(DATASET_MIXES, name);
}

export interface MadeDataset {
  dataset: Dataset;
  /** Mean return of each part of the mix, by label. */
  meanReturns: Record<string, number>;
}

/** `episodes` episodes (split evenly over the mix's parts, earlier parts taking the remainder) of the policy with the given actor weights. */
export async function datasetFromPolicy(config: ExperimentConfig, weights: Float32Array[], episodes: number, mixName: DatasetMixName = 'mixed'): Promise<MadeDataset> {
  const mix: readonly DatasetMixPart[] = DATASET_MIXES[mixName];
  const s = config.settings;
  const d = descriptorOf(s.algorithm);
  const module = await d.load?.();
  if (module?.kind !== 'continuous') throw new Error(`a dataset needs a Box-action algorithm (DDPG, TD3, SAC), not ${d.label}`);
  const net = continuousNetFor(config);
  const actor = new ContinuousRolloutActor({ envId: s['env.id'], numEnvs: 1, seed: s.seed, actorIndex: 0, policy: module.policy, net });
  actor.setWeights(weights, 0);
  const parts = mix.map((m, i) => {
    const k = Math.floor(episodes / mix.length) + (i < episodes % mix.length ? 1 : 0);
    const r = actor.rollEpisodes(null, k, m.mode, true);
    return { label: m.label, rollout: r };
  });
  const chunks = parts.flatMap((p) => (p.rollout.transitions ? [p.rollout.transitions] : []));
  const size = chunks.reduce((n, c) => n + c.steps, 0);
  const cat = <T extends Float32Array | Uint8Array>(pick: (c: (typeof chunks)[number]) => T, make: (n: number) => T, width: number): T => {
    const out = make(size * width);
    let at = 0;
    for (const c of chunks) {
      out.set(pick(c), at);
      at += c.steps * width;
    }
    return out;
  };
  const meanReturns: Record<string, number> = {};
  for (const p of parts) meanReturns[p.label] = p.rollout.returns.reduce((a, b) => a + b, 0) / Math.max(p.rollout.returns.length, 1);
  const dataset: Dataset = {
    envId: s['env.id'],
    obsDim: net.obsDim,
    actionDim: net.actionDim,
    size,
    source: `${config.preset} (${s.algorithm}, seed ${s.seed}): ${episodes} episodes of the final policy${sourceNote(config, mixName)}, ${mix.map((m) => m.label).join(' / ')}`,
    obs: cat((c) => c.obs, (n) => new Float32Array(n), net.obsDim),
    actions: cat((c) => c.actions, (n) => new Float32Array(n), net.actionDim),
    rewards: cat((c) => c.rewards, (n) => new Float32Array(n), 1),
    nextObs: cat((c) => c.nextObs, (n) => new Float32Array(n), net.obsDim),
    dones: cat((c) => c.dones, (n) => new Uint8Array(n), 1),
  };
  return { dataset, meanReturns };
}

/** What the source line says beyond the default mix's wording (which stays as it was). */
function sourceNote(config: ExperimentConfig, mixName: DatasetMixName): string {
  if (mixName === 'mixed') return '';
  const steps = config.settings['run.envSteps'];
  return ` (budget ${typeof steps === 'number' ? steps : '?'} env steps, mix ${mixName})`;
}

/** The actor weights in a checkpoint (what the off-policy loops checkpoint: the actor network). */
export function actorWeightsOf(checkpoint: Uint8Array): Float32Array[] {
  return decodeCheckpoint(checkpoint).weights;
}

/** A dataset as file text, with a one-line account of it: what `--save-dataset` and the page's button write. */
export interface DatasetFile {
  text: string;
  size: number;
  summary: string;
}

/** `episodes` episodes of the policy in a checkpoint (the run's final weights), as dataset file text. */
export async function datasetFileFromCheckpoint(config: ExperimentConfig, checkpoint: Uint8Array, episodes: number, mixName: DatasetMixName = 'mixed'): Promise<DatasetFile> {
  const { dataset, meanReturns } = await datasetFromPolicy(config, actorWeightsOf(checkpoint), episodes, mixName);
  const text = writeDataset(dataset);
  const parts = Object.entries(meanReturns).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  return { text, size: dataset.size, summary: `${dataset.size} transitions of ${dataset.envId} (${(text.length / 1e6).toFixed(2)} MB); mean returns ${parts}` };
}
