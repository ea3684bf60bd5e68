/** The built app for the page benchmarks: `vite build` when asked (or missing), then `vite preview` on a port. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Builds into `outDir` (vite's default dist/ when undefined) unless `reuse` and a build is already there. */
export function buildApp(outDir: string | undefined, reuse: boolean): void {
  if (reuse && existsSync(`${outDir ?? 'dist'}/index.html`)) return;
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', ...(outDir ? ['--outDir', outDir] : [])], { stdio: 'inherit' });
  if (b.status !== 0) throw new Error('vite build failed');
}

export interface PreviewServer {
  base: string;
  stop(): void;
}

/** Serves the build on 127.0.0.1:`port` and resolves once it answers (or rejects after 30 s, server stopped). */
export async function startPreview(port: number, outDir?: string): Promise<PreviewServer> {
  const server = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', ...(outDir ? ['--outDir', outDir] : [])], { stdio: 'ignore', detached: true });
  // Detached: the npx wrapper and vite are one process group, stopped together.
  const stop = (): void => {
    if (server.pid) process.kill(-server.pid);
  };
  const base = `http://127.0.0.1:${port}/`;
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(base)).ok) return { base, stop };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`vite preview did not answer at ${base}`);
}
