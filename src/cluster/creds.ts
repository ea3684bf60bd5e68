/**
 * The credentials file `npm run cluster` writes (mode 0600) and hosts and learners read:
 * `{ "version": 1, "servers": ["nats://127.0.0.1:4222"], "token": "...", "ws": "ws://127.0.0.1:8443" }`.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

export const credsSchema = z.strictObject({
  version: z.literal(1),
  servers: z.array(z.string().max(512)).min(1).max(16),
  token: z.string().regex(/^[A-Za-z0-9_-]{43,512}$/),
  ws: z.string().max(512).nullable(),
});
export type ClusterCreds = z.infer<typeof credsSchema>;

export function writeCreds(path: string, creds: ClusterCreds): void {
  writeFileSync(path, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its mode on write
}

export function readCreds(path: string): ClusterCreds {
  const st = statSync(path);
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
