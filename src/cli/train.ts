/**
 * Headless training from the command line, with the same experiment configs as the browser.
 *
 *   npm run train -- --preset quickstart --seed 3 --out run.jsonl --checkpoint policy.parlckpt
 *
 * Progress goes to stderr; one JSON line per update and a final summary line go to stdout (and
 * to --out). --checkpoint keeps the learner's newest weights in a file, rewritten about every
 * 10 s and at the end. A bad config or an output path that cannot be written exits with code 2
 * and one line naming the flag, before training starts; a write that fails during the run
 * (a full disk) stops it with one line and exit code 1.
 */
import { onStopSignal, runMain } from './runMain';
import { trainCommand, type StopRequests } from './trainCommand';

// Installed first: a signal while the run starts up stops it as soon as it exists.
const stops: StopRequests = { stop: null, signalled: false };
onStopSignal(() => {
  stops.signalled = true;
  stops.stop?.();
});
runMain(() => trainCommand(process.argv.slice(2), stops));
