/**
 * Offline-RL datasets: transitions (s, a, r, s', terminated) of one environment, saved from an
 * off-policy run's final policy (greedy and noisy episodes) and read by CQL and BC.
 *
 * File format, version 1: one JSON object
 *   { format: 'parl-dataset', version: 1, envId, obsDim, actionDim, size, source,
 *     obs, actions, rewards, nextObs, dones }
 * where each array field is the base64 of its little-endian typed array: Float32 for obs /
 * nextObs (size·obsDim), actions (size·actionDim) and rewards (size), Uint8 for dones (size).
 * `readDataset` refuses a file of another format or version, another environment, other sizes,
 * arrays of the wrong length or non-finite values, with a message naming what is wrong.
 */

import type { ExperimentConfig } from '../config/config';
import { descriptorOf } from '../config/registry';

export const DATASET_FORMAT = 'parl-dataset';
export const DATASET_VERSION = 1;

export interface Dataset {
  envId: string;
  obsDim: number;
  actionDim: number;
  size: number;
  /** How it was made (preset, seed, policy, episodes). */
  source: string;
  obs: Float32Array;
  actions: Float32Array;
  rewards: Float32Array;
  nextObs: Float32Array;
  dones: Uint8Array;
}

/** Episodes of the final policy a saved dataset holds (CLI --save-dataset and the page's button). */
export const SAVED_DATASET_EPISODES = 100;

/**
 * Whether a run can save its final policy's episodes as a dataset: an off-policy Box-action run
 * (DDPG, TD3, SAC), whose checkpoint is the actor network the dataset maker plays.
 */
export function canSaveDataset(config: ExperimentConfig): boolean {
  return descriptorOf(config.settings.algorithm).loop === 'offPolicyContinuous';
}

/** What the reader expects: the env the run trains on and its sizes. */
export interface DatasetExpectation {
  envId: string;
  obsDim: number;
  actionDim: number;
}

export class DatasetError extends Error {
  constructor(message: string) {
    super(`dataset: ${message}`);
    this.name = 'DatasetError';
  }
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function fromBase64(text: string, field: string): Uint8Array {
  let bin: string;
  try {
    bin = atob(text);
  } catch {
    throw new DatasetError(`${field} is not valid base64`);
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function floats(bytes: Uint8Array, field: string): Float32Array {
  if (bytes.length % 4 !== 0) throw new DatasetError(`${field} has ${bytes.length} bytes, not a whole number of float32 values`);
  // Copy into an aligned buffer: the decoded bytes may start at any offset.
  const out = new Float32Array(bytes.length / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

function bytesOf(a: Float32Array | Uint8Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** The file text of a dataset (checks its own arrays first). */
export function writeDataset(d: Dataset): string {
  checkArrays(d);
  return JSON.stringify({
    format: DATASET_FORMAT,
    version: DATASET_VERSION,
    envId: d.envId,
    obsDim: d.obsDim,
    actionDim: d.actionDim,
    size: d.size,
    source: d.source,
    obs: toBase64(bytesOf(d.obs)),
    actions: toBase64(bytesOf(d.actions)),
    rewards: toBase64(bytesOf(d.rewards)),
    nextObs: toBase64(bytesOf(d.nextObs)),
    dones: toBase64(bytesOf(d.dones)),
  });
}

function checkArrays(d: Dataset): void {
  if (!Number.isInteger(d.size) || d.size < 1) throw new DatasetError(`size must be a positive integer, got ${String(d.size)}`);
  const want: [string, Float32Array | Uint8Array, number][] = [
    ['obs', d.obs, d.size * d.obsDim],
    ['actions', d.actions, d.size * d.actionDim],
    ['rewards', d.rewards, d.size],
    ['nextObs', d.nextObs, d.size * d.obsDim],
    ['dones', d.dones, d.size],
  ];
  for (const [name, arr, len] of want) {
    if (arr.length !== len) throw new DatasetError(`${name} holds ${arr.length} values, expected ${len} (size ${d.size})`);
    for (let i = 0; i < len; i++) if (!Number.isFinite(arr[i])) throw new DatasetError(`${name}[${i}] is not finite`);
  }
}

/** Parse and validate a dataset file for the env a run trains on; throws DatasetError naming the problem. */
export function readDataset(text: string, expect: DatasetExpectation): Dataset {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new DatasetError('the file is not JSON');
  }
  if (!raw || typeof raw !== 'object') throw new DatasetError('the file is not a JSON object');
  const o = raw as Record<string, unknown>;
  if (o.format !== DATASET_FORMAT) throw new DatasetError(`format is ${JSON.stringify(o.format)}, expected "${DATASET_FORMAT}"`);
  if (o.version !== DATASET_VERSION) throw new DatasetError(`version ${JSON.stringify(o.version)} is not supported (this build reads version ${DATASET_VERSION})`);
  if (o.envId !== expect.envId) throw new DatasetError(`it was made on ${JSON.stringify(o.envId)}, but this run trains on ${expect.envId}`);
  if (o.obsDim !== expect.obsDim) throw new DatasetError(`obsDim is ${JSON.stringify(o.obsDim)}, but ${expect.envId} has ${expect.obsDim}`);
  if (o.actionDim !== expect.actionDim) throw new DatasetError(`actionDim is ${JSON.stringify(o.actionDim)}, but ${expect.envId} has ${expect.actionDim}`);
  for (const f of ['obs', 'actions', 'rewards', 'nextObs', 'dones']) {
    if (typeof o[f] !== 'string') throw new DatasetError(`${f} is missing or not a base64 string`);
  }
  const str = (f: string) => o[f] as string;
  const d: Dataset = {
    envId: expect.envId,
    obsDim: expect.obsDim,
    actionDim: expect.actionDim,
    size: typeof o.size === 'number' ? o.size : NaN,
    source: typeof o.source === 'string' ? o.source : '',
    obs: floats(fromBase64(str('obs'), 'obs'), 'obs'),
    actions: floats(fromBase64(str('actions'), 'actions'), 'actions'),
    rewards: floats(fromBase64(str('rewards'), 'rewards'), 'rewards'),
    nextObs: floats(fromBase64(str('nextObs'), 'nextObs'), 'nextObs'),
    dones: fromBase64(str('dones'), 'dones'),
  };
  checkArrays(d);
  return d;
}
