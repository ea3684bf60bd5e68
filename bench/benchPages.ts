/**
 * Pages the benchmarks serve without the app (the soak's control pages, the gpu bench): project code
 * bundled as a classic script, tfjs's own bundles read from node_modules, and a small http server
 * that serves them from memory.
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';

/** A file served from memory. */
export interface ServedFile {
  type: string;
  body: string | Buffer;
}

/**
 * One TypeScript entry bundled by vite as a single classic script (IIFE) defining `globalName`, with
 * tfjs left out and read from the global `tf` (the page loads tfjs's bundles itself).
 */
export async function bundleIife(entryUrl: URL, globalName: string): Promise<string> {
  const { build } = await import('vite');
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: false,
      lib: { entry: fileURLToPath(entryUrl), formats: ['iife'], name: globalName },
      // Dynamic imports of tfjs's backend packages stay unresolved: the page has tfjs's bundles already.
      rollupOptions: { external: [/^@tensorflow\//], output: { globals: (id: string) => (id === '@tensorflow/tfjs' ? 'tf' : 'undefined') } },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result) as { output: { code?: string }[] };
  const code = output.output[0]?.code;
  if (!code) throw new Error(`bundling ${entryUrl.pathname} gave no code`);
  return code;
}

/** The path of `file` in `pkg`'s dist folder (a tfjs package's bundles and wasm binaries). */
export function packageDist(pkg: string, file: string): string {
  return fileURLToPath(new URL(`../node_modules/${pkg}/dist/${file}`, import.meta.url));
}

/** Serves `files` by path on 127.0.0.1:`port` (404 for anything else); resolves once it listens. */
export function serveFiles(files: Readonly<Record<string, ServedFile>>, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
