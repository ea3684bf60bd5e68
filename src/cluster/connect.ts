/** Connecting a Node process to the cluster: token auth, reconnecting for ever. */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { FIRST_CONNECT_TIMEOUT_MS, LEAN_REQUESTS, RECONNECTING } from './connectionOptions';

export interface ConnectOptions {
  servers: string | string[];
  token: string;
  name: string;
  /** PEM file of the CA that signed the server's certificate (self-signed clusters). */
  tlsCa?: string;
  /** Give up the first connection after this long (default 10000 ms). */
  timeoutMs?: number;
}

export function connectCluster(o: ConnectOptions): Promise<NatsConnection> {
  return connect({
    servers: o.servers,
    token: o.token,
    name: o.name,
    timeout: o.timeoutMs ?? FIRST_CONNECT_TIMEOUT_MS,
    ...RECONNECTING,
    ...LEAN_REQUESTS,
    ...(o.tlsCa ? { tls: { caFile: o.tlsCa } } : {}),
  });
}
