// Two ways a test runs a command line tool: in this process (its exported command function, output
// captured: milliseconds), or as the real binary in a child process (what `npm run NAME` starts:
// node with the tsx loader, about a second of start-up and TypeScript loading each time).
import { execFile, spawnSync } from 'node:child_process';
import { vi } from 'vitest';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const repoRoot = new URL('../../../', import.meta.url).pathname;

/** Runs `command` in this process with process.stdout and process.stderr captured. */
export async function inProcess(command: () => Promise<number>): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    return { code: await command(), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

// `node --import tsx FILE`, as the npm scripts run it; not `npx tsx`, whose wrapper adds a second
// process and npx's own start-up to every call.
const nodeArgs = (script: string, args: string[]) => ['--import', 'tsx', script, ...args];

/** Runs the TypeScript entry `script` (relative to the repository root) as a child process and waits for it. */
export function spawnScriptSync(script: string, args: string[], timeout = 120_000): CommandResult {
  const r = spawnSync(process.execPath, nodeArgs(script, args), { cwd: repoRoot, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** As spawnScriptSync, without blocking: several can run side by side. */
export function spawnScript(script: string, args: string[], timeout = 120_000): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, nodeArgs(script, args), { cwd: repoRoot, encoding: 'utf8', timeout }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}
