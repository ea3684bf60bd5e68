/** How every cluster client connects, over TCP (Node) or WebSocket (browser): reconnect for ever, quickly. */
export const RECONNECTING = {
  reconnect: true,
  maxReconnectAttempts: -1,
  reconnectTimeWait: 250,
  reconnectJitter: 50,
  pingInterval: 5_000,
} as const;

/** Give up the first connection after this long, unless the caller says otherwise. */
export const FIRST_CONNECT_TIMEOUT_MS = 10_000;
