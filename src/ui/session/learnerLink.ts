/**
 * The session's one learner worker: started on first use, probed once for its backend, and
 * replaced after a crash. Every wait on the worker is raced against its crash, so nothing waits
 * for good on a worker that has gone.
 */
import type { StoreApi } from 'zustand';
import type { PlaygroundState } from '../store';
import { message, type LearnerClient, type StartLearner } from './deps';

/** What a call raced against a crash gives: its value, or that the worker crashed first. */
export type OrCrash<T> = { ok: true; value: T } | { ok: false };

export interface LearnerLink {
  /** The learner, started now if none is running. */
  get(): LearnerClient;
  /** The running learner, or null (pause, stop and the like never start one). */
  current(): LearnerClient | null;
  /** `call` on the learner, or { ok: false } when the learner crashes first (a rejection passes through). */
  whileAlive<T>(client: LearnerClient, call: Promise<T>): Promise<OrCrash<T>>;
  /** Asks the learner which backend it will use; one probe per page (later calls share it). */
  probe(): Promise<void>;
  /**
   * What Start waits for: the probe, unless one is measuring now. Then nothing: the worker stops
   * the probe and the run starts at once on the best backend known so far.
   */
  ready(): Promise<void>;
}

export function createLearnerLink(start: StartLearner, store: StoreApi<PlaygroundState>): LearnerLink {
  let client: LearnerClient | null = null;
  const crashes = new WeakMap<LearnerClient, Promise<void>>();
  let probing: Promise<void> | null = null;
  let probed = false;

  const get = (): LearnerClient => {
    if (client) return client;
    let crashed!: () => void;
    const gone = new Promise<void>((resolve) => (crashed = resolve));
    const started = start((msg) => {
      const s = store.getState();
      s.notify('error', `The learner worker crashed: ${msg}. Your settings are kept; press Start to try again.`);
      s.setStatus('error');
      started.terminate();
      if (client === started) client = null;
      crashed();
    });
    crashes.set(started, gone);
    client = started;
    return started;
  };

  const whileAlive = <T>(c: LearnerClient, call: Promise<T>): Promise<OrCrash<T>> => {
    const gone = crashes.get(c) ?? new Promise<void>(() => undefined);
    return Promise.race([call.then((value): OrCrash<T> => ({ ok: true, value })), gone.then((): OrCrash<T> => ({ ok: false }))]);
  };

  const probe = (): Promise<void> => {
    if (probing) return probing;
    const s = store.getState();
    probed = false;
    probing = (async () => {
      try {
        const c = get();
        // The learner also starts this experiment's actor workers ahead of its Start.
        const answer = await whileAlive(c, c.api.probe(s.config.settings.backend, s.config.settings.actors, s.config));
        if (answer.ok) store.getState().setBackend(answer.value);
        // The worker crashed mid-probe (and said so): the next Start probes its replacement.
        else probing = null;
      } catch (err) {
        store.getState().notify('error', `Could not start tfjs: ${message(err)}`);
      }
    })().finally(() => {
      probed = true;
    });
    return probing;
  };

  const ready = (): Promise<void> => (probing && !probed ? Promise.resolve() : probe());

  return { get, current: () => client, whileAlive, probe, ready };
}
