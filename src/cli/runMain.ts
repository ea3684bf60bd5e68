/**
 * Run a CLI entry point: exit with its code, or print the error on one line and exit 1. A stack
 * is printed only with PARL_DEBUG=1: a failure deep in tfjs-wasm otherwise prints pages of
 * minified source.
 */
export function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const first = text.split('\n')[0].trim();
  return first.length > 500 ? `${first.slice(0, 500)}…` : first;
}

export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`error: ${oneLine(err)}\n`);
      if (process.env.PARL_DEBUG === '1' && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    },
  );
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Ctrl-C and SIGTERM ask the command to end cleanly: the first calls `stop` once; later ones
 * (a second Ctrl-C, npm forwarding the terminal's signal again) are absorbed while the command
 * ends. The handlers stay installed until the process exits: a signal that found no handler
 * would kill the process before it writes its summary and last checkpoint.
 */
export function onStopSignal(stop: (signal: StopSignal) => void): { readonly signal: StopSignal | null } {
  const state: { signal: StopSignal | null } = { signal: null };
  const handle = (signal: StopSignal) => {
    if (state.signal !== null) return;
    state.signal = signal;
    stop(signal);
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
  return state;
}
