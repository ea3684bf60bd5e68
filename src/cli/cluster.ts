/**
 * Starts a cluster: `npm run cluster -- [--listen HOST] [--port N] [--ws-port N] [--creds FILE]
 * [--origin URL[,URL...]] [--app URL] [--tls-cert FILE --tls-key FILE]`.
 *
 * Runs nats-server (JetStream on) with a generated config and a fresh token of 32 random bytes,
 * on loopback unless --listen says otherwise (then TLS is required), with a WebSocket listener
 * for browser tabs that accepts only the --origin pages (default: the dev server's and the
 * preview's, by name and address). Writes the credentials file (mode 0600; default
 * .parl/cluster.creds, a folder git ignores; a --creds path that cannot be written exits 2 before
 * anything starts),
 * prints the join command for Node hosts and the join link for browser tabs, and on Ctrl-C or
 * SIGTERM stops the server and removes its files.
 */
import { resolve } from 'node:path';
import { defaultCredsPath, prepareCredsPath, writeCreds } from '../cluster/creds';
import { intFlag, parseFlags } from '../cluster/flags';
import { joinLinkFor } from '../cluster/joinLink';
import { startNatsServer } from '../cluster/natsServer';
import { originSet } from '../cluster/originGate';
import { DEFAULT_PAGE_ORIGINS, generateToken, isLoopback } from '../cluster/serverConfig';
import { onStopSignal, runMain, type StopSignal } from './runMain';
import { printHelpIfAsked } from './help';

const USAGE = 'Usage: npm run cluster -- [--listen HOST] [--port N] [--ws-port N] [--creds FILE] [--origin URL[,URL...]] [--app URL] [--tls-cert FILE --tls-key FILE]';

/** The page the join link opens: an http(s) URL. */
function appUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`--app must be the page's URL (http://HOST:PORT/), got ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`--app must be an http(s) URL, got ${JSON.stringify(raw)}`);
  return u.href;
}

async function main(): Promise<number> {
  // Installed first: a signal while nats-server starts still stops it and removes its files.
  let signalledWith: (signal: StopSignal) => void = () => {};
  const signalled = new Promise<string>((r) => (signalledWith = r));
  const received = onStopSignal((signal) => signalledWith(signal));
  let flags: Map<string, string>;
  if (printHelpIfAsked(process.argv.slice(2), USAGE)) return 0;
  try {
    flags = parseFlags(process.argv.slice(2), ['--listen', '--port', '--ws-port', '--creds', '--origin', '--app', '--tls-cert', '--tls-key']);
    if (flags.has('--tls-cert') !== flags.has('--tls-key')) throw new Error('--tls-cert and --tls-key go together');
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    return 2;
  }
  const host = flags.get('--listen') ?? '127.0.0.1';
  const tls = flags.has('--tls-cert');
  if (!isLoopback(host) && !tls) {
    process.stderr.write(`error: --listen ${host} is not loopback: the token would cross the network in clear; pass --tls-cert FILE --tls-key FILE\n`);
    return 2;
  }
  let port: number;
  let wsPort: number;
  let credsPath: string;
  let origins: string[];
  let app: string;
  try {
    port = intFlag(flags, '--port', 4222, -1, 65535);
    wsPort = intFlag(flags, '--ws-port', 8443, -1, 65535);
    origins = (flags.get('--origin') ?? DEFAULT_PAGE_ORIGINS.join(',')).split(',').map((o) => o.trim()).filter(Boolean);
    originSet(origins);
    app = appUrl(flags.get('--app') ?? 'http://localhost:5173/');
    // Before anything starts: a creds path that cannot be written stops here, with nothing to clean up.
    credsPath = flags.has('--creds') ? resolve(flags.get('--creds') ?? '') : defaultCredsPath(process.cwd());
    prepareCredsPath(credsPath, !flags.has('--creds'));
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const token = generateToken();
  const server = await startNatsServer({
    host,
    port,
    wsPort,
    token,
    allowedOrigins: origins,
    ...(tls ? { tlsCert: flags.get('--tls-cert'), tlsKey: flags.get('--tls-key') } : {}),
  });
  if (received.signal !== null) {
    await server.stop();
    process.stderr.write(`cluster stopped (${received.signal})\n`);
    return 0;
  }
  try {
    writeCreds(credsPath, { version: 1, servers: [server.url], token, ws: server.wsUrl });
    const join = joinLinkFor(app, { url: server.wsUrl ?? '', token });
    process.stdout.write(
      [
        `nats-server ${server.pid} is up: ${server.url}${server.wsUrl ? `, browser tabs: ${server.wsUrl}` : ''} (JetStream on)`,
        `credentials: ${credsPath} (mode 0600; it holds the token: copy it only to machines you trust)`,
        '',
        'Join with a Node host (on any machine that can reach the server, with this checkout):',
        `  npm run actor-host -- --server ${server.url} --creds ${credsPath} --actors 2`,
        'Train with the cluster\'s actors:',
        `  npm run train -- --preset impala-cartpole --cluster ${server.url} --creds ${credsPath}`,
        '',
        'Join link for browser tabs (it GRANTS ACCESS to this cluster: share it only with people you trust):',
        `  ${join}`,
        '',
        'Ctrl-C stops the cluster.',
        '',
      ].join('\n'),
    );
  } catch (err) {
    // Nothing may outlive a failed start: the server, its config (with the token) and its store go.
    await server.stop();
    throw err;
  }
  const exited = new Promise<string>((r) => server.process.once('exit', (code) => r(`nats-server exited (code ${code})`)));
  let why = await Promise.race([exited, signalled]);
  // Ctrl-C reaches nats-server too (same process group): its exit then is the signal's doing.
  if (received.signal !== null) why = received.signal;
  await server.stop();
  process.stderr.write(`cluster stopped (${why})\n`);
  return received.signal === null ? 1 : 0;
}

runMain(main);
