import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type RunningNatsServer } from '../../../src/cluster/natsServer';
import { normalizeOrigin } from '../../../src/cluster/originGate';
import { DEFAULT_PAGE_ORIGINS, generateToken } from '../../../src/cluster/serverConfig';

interface Upgrade {
  status: number;
  /** The first bytes the server sent after switching protocols (nats-server's INFO frame). */
  first: string;
}

/** A real WebSocket upgrade (what a browser sends), with this page origin (undefined: none, as a Node client). */
function upgrade(port: number, origin: string | undefined): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/',
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('0123456789abcdef').toString('base64'),
        ...(origin !== undefined ? { Origin: origin } : {}),
      },
    });
    req.once('upgrade', (res, socket, head: Buffer) => {
      if (head.byteLength) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0, first: head.toString('latin1') });
      }
      socket.once('data', (d: Buffer) => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, first: d.toString('latin1') });
      });
    });
    req.once('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, first: '' });
    });
    req.once('error', reject);
    req.end();
  });
}

describe("the cluster's WebSocket: which pages may open it", () => {
  let server: RunningNatsServer;

  beforeAll(async () => {
    server = await startNatsServer({ host: '127.0.0.1', port: -1, wsPort: -1, token: generateToken(), allowedOrigins: [...DEFAULT_PAGE_ORIGINS] });
  }, 20_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('lets the dev server (5173) and the preview (4173) in, by name and by address, through to nats-server', async () => {
    expect(DEFAULT_PAGE_ORIGINS).toEqual(expect.arrayContaining(['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173', 'http://127.0.0.1:4173']));
    for (const origin of DEFAULT_PAGE_ORIGINS) {
      const r = await upgrade(server.wsPort ?? 0, origin);
      expect({ origin, status: r.status }).toEqual({ origin, status: 101 });
      expect(r.first).toContain('INFO ');
    }
  });

  it('refuses any other page: another port, another host, another scheme', async () => {
    for (const origin of ['http://localhost:5174', 'http://localhost', 'https://localhost:5173', 'http://evil.example:5173', 'null']) {
      expect({ origin, status: (await upgrade(server.wsPort ?? 0, origin)).status }).toEqual({ origin, status: 403 });
    }
  });

  it('lets a client without an Origin header (Node) through, as nats-server does', async () => {
    expect((await upgrade(server.wsPort ?? 0, undefined)).status).toBe(101);
  });

  it('origins compare by scheme, host and port, default ports written out', () => {
    expect(normalizeOrigin('http://LocalHost:80')).toBe('http://localhost:80');
    expect(normalizeOrigin('http://localhost')).toBe('http://localhost:80');
    expect(normalizeOrigin('https://localhost')).toBe('https://localhost:443');
    expect(normalizeOrigin('file:///x')).toBeNull();
    expect(normalizeOrigin('null')).toBeNull();
  });

  it('refuses a bad --origin entry before starting anything', async () => {
    await expect(startNatsServer({ host: '127.0.0.1', port: -1, wsPort: -1, token: generateToken(), allowedOrigins: ['localhost:5173'] })).rejects.toThrow(/not a page origin/);
  });
});
