/**
 * Where an offline run's dataset comes from: the datasets the app ships in public/datasets/, by
 * name. In Node they are read from that folder; in the page they are fetched from the app, next to
 * the tfjs wasm binaries (`platform.wasmPaths` is `<app>/tfjs-wasm/`).
 */
import { readDataset, type Dataset, type DatasetExpectation } from '../runs/dataset';
import type { TrainerPlatform } from './loops/types';

export function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

/** The file text of a shipped dataset. */
export async function datasetText(name: string, platform: TrainerPlatform): Promise<string> {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`dataset name ${JSON.stringify(name)} is not a plain file name`);
  const file = `${name}.json`;
  if (platform.wasmPaths) {
    const url = platform.wasmPaths.replace(/tfjs-wasm\/?$/, 'datasets/') + file;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`dataset ${file}: HTTP ${res.status} from ${url}`);
    return res.text();
  }
  if (!isNode()) throw new Error('dataset: no place to load it from (no app URL and not in Node)');
  const fsModule = 'node:fs/promises'; // a variable: the page's bundler must not follow it
  const fs = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs/promises');
  return fs.readFile(`public/datasets/${file}`, 'utf8');
}

export async function loadDataset(name: string, expect: DatasetExpectation, platform: TrainerPlatform): Promise<Dataset> {
  return readDataset(await datasetText(name, platform), expect);
}
