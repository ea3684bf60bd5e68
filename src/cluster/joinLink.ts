/**
 * The join link for browser tabs: the app's address with `#join=<WebSocket URL>&token=<token>`
 * (what `npm run cluster` prints). It is separate from the experiment's share link (`#x=...`),
 * which never carries the token. Opening it fills the page's Cluster panel; the page takes the
 * fragment out of the address bar at once, so the token is not left in the tab's URL either.
 */
import { isLoopback } from './loopback';

/** The token format `npm run cluster` generates (32+ random bytes, base64url), as the creds file checks it. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43,512}$/;

export interface JoinTarget {
  /** ws:// (loopback only) or wss:// URL of the cluster's WebSocket listener. */
  url: string;
  token: string;
}

/** Why a server URL cannot be used from a page, or null when it can. */
export function wsUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${JSON.stringify(url.slice(0, 80))} is not a URL (expected ws://127.0.0.1:8443 or wss://host:port)`;
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return `the cluster's browser address starts with ws:// or wss://, not ${u.protocol}//`;
  if (u.username || u.password) return 'put the token in the token field, not in the URL';
  // The page's CSP cannot name an IPv6 address (vite.config.ts).
  if (u.hostname === '[::1]') return 'use ws://127.0.0.1:PORT instead of [::1] (the page may only open loopback sockets by name or IPv4)';
  // The server refuses plain ws:// off loopback, and the page's CSP only allows it there.
  if (u.protocol === 'ws:' && !isLoopback(u.hostname)) return `plain ws:// is only for this machine (loopback); ${u.hostname} needs wss:// (npm run cluster -- --listen ... --tls-cert ... --tls-key ...)`;
  return null;
}

/** Why a token cannot be right, or null. */
export function tokenProblem(token: string): string | null {
  return TOKEN_PATTERN.test(token) ? null : 'the token is the 43+ letters, digits, - and _ after token= in the join link';
}

/** The join link for `target` on the app at `appUrl` (any fragment of appUrl is dropped). */
export function joinLinkFor(appUrl: string, target: JoinTarget): string {
  const base = appUrl.split('#')[0];
  return `${base}#join=${encodeURIComponent(target.url)}&token=${target.token}`;
}

/**
 * The join target in a URL fragment (with or without the '#'): null when the fragment is not a
 * join link; `{ problem }` when it is one but unusable (the page says why).
 */
export function parseJoinFragment(fragment: string): JoinTarget | { problem: string } | null {
  const params = new URLSearchParams(fragment.startsWith('#') ? fragment.slice(1) : fragment);
  const url = params.get('join');
  if (url === null) return null;
  const token = params.get('token') ?? '';
  const problem = wsUrlProblem(url) ?? tokenProblem(token);
  return problem ? { problem: `This join link cannot be used: ${problem}.` } : { url, token };
}
