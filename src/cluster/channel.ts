/**
 * One direction of an actor's conversation: frames with increasing sequence numbers. The
 * receiver decodes with caps, drops a frame whose sequence number is not above the last one it
 * accepted (a replay), checks the rest against a zod schema, and counts every rejection.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { decodeFrame, DEFAULT_CAPS, encodeFrame, FrameError, type FrameCaps } from './codec';
import type { TransportStats } from './protocol';

export class FrameSender {
  private seq = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
    private readonly stats: TransportStats,
  ) {}

  /** Encodes and publishes `value`; returns the frame's size. Throws if it cannot be encoded or exceeds the server's payload limit. */
  send(value: unknown): number {
    const frame = encodeFrame(++this.seq, value);
    const limit = this.nc.info?.max_payload ?? DEFAULT_CAPS.maxBytes;
    if (frame.byteLength > limit) throw new FrameError('oversized', `message of ${frame.byteLength} bytes exceeds the cluster's payload limit (${limit})`);
    this.nc.publish(this.subject, frame);
    this.stats.framesSent++;
    this.stats.bytesSent += frame.byteLength;
    return frame.byteLength;
  }
}

export class FrameReceiver<S extends z.ZodType> {
  private lastSeq = 0;

  constructor(
    private readonly schema: S,
    private readonly stats: TransportStats,
    private readonly caps: FrameCaps = DEFAULT_CAPS,
    private readonly onReject?: (kind: keyof TransportStats['rejected'], why: string) => void,
  ) {}

  /** The frame's checked value, or undefined (counted) when it is oversized, malformed or replayed. */
  accept(data: Uint8Array): z.infer<S> | undefined {
    let decoded;
    try {
      decoded = decodeFrame(data, this.caps);
    } catch (err) {
      const kind = err instanceof FrameError ? err.kind : 'malformed';
      return this.reject(kind, err instanceof Error ? err.message : String(err));
    }
    if (decoded.seq <= this.lastSeq) return this.reject('replayed', `sequence number ${decoded.seq} is not above ${this.lastSeq}`);
    const parsed = this.schema.safeParse(decoded.value);
    if (!parsed.success) return this.reject('malformed', parsed.error.issues[0]?.message ?? 'schema mismatch');
    this.lastSeq = decoded.seq;
    this.stats.framesReceived++;
    this.stats.bytesReceived += data.byteLength;
    return parsed.data;
  }

  private reject(kind: keyof TransportStats['rejected'], why: string): undefined {
    this.stats.rejected[kind]++;
    this.onReject?.(kind, why);
    return undefined;
  }
}
