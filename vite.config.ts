/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';

// The tfjs wasm binaries are served by the app itself (never from a CDN): in dev from
// node_modules, and copied into the build under the same path.
const WASM_PREFIX = '/tfjs-wasm/';
function tfjsWasmBinaries(): Plugin {
  const require = createRequire(import.meta.url);
  const distDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
  const files = readdirSync(distDir).filter((f) => f.endsWith('.wasm'));
  return {
    name: 'tfjs-wasm-binaries',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url?.split('?')[0] ?? '';
        if (!url.startsWith(WASM_PREFIX)) return next();
        const name = url.slice(WASM_PREFIX.length);
        if (!files.includes(name)) return next();
        res.setHeader('Content-Type', 'application/wasm');
        res.end(readFileSync(join(distDir, name)));
      });
    },
    generateBundle() {
      for (const name of files) {
        this.emitFile({ type: 'asset', fileName: `tfjs-wasm/${name}`, source: readFileSync(join(distDir, name)) });
      }
    },
  };
}

/**
 * The built app's Content-Security-Policy, as a meta tag (the preview server and static hosts
 * serve it with the page). Only the app's own scripts, workers and wasm run: 'wasm-unsafe-eval'
 * lets the tfjs wasm backend compile its binary, blob: workers are allowed for tfjs, data: images
 * are the PNG export's SVG snapshots. Dev keeps no policy: Vite's HMR injects inline scripts.
 *
 * connect-src: the Cluster panel opens a WebSocket to whatever cluster the user names, which a
 * static policy cannot know, so it allows what a cluster can be (src/cluster/serverConfig.ts):
 * plain ws:// only to this machine (the server refuses ws:// off loopback; any port, as
 * `npm run cluster -- --ws-port` picks one) and wss:// to any host (TLS-only off loopback).
 * Nothing else: no http(s) beyond 'self'. IPv6 loopback ([::1]) is left out: CSP host sources
 * cannot name an IPv6 address.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:* wss:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  plugins: [react(), tfjsWasmBinaries(), contentSecurityPolicy()],
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // Limits that catch a hang, not speed bounds: on a loaded 2-core machine a CLI spawned by a test starts 10x slower.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two test files at a time even on a 2-core machine (Vitest's default is one fewer than the
    // cores: one here). Much of a file's time is spent waiting on its worker threads, child
    // processes and nats-server, so a second file keeps the cores busy meanwhile.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
