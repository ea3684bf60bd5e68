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

/** Takes `--cluster URL` and `--creds FILE` out of `argv` (train's other flags stay); both or neither. */
export function takeClusterFlags(argv: readonly string[]): { rest: string[]; cluster: { server: string; creds: string } | null } {
  const rest: string[] = [];
  let server: string | undefined;
  let creds: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag !== '--cluster' && flag !== '--creds') {
      rest.push(flag);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    if ((flag === '--cluster' ? server : creds) !== undefined) throw new Error(`${flag} is given more than once`);
    if (flag === '--cluster') server = value;
    else creds = value;
    i++;
  }
  if ((server === undefined) !== (creds === undefined)) throw new Error('--cluster URL and --creds FILE go together');
  return { rest, cluster: server !== undefined && creds !== undefined ? { server, creds } : null };
}
