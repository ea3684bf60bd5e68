/**
 * Connecting a browser tab or Web Worker to the cluster's WebSocket listener: token auth,
 * reconnecting for ever (like connect.ts does for Node over TCP).
 */
import { wsconnect, type NatsConnection } from '@nats-io/nats-core';
import { FIRST_CONNECT_TIMEOUT_MS, LEAN_REQUESTS, RECONNECTING } from './connectionOptions';
import { tokenProblem, wsUrlProblem } from './joinLink';

export interface WsConnectOptions {
  url: string;
  token: string;
  name: string;
  /** Give up the first connection after this long (default 10000 ms). */
  timeoutMs?: number;
}

/**
 * A WebSocket whose close() says 1000 (normal closure) when the client gives no code. The
 * client closes without a status, and nats-server before 2.10.24 (Debian ships 2.9.10) echoes
 * that as the reserved status 1005, which Chromium reports as a broken close frame on the
 * console (nats-io/nats-server#6259); with 1000 sent, 1000 comes back.
 */
function normallyClosingSocket(url: string): Promise<{ socket: WebSocket; encrypted: boolean }> {
  const socket = new WebSocket(url);
  const close = socket.close.bind(socket);
  socket.close = (code?: number, reason?: string) => close(code ?? 1000, reason);
  return Promise.resolve({ socket, encrypted: url.startsWith('wss://') });
}

export function connectClusterWs(o: WsConnectOptions): Promise<NatsConnection> {
  const problem = wsUrlProblem(o.url) ?? tokenProblem(o.token);
  if (problem) return Promise.reject(new Error(problem));
  return wsconnect({
    servers: [o.url],
    token: o.token,
    name: o.name.slice(0, 256),
    timeout: o.timeoutMs ?? FIRST_CONNECT_TIMEOUT_MS,
    ...RECONNECTING,
    ...LEAN_REQUESTS,
    wsFactory: normallyClosingSocket,
  });
}
