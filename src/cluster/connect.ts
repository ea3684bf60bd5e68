/** Connecting a Node process to the cluster: token auth, reconnecting for ever. */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';

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
    timeout: o.timeoutMs ?? 10_000,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    reconnectJitter: 50,
    pingInterval: 5_000,
    ...(o.tlsCa ? { tls: { caFile: o.tlsCa } } : {}),
  });
}
