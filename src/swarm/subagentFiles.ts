/**
 * Loading the shipped subagent checkpoints (public/subagents/<name>.ckpt): from the file in Node,
 * by fetch in the browser (the app serves public/ at its root). A missing or malformed file is a
 * SubagentCheckpointError that names the file and what is wrong.
 */
import type { Checkpoint } from '../core/checkpoint';
import { isNode } from '../core/backend';
import { SubagentCheckpointError, decodeSubagentCheckpoint } from './subagents';

export const SUBAGENT_CHECKPOINTS = ['small', 'large', 'small-u10', 'large-u50', 'large-u100'] as const;
export type SubagentCheckpointName = (typeof SUBAGENT_CHECKPOINTS)[number];

async function readBytes(name: string): Promise<{ bytes: Uint8Array | null; where: string }> {
  if (isNode()) {
    const fsName = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    const url = new URL(`../../public/subagents/${name}.ckpt`, import.meta.url);
    try {
      const buf = await fs.readFile(url);
      return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), where: url.pathname };
    } catch {
      return { bytes: null, where: url.pathname };
    }
  }
  const where = `/subagents/${name}.ckpt`;
  const res = await fetch(where);
  return { bytes: res.ok ? new Uint8Array(await res.arrayBuffer()) : null, where };
}

/** Load and validate a named subagent checkpoint (or a file path in Node when `name` ends in .ckpt). */
export async function loadSubagentCheckpoint(name: string): Promise<Checkpoint> {
  if (name.endsWith('.ckpt') && isNode()) {
    const fsName = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    let bytes: Uint8Array | null;
    try {
      const buf = await fs.readFile(name);
      bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch {
      bytes = null;
    }
    return decodeSubagentCheckpoint(bytes, name);
  }
  if (!(SUBAGENT_CHECKPOINTS as readonly string[]).includes(name)) {
    throw new SubagentCheckpointError(`subagent checkpoint "${name}" is unknown (known: ${SUBAGENT_CHECKPOINTS.join(', ')})`);
  }
  const { bytes, where } = await readBytes(name);
  return decodeSubagentCheckpoint(bytes, where);
}
