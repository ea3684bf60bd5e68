/**
 * An actor host: `npm run actor-host -- --server URL --creds FILE [--actors N] [--name NAME] [--tls-ca FILE]`.
 * Offers N actor slots (default: the number of CPUs minus one) to the cluster's learners. Each
 * actor runs in a worker thread and is built from this checkout's own actor classes
 * (src/workers/actorClasses.ts), looked up by key: no code comes over the network. Ctrl-C stops
 * every actor and leaves.
 */
import { availableParallelism, hostname } from 'node:os';
import { connectCluster } from '../cluster/connect';
import { readCreds } from '../cluster/creds';
import { intFlag, parseFlags } from '../cluster/flags';
import { HostService } from '../cluster/hostService';
import { nodeActorSpawner } from './nodePlatform';
import { runMain } from './runMain';
import { printHelpIfAsked } from './help';

const USAGE = 'Usage: npm run actor-host -- --server URL --creds FILE [--actors N] [--name NAME] [--tls-ca FILE]';

async function main(): Promise<number> {
  let flags: Map<string, string>;
  if (printHelpIfAsked(process.argv.slice(2), USAGE)) return 0;
  try {
    flags = parseFlags(process.argv.slice(2), ['--server', '--creds', '--actors', '--name', '--tls-ca']);
    if (!flags.has('--creds')) throw new Error('--creds FILE is required');
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    return 2;
  }
  const creds = readCreds(flags.get('--creds') ?? '');
  const capacity = intFlag(flags, '--actors', Math.max(1, availableParallelism() - 1), 1, 1024);
  const hostName = flags.get('--name') ?? `${hostname()}:${process.pid}`;
  const server = flags.get('--server');
  const nc = await connectCluster({ servers: server ? [server] : creds.servers, token: creds.token, name: `actor-host ${hostName}`, tlsCa: flags.get('--tls-ca') });
  const host = new HostService(nc, { capacity, hostName, spawner: nodeActorSpawner, log: (line) => process.stderr.write(`${line}\n`) });
  process.stderr.write(`actor host ${hostName} (${host.hostId}) offers ${capacity} actor slot${capacity === 1 ? '' : 's'} on ${nc.getServer()}\n`);
  void (async () => {
    for await (const s of nc.status()) if (s.type === 'disconnect' || s.type === 'reconnect') process.stderr.write(`${s.type}: ${nc.getServer()}\n`);
  })();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await host.close();
  await nc.drain().catch(() => undefined);
  return 0;
}

runMain(main);
