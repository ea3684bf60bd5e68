/**
 * A saved run as a file: export to JSON, import with validation, and the metrics as CSV.
 * An imported file passes one zod schema (the config through the experiment schema, so its
 * bounds hold); a bad file is refused with a reason naming the field, and nothing is written.
 * The run's weights, when it kept any, travel in the file as base64 of the PARLCKPT bytes.
 */
import { z } from 'zod';
import { decodeCheckpoint } from '../core/checkpoint';
import { ExperimentConfigSchema, type ExperimentConfig } from '../config/config';
import { reviveConfig, type DroppedPart } from '../config/migrations';
import { LINK_VERSION } from '../config/urlState';
import { RECORD_LIMITS as L, type BackendRecord, type ChangeRecord, type SwarmTraceRecord, type SummaryRecord, type SwarmUpdateRecord, type UpdateRecord } from './records';

export const RUN_FILE_FORMAT = 'parl-playground-run';
/**
 * Version 2: the config names the agent swarm as links of version 4 do (config/retired.ts). A
 * version-1 file's config is older: its `swarm.*` are the retired first swarm's settings, its
 * `swarm2.*` today's `swarm.*`.
 */
export const RUN_FILE_VERSION = 2;
/** The link version whose names each run-file version's config uses (1: as old as can be, every migration applies). */
export const RUN_FILE_LINK_VERSIONS: ReadonlyMap<number, number> = new Map([
  [1, 1],
  [2, 4],
]);
/** Refuse files bigger than this before parsing them. */
export const MAX_RUN_FILE_CHARS = 64 * 1024 * 1024;
const MAX_RECORDS = 500_000;

/** The records a run keeps (the ones that carry metrics); the rest are live status only. */
export type PersistedRecord = UpdateRecord | SwarmUpdateRecord | SummaryRecord | BackendRecord | SwarmTraceRecord | ChangeRecord;

export type RunStatusKind = 'running' | 'done' | 'stopped' | 'error' | 'interrupted';

/** The learner's newest weights in a run: a PARLCKPT file (src/core/checkpoint.ts). */
export interface RunWeights {
  update: number;
  envSteps: number;
  bytes: Uint8Array;
}

export interface SavedRun {
  id: string;
  name: string;
  createdAt: number;
  status: RunStatusKind;
  config: ExperimentConfig;
  records: PersistedRecord[];
  weights?: RunWeights;
}

/** Weights of a run file: 16 MiB of checkpoint at most (the networks here are far smaller). */
const MAX_WEIGHTS_BYTES = 16 * 2 ** 20;

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export function isPersisted(r: { type: string }): r is PersistedRecord {
  return r.type === 'update' || r.type === 'swarm' || r.type === 'summary' || r.type === 'backend' || r.type === 'swarmTrace' || r.type === 'change';
}

const finite = z.number().finite();
const count = z.number().int().min(0);
// A metric that was NaN or ±Infinity in the run is null in its JSON (a diverged loss is worth
// keeping): read back as NaN, which the charts skip.
const metricValue = z.number().nullable().transform((v) => v ?? Number.NaN);

const UpdateSchema = z.object({
  type: z.literal('update'),
  update: count,
  envSteps: count,
  episodes: count,
  wallSeconds: finite.min(0),
  returns: z.array(finite).max(L.episodesPerUpdate),
  lengths: z.array(count).max(L.episodesPerUpdate),
  meanReturn20: finite.nullable(),
  stepsPerSecond: finite.min(0),
  metrics: z
    .record(z.string().max(L.metricKeyChars), metricValue)
    .refine((m) => Object.keys(m).length <= L.metricKeys, { message: `more than ${L.metricKeys} metric keys` }),
  actorStepsPerSecond: z.array(finite.min(0)).max(L.actors),
  lostSegments: count,
  policyLags: z.array(count.max(L.maxPolicyLag)).max(L.policyLags).optional(),
});

const SwarmStatsSchema = z.object({
  criticalSteps: finite,
  totalSteps: finite,
  serialBaseline: finite,
  lowerBound: finite.nullable(),
  avgParallelism: finite,
  maxParallelism: finite,
  finishRate: finite,
  rPerf: finite,
  rParallel: finite,
  rFinish: finite,
  lambda1: finite,
  lambda2: finite,
  total: finite,
});

const SwarmSchema = z.object({
  type: z.literal('swarm'),
  update: count,
  trainSteps: count,
  episodes: z.array(SwarmStatsSchema).max(L.swarmEpisodes),
});

const SummarySchema = z.object({
  type: z.literal('summary'),
  preset: z.string().max(64),
  seed: count,
  backend: z.string().max(32),
  updates: count,
  envSteps: count,
  episodes: count,
  wallSeconds: finite.min(0),
  finalMeanReturn20: finite.nullable(),
  solved: z.object({ episodes: count, envSteps: count, wallSeconds: finite, threshold: finite }).nullable(),
  stopReason: z.enum(['budget', 'target', 'stopped', 'error']),
  error: z.string().max(10_000).optional(),
  lostSegments: count,
  actorRespawns: count,
});

const BackendSchema = z.object({
  type: z.literal('backend'),
  name: z.string().max(32),
  reason: z.string().max(2_000),
  attempts: z.array(z.object({ name: z.string().max(32), ok: z.boolean(), detail: z.string().max(2_000) })).max(16),
});

// A swarm trace: every part the timeline reads is checked and capped (RECORD_LIMITS.swarmTrace*).
const itemOutcome = z.enum(['completed', 'timeout', 'lost', 'cut']);
const kindName = z.string().min(1).max(32);
const SwarmTraceSchema = z
  .object({
    numSubtasks: count,
    kinds: z.array(kindName).max(L.swarmTraceKinds),
    mode: z.enum(['sampled', 'greedy']),
    taskSeed: count,
    decisions: count,
    capped: z.boolean(),
    stages: z
      .array(
        z.object({
          index: count,
          kind: z.enum(['launch', 'direct', 'check', 'finish']),
          start: count,
          mainSteps: count,
          end: count,
          subtask: count.nullable(),
          result: z.enum(['completed', 'timeout', 'lost', 'cut', 'right', 'wrong']).nullable(),
        }),
      )
      .max(L.swarmTraceStages),
    subagents: z
      .array(z.object({ id: count, kind: kindName, stage: count, start: count, end: count, items: z.array(z.object({ subtask: count, outcome: itemOutcome })).max(L.swarmTraceItems) }))
      .max(L.swarmTraceSubagents),
    checks: z.array(z.object({ stage: count, subtask: count, at: count, passed: z.boolean(), subagent: count.nullable(), claimBy: kindName.nullable() })).max(L.swarmTraceStages),
    retries: z.array(z.object({ stage: count, subtask: count, reason: z.enum(['refuted', 'failed', 'unchecked']), subagent: count.nullable(), at: count })).max(L.swarmTraceItems + L.swarmTraceStages),
    totals: z.object({
      criticalSteps: count,
      criticalBudget: count,
      serialBaseline: count,
      lowerBound: count,
      totalCompute: count,
      rPerf: finite.min(0).max(1),
      contextUsed: finite.min(0),
      contextBudget: finite.min(0),
      endReason: z.enum(['finish', 'budget']),
      nSubagents: count,
      nChecks: count,
      nChecksWrong: count,
    }),
    truncated: z.boolean(),
  })
  .superRefine((trace, ctx) => {
    const items = trace.subagents.reduce((n, a) => n + a.items.length, 0);
    if (items > L.swarmTraceItems) ctx.addIssue({ code: 'custom', message: `trace too large: ${items} subagent items (at most ${L.swarmTraceItems})` });
  });

const SwarmTraceRecordSchema = z.object({ type: z.literal('swarmTrace'), update: count, trace: SwarmTraceSchema });

const WeightsSchema = z.object({
  update: count,
  envSteps: count,
  base64: z
    .string()
    .max(Math.ceil(MAX_WEIGHTS_BYTES / 3) * 4)
    .transform((text, ctx) => {
      try {
        const bytes = fromBase64(text);
        decodeCheckpoint(bytes, { requireFinite: true });
        return bytes;
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `not a readable PARLCKPT checkpoint (${err instanceof Error ? err.message : String(err)})` });
        return z.NEVER;
      }
    }),
});

const liveValue = z.union([finite, z.string().max(64), z.boolean()]);
const ChangeRecordSchema = z.object({ type: z.literal('change'), update: count, key: z.string().max(64), from: liveValue, to: liveValue });

const RecordSchema = z.discriminatedUnion('type', [UpdateSchema, SwarmSchema, SummarySchema, BackendSchema, SwarmTraceRecordSchema, ChangeRecordSchema]);

const typeOf = (r: unknown): unknown => (typeof r === 'object' && r !== null ? (r as { type?: unknown }).type : undefined);

/** The type of the swarm's episode traces in files and saved runs made before link version 4. */
const OLD_SWARM_TRACE = 'decompTrace';

/** Stored records under today's types: an old swarm trace ('decompTrace') is a 'swarmTrace'; the rest pass as they are. */
export function renameOldRecords<T>(records: readonly T[]): T[] {
  return records.map((r) => (typeOf(r) === OLD_SWARM_TRACE ? { ...r, type: 'swarmTrace' } : r));
}

/** The records without the retired first swarm's episode traces, under today's types. */
function dropRetiredRecords(records: unknown): unknown {
  return Array.isArray(records) ? renameOldRecords(records.filter((r) => typeOf(r) !== 'trace')) : records;
}

export const RunFileSchema = z.object({
  format: z.literal(RUN_FILE_FORMAT),
  version: z.number().refine((v) => RUN_FILE_LINK_VERSIONS.has(v), { message: `version must be one of ${[...RUN_FILE_LINK_VERSIONS.keys()].join(', ')}` }),
  run: z.object({
    id: z.string().min(1).max(100),
    name: z.string().max(200),
    createdAt: finite,
    status: z.enum(['running', 'done', 'stopped', 'error', 'interrupted']),
    // Files made by older versions: renamed keys mapped, settings added since filled from the preset
    // (by parseRunFile, which knows the file's version; here again for a config that is already current).
    config: z.preprocess((config) => reviveConfig(config, [], LINK_VERSION), ExperimentConfigSchema),
    // Files made before the first swarm was retired may hold its episode traces ('trace'): nothing draws them now.
    records: z
      .preprocess(
        dropRetiredRecords,
        z
          .array(RecordSchema)
          .max(MAX_RECORDS)
          .superRefine((records, ctx) => {
            const keys = new Set<string>();
            for (const r of records) if (r.type === 'update') for (const k of Object.keys(r.metrics)) keys.add(k);
            if (keys.size > L.metricKeysPerRun) ctx.addIssue({ code: 'custom', message: `${keys.size} distinct metric keys (at most ${L.metricKeysPerRun})` });
          }),
      ),
    weights: WeightsSchema.optional(),
  }),
});

/** An imported run, with the parts of its file that were left out (a setting this version does not have), when there were any. */
export type RunFileResult = { ok: true; run: SavedRun; ignored?: DroppedPart[] } | { ok: false; reason: string };

/** The JSON text of a run file. */
export function exportRunFile(run: SavedRun): string {
  const { weights, ...rest } = run;
  const file = weights ? { ...rest, weights: { update: weights.update, envSteps: weights.envSteps, base64: toBase64(weights.bytes) } } : rest;
  return JSON.stringify({ format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, run: file });
}

/**
 * Null when no value in `json` is nested deeper than `maxDepth`, or the path of the first one that
 * is. Walks with its own stack: a file of 100k nested arrays must not overflow the call stack
 * here, nor reach IndexedDB (whose structured clone recurses).
 */
export function tooDeep(json: unknown, maxDepth: number = L.jsonDepth): string | null {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: json, depth: 0, path: '(root)' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= maxDepth) return path;
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [k, v] of entries) if (typeof v === 'object' && v !== null) stack.push({ value: v, depth: depth + 1, path: path === '(root)' ? k : `${path}.${k}` });
  }
  return null;
}

/** `json` with its run's config revived (see reviveConfig), what was left out of it added to `dropped`. */
function withRevivedConfig(json: unknown, dropped: DroppedPart[]): unknown {
  if (typeof json !== 'object' || json === null || !Object.hasOwn(json, 'run')) return json;
  const run: unknown = (json as { run: unknown }).run;
  if (typeof run !== 'object' || run === null || Array.isArray(run) || !Object.hasOwn(run, 'config')) return json;
  const found: DroppedPart[] = [];
  const version: unknown = (json as { version?: unknown }).version;
  const fromVersion = (typeof version === 'number' ? RUN_FILE_LINK_VERSIONS.get(version) : undefined) ?? LINK_VERSION;
  const config = reviveConfig((run as { config: unknown }).config, found, fromVersion);
  dropped.push(...found.map((d) => ({ field: `run.config.${d.field}`, reason: d.reason })));
  return { ...json, run: { ...run, config } };
}

/** Parse and validate a run file. Never throws. */
export function parseRunFile(text: string): RunFileResult {
  try {
    return parseRunFileText(text);
  } catch (err) {
    // Every known problem has its own reason above; this keeps the promise for one nobody foresaw.
    return { ok: false, reason: `could not read the file (${err instanceof Error ? err.message : String(err)})` };
  }
}

function parseRunFileText(text: string): RunFileResult {
  if (text.length > MAX_RUN_FILE_CHARS) return { ok: false, reason: `the file is larger than ${MAX_RUN_FILE_CHARS / 2 ** 20} MiB` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (typeof json === 'object' && json !== null && (json as { format?: unknown }).format !== RUN_FILE_FORMAT) {
    return { ok: false, reason: `not a PARL Playground run file (format must be "${RUN_FILE_FORMAT}")` };
  }
  const deep = tooDeep(json);
  if (deep !== null) return { ok: false, reason: `${deep}: nested more than ${L.jsonDepth} levels deep` };
  const ignored: DroppedPart[] = [];
  const parsed = RunFileSchema.safeParse(withRevivedConfig(json, ignored));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.map(String).join('.') || '(root)';
    return { ok: false, reason: `${path}: ${issue.message}` };
  }
  // The schema has already turned `base64` into the checked checkpoint bytes.
  const { weights, ...run } = parsed.data.run;
  const saved: SavedRun = { ...(run as Omit<SavedRun, 'weights'>), ...(weights ? { weights: { update: weights.update, envSteps: weights.envSteps, bytes: weights.base64 } } : {}) };
  return ignored.length > 0 ? { ok: true, run: saved, ignored } : { ok: true, run: saved };
}

/**
 * One CSV cell. Text a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a
 * carriage return) gets a leading apostrophe (OWASP's advice against CSV injection); numbers are
 * written as they are, so a negative value stays a number.
 */
export function csvCell(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row per update: the progress figures and every metric the algorithm reported. */
export function metricsCsv(run: Pick<SavedRun, 'records'>): string {
  const updates = run.records.filter((r): r is UpdateRecord => r.type === 'update');
  const metricKeys = [...new Set(updates.flatMap((u) => Object.keys(u.metrics)))].sort();
  const header = ['update', 'envSteps', 'episodes', 'wallSeconds', 'meanReturn20', 'stepsPerSecond', 'lostSegments', ...metricKeys].map(csvCell);
  const rows = updates.map((u) =>
    [u.update, u.envSteps, u.episodes, u.wallSeconds, u.meanReturn20, u.stepsPerSecond, u.lostSegments, ...metricKeys.map((k) => u.metrics[k])].map(csvCell).join(','),
  );
  return [header.join(','), ...rows].join('\n') + '\n';
}
