/** Errors raised by the remote-actor layer. */

/** Why an actor died. */
export type ActorDeathReason =
  | 'exit' // the worker exited (process.exit, or the host returned)
  | 'error' // an uncaught error in the worker
  | 'messageerror' // a message could not be deserialized
  | 'terminated' // terminate() was called
  | 'unresponsive'; // the pool's heartbeat timed out (see ActorPool)

export interface ActorDeath {
  actorName: string;
  reason: ActorDeathReason;
  /** Exit code, where the platform reports one (Node). */
  exitCode?: number;
  /** The uncaught error or other cause, where there is one. */
  error?: Error;
  /** Date.now() at death. */
  at: number;
}

/** Serialized form of an Error thrown in a worker. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
}

export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: 'Error', message: String(err) };
}

/** An error thrown by the actor's own code (a method or the constructor), re-raised in the caller. */
export class RemoteActorError extends Error {
  override name = 'RemoteActorError';
  readonly actorName: string;
  readonly method: string;
  /** The name of the remote error class, e.g. 'TypeError'. */
  readonly remoteName: string;
  /** The remote message, without the actor/method prefix. */
  readonly remoteMessage: string;
  /** The stack trace from the worker (names the remote source file). */
  readonly remoteStack: string | undefined;

  constructor(actorName: string, method: string, remote: SerializedError) {
    super(`[${actorName}] ${method} failed: ${remote.message}`);
    this.actorName = actorName;
    this.method = method;
    this.remoteName = remote.name;
    this.remoteMessage = remote.message;
    this.remoteStack = remote.stack;
    const local = this.stack ?? `${this.name}: ${this.message}`;
    this.stack = remote.stack ? `${local}\n--- remote stack (${actorName}) ---\n${remote.stack}` : local;
  }
}

/** A call (or create) was cut off because the actor died. */
export class ActorDiedError extends Error {
  override name = 'ActorDiedError';
  readonly actorName: string;
  /** The method that was in flight, or 'constructor' for create(). */
  readonly method: string;
  readonly death: ActorDeath;

  constructor(death: ActorDeath, method: string) {
    const cause = death.error ? `: ${death.error.message}` : death.exitCode !== undefined ? ` (exit code ${death.exitCode})` : '';
    super(`[${death.actorName}] ${method} failed: actor died (${death.reason})${cause}`, death.error ? { cause: death.error } : undefined);
    this.actorName = death.actorName;
    this.method = method;
    this.death = death;
  }
}

/** A call exceeded its timeout. The actor may still be running it; the result is discarded. */
export class ActorCallTimeoutError extends Error {
  override name = 'ActorCallTimeoutError';
  readonly actorName: string;
  readonly method: string;
  readonly timeoutMs: number;

  constructor(actorName: string, method: string, timeoutMs: number) {
    super(`[${actorName}] ${method} timed out after ${timeoutMs} ms`);
    this.actorName = actorName;
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}
