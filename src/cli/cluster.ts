/**
 * Starts a cluster: `npm run cluster -- [--listen HOST] [--port N] [--ws-port N] [--creds FILE]
 * [--origin URL[,URL...]] [--app URL] [--tls-cert FILE --tls-key FILE]`.
 *
 * Runs nats-server (JetStream on) with a generated config and a fresh token of 32 random bytes,
 * on loopback unless --listen says otherwise (then TLS is required), with a WebSocket listener
 * for browser tabs that accepts only the --origin pages. Writes the credentials file (mode 0600),
 * prints the join command for Node hosts and the join link for browser tabs, and on Ctrl-C or
 * SIGTERM stops the server and removes its files.
 */
import { resolve } from 'node:path';
import { writeCreds } from '../cluster/creds';
import { intFlag, parseFlags } from '../cluster/flags';
import { joinLinkFor } from '../cluster/joinLink';
import { startNatsServer } from '../cluster/natsServer';
import { generateToken, isLoopback } from '../cluster/serverConfig';
import { onStopSignal, runMain, type StopSignal } from './runMain';
import { printHelpIfAsked } from './help';

const USAGE = 'Usage: npm run cluster -- [--listen HOST] [--port N] [--ws-port N] [--creds FILE] [--origin URL[,URL...]] [--app URL] [--tls-cert FILE --tls-key FILE]';
const DEFAULT_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173', 'http://127.0.0.1:4173'];

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
  const port = intFlag(flags, '--port', 4222, -1, 65535);
  const wsPort = intFlag(flags, '--ws-port', 8443, -1, 65535);
  const credsPath = resolve(flags.get('--creds') ?? 'cluster.creds');
  const origins = (flags.get('--origin') ?? DEFAULT_ORIGINS.join(',')).split(',').map((o) => o.trim()).filter(Boolean);
  const app = flags.get('--app') ?? 'http://localhost:5173/';
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
  writeCreds(credsPath, { version: 1, servers: [server.url], token, ws: server.wsUrl });
  const join = joinLinkFor(new URL(app).href, { url: server.wsUrl ?? '', token });
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
  const exited = new Promise<string>((r) => server.process.once('exit', (code) => r(`nats-server exited (code ${code})`)));
  let why = await Promise.race([exited, signalled]);
  // Ctrl-C reaches nats-server too (same process group): its exit then is the signal's doing.
  if (received.signal !== null) why = received.signal;
  await server.stop();
  process.stderr.write(`cluster stopped (${why})\n`);
  return received.signal === null ? 1 : 0;
}

runMain(main);
