/** How every cluster client connects, over TCP (Node) or WebSocket (browser): reconnect for ever, quickly. */
export const RECONNECTING = {
  reconnect: true,
  maxReconnectAttempts: -1,
  reconnectTimeWait: 250,
  reconnectJitter: 50,
  pingInterval: 5_000,
} as const;

/**
 * No async stack trace per request: the client would build two Error objects (a stack capture
 * each) for every request, a JetStream publish included; profiled, 3-4% of an actor host's CPU
 * with small segments. Errors keep their message, which is what the cluster reports.
 */
export const LEAN_REQUESTS = { noAsyncTraces: true } as const;

/** Give up the first connection after this long, unless the caller says otherwise. */
export const FIRST_CONNECT_TIMEOUT_MS = 10_000;
