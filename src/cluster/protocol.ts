/**
 * What travels between a learner and the actor hosts, and the zod schemas every message is
 * checked against after its frame is decoded (codec.ts caps sizes and depth first).
 *
 * Subjects (core NATS):
 *   parl.hosts.beat            host → all: {@link HostBeat}, every beat period
 *   parl.hosts.discover        learner → hosts (request): each host answers with its beat
 *   parl.host.<hostId>.spawn   learner → host (request): {@link SpawnRequest} → {@link SpawnReply}
 *   parl.actor.<actorId>.in    learner → host: frames of {@link ActorInbound}
 *   parl.actor.<actorId>.out   host → learner: frames of {@link ActorOutbound}
 *   parl.learner.<learnerId>.alive  host → learner (request): answered while the learner's connection lives
 *
 * Inside 'msg' frames go the same messages a local worker endpoint carries (the remote layer's
 * control messages and comlink's requests and answers), narrowed to what an actor needs: a comlink
 * request may only APPLY one method by name; anything else (GET, SET, CONSTRUCT, ENDPOINT, paths
 * into properties) is malformed. The `module` option of init is refused: no code travels.
 */
import { z } from 'zod';

export const SUBJECT_PREFIX = 'parl';

/**
 * Most segments one stream message may pack. A segment is 12 typed arrays and a frame carries at
 * most 256 (codec.ts DEFAULT_CAPS.maxBlobs), so 16 leave room to spare.
 */
export const MAX_PACK = 16;
/** The most actor slots one browser tab offers (here, so that the page's form need not load the tab host and its NATS client). */
export const MAX_TAB_ACTORS = 16;
export const subjects = {
  beat: `${SUBJECT_PREFIX}.hosts.beat`,
  discover: `${SUBJECT_PREFIX}.hosts.discover`,
  spawn: (hostId: string) => `${SUBJECT_PREFIX}.host.${hostId}.spawn`,
  actorIn: (actorId: string) => `${SUBJECT_PREFIX}.actor.${actorId}.in`,
  actorOut: (actorId: string) => `${SUBJECT_PREFIX}.actor.${actorId}.out`,
  learnerAlive: (learnerId: string) => `${SUBJECT_PREFIX}.learner.${learnerId}.alive`,
};

/** Subject tokens we generate: hex / base-36 ids, no dots or wildcards. */
const token = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const shortText = z.string().max(256);

export const hostBeatSchema = z.strictObject({
  hostId: token,
  hostName: shortText,
  pid: z.number().int().nonnegative(),
  capacity: z.number().int().min(0).max(4096),
  running: z.number().int().min(0).max(4096),
});
export type HostBeat = z.infer<typeof hostBeatSchema>;

/** `learner`: the asking learner's id, so the host can free the learner's slots once its connection is gone. */
export const spawnRequestSchema = z.strictObject({ actorId: token, name: shortText, learner: token.optional() });
export type SpawnRequest = z.infer<typeof spawnRequestSchema>;

export const spawnReplySchema = z.union([z.strictObject({ ok: z.literal(true), hostName: shortText }), z.strictObject({ ok: z.literal(false), error: z.string().max(4096) })]);
export type SpawnReply = z.infer<typeof spawnReplySchema>;

const serializedError = z.strictObject({ name: shortText, message: z.string().max(16_384), stack: z.string().max(65_536).optional() });

const methodName = z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,127}$/);
const commId = z.string().min(1).max(96);

/** A comlink argument: plain data, or data holding typed arrays (our transfer handler). */
const wireIn = z.union([z.strictObject({ type: z.literal('RAW'), value: z.unknown() }), z.strictObject({ type: z.literal('HANDLER'), name: z.literal('parl-typed-arrays'), value: z.unknown() })]);

const initMessage = z.strictObject({
  __parl: z.literal('init'),
  key: z.string().min(1).max(128),
  module: z.undefined().optional(),
  args: z.array(z.unknown()).max(64),
  name: shortText,
});
const pingMessage = z.strictObject({ __parl: z.literal('ping'), seq: z.number().int().nonnegative() });
const applyMessage = z.strictObject({ id: commId, type: z.literal('APPLY'), path: z.tuple([methodName]), argumentList: z.array(wireIn).max(64) });

export const learnerMessageSchema = z.union([initMessage, pingMessage, applyMessage]);
export type LearnerMessage = z.infer<typeof learnerMessageSchema>;

/**
 * A call whose answer goes into the run's JetStream work queue instead of back to the learner
 * (experience.ts): `s` the stream subject, `b` the run's object store, `w` the weights version the
 * host fetches from it and passes as the call's first argument (null: none), `k` how many times the
 * host calls the method, one call after the other with the same weights, packing the K answers into
 * one stream message (absent: 1, one answer per message). The learner gets a {@link StreamReceipt}
 * as the call's answer.
 */
export const streamRouteSchema = z.strictObject({ s: z.string().max(128), b: z.string().max(128), w: z.number().int().min(0).nullable(), k: z.number().int().min(1).max(MAX_PACK).optional() });
export type StreamRoute = z.infer<typeof streamRouteSchema>;
export interface StreamReceipt {
  streamed: string;
  seq: number;
  messages: number;
  bytes: number;
  /** Segments in the stream message (the call's `k`; 1 when it was not packed). */
  segments: number;
}

export const actorInboundSchema = z.union([z.strictObject({ k: z.literal('msg'), m: learnerMessageSchema, x: streamRouteSchema.optional() }), z.strictObject({ k: z.literal('stop') })]);
export type ActorInbound = z.infer<typeof actorInboundSchema>;

const pongMessage = z.strictObject({ __parl: z.literal('pong'), seq: z.number().int().nonnegative() });
const readyMessage = z.strictObject({ __parl: z.literal('ready'), methods: z.array(methodName).max(512) });
const initErrorMessage = z.strictObject({ __parl: z.literal('init-error'), error: serializedError });
const answerMessage = z.union([
  z.strictObject({ id: commId, type: z.literal('RAW'), value: z.unknown() }),
  z.strictObject({ id: commId, type: z.literal('HANDLER'), name: z.literal('parl-typed-arrays'), value: z.unknown() }),
  z.strictObject({ id: commId, type: z.literal('HANDLER'), name: z.literal('throw'), value: z.strictObject({ isError: z.boolean(), value: z.unknown() }) }),
]);

export const actorMessageSchema = z.union([pongMessage, readyMessage, initErrorMessage, answerMessage]);
export type ActorMessage = z.infer<typeof actorMessageSchema>;

export const actorOutboundSchema = z.union([
  z.strictObject({ k: z.literal('msg'), m: actorMessageSchema }),
  z.strictObject({ k: z.literal('exit'), reason: z.enum(['exit', 'error', 'messageerror']), exitCode: z.number().int().optional(), error: serializedError.optional() }),
]);
export type ActorOutbound = z.infer<typeof actorOutboundSchema>;

/** Why messages were turned away, counted by each side. */
export interface RejectCounts {
  malformed: number;
  oversized: number;
  replayed: number;
}

export interface TransportStats {
  framesSent: number;
  framesReceived: number;
  bytesSent: number;
  bytesReceived: number;
  rejected: RejectCounts;
}

export function emptyStats(): TransportStats {
  return { framesSent: 0, framesReceived: 0, bytesSent: 0, bytesReceived: 0, rejected: { malformed: 0, oversized: 0, replayed: 0 } };
}
