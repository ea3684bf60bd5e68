/**
 * The browser tabs' WebSocket door: checks each upgrade's page origin against the allowed list
 * (scheme, host and port, all of them), then relays the connection byte for byte to nats-server's
 * own WebSocket listener on loopback.
 *
 * Why not nats-server's `allowed_origins` alone: nats-server 2.9 keeps one port per host name in
 * that list (a later entry for the same host overwrites an earlier one), so the dev server's
 * `http://localhost:5173` and the preview's `http://localhost:4173` cannot both be allowed. Behind
 * the gate, nats-server allows a single origin that no page can have ({@link GATE_ORIGIN}): the
 * gate writes it into every request it lets through, so a page that finds the inner port directly
 * is still refused there.
 *
 * A request without an Origin header (a Node client, not a browser) is let through, as nats-server
 * does; the token is checked by nats-server either way.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Duplex } from 'node:stream';

/** The one origin nats-server's own listener accepts: `.invalid` never resolves, so no page has it. */
export const GATE_ORIGIN = 'http://origin-gate.invalid';

/** `scheme://host:port`, with the scheme's default port written out; null when it is not an http(s) origin. */
export function normalizeOrigin(origin: string): string | null {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.protocol}//${u.hostname.toLowerCase()}:${port}`;
}

export interface OriginGateOptions {
  host: string;
  /** 0: a free port. */
  port: number;
  /** Page origins allowed to open the WebSocket (none: no page may). */
  allowedOrigins: readonly string[];
  /** nats-server's WebSocket listener (loopback, no TLS). */
  target: { host: string; port: number };
  /** PEM files: the gate speaks wss. */
  tlsCert?: string;
  tlsKey?: string;
}

export interface OriginGate {
  readonly port: number;
  close(): Promise<void>;
}

/** The origins list, normalized; throws on an entry that is not an http(s) origin. */
export function originSet(origins: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const o of origins) {
    const n = normalizeOrigin(o);
    if (n === null) throw new Error(`not a page origin (http://HOST:PORT or https://HOST:PORT): ${JSON.stringify(o)}`);
    out.add(n);
  }
  return out;
}

/** Whether a browser with this Origin header (undefined: not a browser) may open the WebSocket. */
export function originAllowed(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (header === undefined) return true;
  const n = normalizeOrigin(header);
  return n !== null && allowed.has(n);
}

/** The upgrade request as nats-server gets it: the same, with the gate's origin in place of the page's. */
function relayedHead(req: IncomingMessage): string {
  const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`];
  const raw = req.rawHeaders;
  let origin = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (name === 'origin' || name === 'sec-websocket-origin') {
      if (!origin) lines.push(`Origin: ${GATE_ORIGIN}`);
      origin = true;
      continue;
    }
    lines.push(`${raw[i]}: ${raw[i + 1]}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function startOriginGate(o: OriginGateOptions): Promise<OriginGate> {
  const allowed = originSet(o.allowedOrigins);
  const tls = o.tlsCert !== undefined && o.tlsKey !== undefined;
  const server: Server = tls ? createHttpsServer({ cert: readFileSync(o.tlsCert ?? ''), key: readFileSync(o.tlsKey ?? '') }) : createHttpServer();
  const open = new Set<Duplex>();
  const track = (s: Duplex): void => {
    open.add(s);
    s.once('close', () => open.delete(s));
  };
  server.on('request', (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('a NATS WebSocket: connect with ws:// or wss://\n');
  });
  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const header = req.headers.origin ?? (req.headers['sec-websocket-origin'] as string | undefined);
    if (!originAllowed(header, allowed)) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nthis page origin may not open the cluster\'s WebSocket\n');
      return;
    }
    const inner: Socket = connect(o.target.port, o.target.host);
    track(inner);
    inner.setNoDelay(true);
    inner.once('connect', () => {
      inner.write(relayedHead(req));
      if (head.byteLength) inner.write(head);
      inner.pipe(client);
      client.pipe(inner);
    });
    inner.on('error', () => client.destroy());
    client.once('close', () => inner.destroy());
    inner.once('close', () => client.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve({
        port: typeof addr === 'object' && addr ? addr.port : o.port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of open) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
