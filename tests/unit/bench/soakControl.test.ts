import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bareTfjsWorker, bareWebgpuWorker, parseParts, serveControl } from '../../../bench/soakControl';

describe('parseParts (--parts)', () => {
  it("gives each control kind's default parts, and the named ones in a fixed order", () => {
    expect(parseParts('bare-webgpu', undefined)).toEqual(['upload', 'uniform', 'bindgroup']);
    expect(parseParts('bare-tfjs', 'default')).toEqual(['train', 'forward']);
    expect(parseParts('bare-tfjs', 'trim,train,vary')).toEqual(['train', 'vary', 'trim']);
    expect(parseParts('bare-webgpu', 'pipelines, upload,upload')).toEqual(['upload', 'pipelines']);
    expect(parseParts('bare-webgpu', 'none')).toEqual([]);
  });

  it('refuses a part the kind does not have', () => {
    expect(() => parseParts('bare-webgpu', 'forward')).toThrow(/unknown --parts entry "forward" for bare-webgpu/);
    expect(() => parseParts('bare-tfjs', 'upload')).toThrow(/for bare-tfjs/);
  });
});

describe('control workers', () => {
  it('are valid scripts for every part', () => {
    // Compiled, not run: a syntax error in the generated source would only show in the browser.
    for (const parts of [[], ['upload', 'uniform', 'bindgroup'], ['barrier', 'pipelines']] as const) expect(() => new Function(bareWebgpuWorker(parts))).not.toThrow();
    expect(() => new Function(bareTfjsWorker(['train', 'forward', 'vary', 'trim', 'sync', 'ours'], { WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE: 1 }))).not.toThrow();
  });
});

describe('serveControl', () => {
  it('serves the page, the worker with its parts, the tfjs bundles for bare-tfjs, and 404 for the rest', async () => {
    const server = await serveControl('bare-tfjs', ['forward'], 0);
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const page = await fetch(`${base}/`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain("new Worker('/loop.js')");
      const loop = await (await fetch(`${base}/loop.js`)).text();
      expect(loop).toContain('new Set(["forward"])');
      expect(loop).toContain("importScripts('/tf.min.js', '/tf-backend-webgpu.min.js')");
      // The real bundles from node_modules: tfjs's UMD build defines the global `tf`.
      const tfjs = await (await fetch(`${base}/tf.min.js`)).text();
      expect(tfjs.length).toBeGreaterThan(100_000);
      expect((await fetch(`${base}/tf-backend-webgpu.min.js`)).status).toBe(200);
      expect((await fetch(`${base}/index.html`)).status).toBe(404);
    } finally {
      server.close();
    }
  });

  it("serves src/core/webgpuBufferPool.ts bundled as the global parlBackend for the part 'ours'", async () => {
    const server = await serveControl('bare-tfjs', ['train', 'ours'], 0);
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const code = await (await fetch(`${base}/parl-backend.js`)).text();
      // Run it against a stand-in for the global tf: it must define parlBackend with the functions the worker calls.
      const parlBackend = new Function('tf', `${code}; return parlBackend;`)({ util: {}, getBackend: () => 'cpu' }) as Record<string, unknown>;
      expect(typeof parlBackend.enableWebgpuSizeClasses).toBe('function');
      expect(typeof parlBackend.trimWebgpuBufferPool).toBe('function');
      expect((parlBackend.trimWebgpuBufferPool as () => number)()).toBe(0);
    } finally {
      server.close();
    }
  }, 60_000);

  it('serves no tfjs for bare-webgpu', async () => {
    const server = await serveControl('bare-webgpu', ['upload'], 0);
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await (await fetch(`${base}/loop.js`)).text()).toContain('new Set(["upload"])');
      expect((await fetch(`${base}/tf.min.js`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
