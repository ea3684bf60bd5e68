import { MAX_PACK } from './protocol';

/** `--flag value` parsing for the cluster commands: known flags only, each at most once. */
export function parseFlags(argv: readonly string[], known: readonly string[], booleans: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!known.includes(flag) && !booleans.includes(flag)) throw new Error(`unknown flag ${JSON.stringify(flag)} (known: ${[...known, ...booleans].join(', ')})`);
    if (out.has(flag)) throw new Error(`${flag} is given more than once`);
    if (booleans.includes(flag)) {
      out.set(flag, 'true');
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    out.set(flag, value);
    i++;
  }
  return out;
}

export function intFlag(flags: Map<string, string>, name: string, fallback: number, min: number, max: number): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

export interface ClusterFlags {
  server: string;
  creds: string;
  /** `--cluster-pack K`: segments per stream message (absent: the default for the run's segment size). */
  pack?: number;
}

/**
 * Takes `--cluster URL`, `--creds FILE` and `--cluster-pack K` out of `argv` (train's other flags
 * stay); the first two both or neither, the third only with them.
 */
export function takeClusterFlags(argv: readonly string[]): { rest: string[]; cluster: ClusterFlags | null } {
  const rest: string[] = [];
  const got = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag !== '--cluster' && flag !== '--creds' && flag !== '--cluster-pack') {
      rest.push(flag);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    if (got.has(flag)) throw new Error(`${flag} is given more than once`);
    got.set(flag, value);
    i++;
  }
  const server = got.get('--cluster');
  const creds = got.get('--creds');
  if ((server === undefined) !== (creds === undefined)) throw new Error('--cluster URL and --creds FILE go together');
  if (server === undefined || creds === undefined) {
    if (got.has('--cluster-pack')) throw new Error('--cluster-pack goes with --cluster URL and --creds FILE');
    return { rest, cluster: null };
  }
  const pack = got.has('--cluster-pack') ? intFlag(got, '--cluster-pack', 1, 1, MAX_PACK) : undefined;
  return { rest, cluster: { server, creds, ...(pack !== undefined ? { pack } : {}) } };
}
