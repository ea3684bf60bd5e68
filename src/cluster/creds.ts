/**
 * The credentials file `npm run cluster` writes (mode 0600) and hosts and learners read:
 * `{ "version": 1, "servers": ["nats://127.0.0.1:4222"], "token": "...", "ws": "ws://127.0.0.1:8443" }`.
 * By default it goes to `.parl/cluster.creds` in the checkout: a folder of its own (mode 0700) that
 * git ignores, so the token is never one `git add -A` away from a commit.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

export const credsSchema = z.strictObject({
  version: z.literal(1),
  servers: z.array(z.string().max(512)).min(1).max(16),
  token: z.string().regex(/^[A-Za-z0-9_-]{43,512}$/),
  ws: z.string().max(512).nullable(),
});
export type ClusterCreds = z.infer<typeof credsSchema>;

/** Where `npm run cluster` writes the credentials without --creds: `.parl/cluster.creds` under `root`. */
export function defaultCredsPath(root: string): string {
  return join(root, '.parl', 'cluster.creds');
}

const errCode = (err: unknown): string => (typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : String(err));

/**
 * Checks, before the cluster starts, that the credentials can be written at `path` (creating its
 * folder, mode 0700, when `makeFolder`): throws a one-line reason naming --creds otherwise.
 */
export function prepareCredsPath(path: string, makeFolder: boolean): void {
  const folder = dirname(path);
  if (makeFolder) {
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new Error(`cannot create the folder ${folder} for the credentials (${errCode(err)}): pass --creds FILE in a folder you can write`, { cause: err });
    }
  }
  let existing: ReturnType<typeof lstatSync> | null;
  try {
    existing = lstatSync(path);
  } catch {
    existing = null;
  }
  if (existing?.isDirectory()) throw new Error(`--creds ${path} is a folder: name a file, such as ${join(path, 'cluster.creds')}`);
  if (existing && !existing.isFile()) throw new Error(`--creds ${path} is not a regular file: name a file to write the credentials to`);
  let folderIsOne: boolean;
  try {
    folderIsOne = statSync(folder).isDirectory();
  } catch {
    folderIsOne = false;
  }
  if (!folderIsOne) throw new Error(`--creds ${path}: the folder ${folder} does not exist`);
  try {
    closeSync(openSync(path, 'a', 0o600));
    if (!existing) unlinkSync(path);
  } catch (err) {
    throw new Error(`--creds ${path} cannot be written (${errCode(err)}): pass --creds FILE in a folder you can write`, { cause: err });
  }
}

export function writeCreds(path: string, creds: ClusterCreds): void {
  writeFileSync(path, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its mode on write
}

export function readCreds(path: string): ClusterCreds {
  const st = statSync(path);
  if (st.isDirectory()) throw new Error(`${path} is a folder, not a cluster credentials file`);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new Error(`${path} can be read by other users (mode ${(st.mode & 0o777).toString(8)}); run 'chmod 600 ${path}'`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(`${path} is not a cluster credentials file (not JSON)`);
  }
  const parsed = credsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} is not a cluster credentials file: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}
