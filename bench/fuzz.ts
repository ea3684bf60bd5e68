/**
 * Property-based fuzzing (fast-check) of everything that reads input it did not write: run files
 * (parsed and imported into IndexedDB), checkpoints, segments from actors, and the train CLI's
 * arguments. The unit tests (tests/unit/fuzz) run each target a few hundred times with a fixed
 * seed; `npm run bench -- fuzz [--runs N] [--seed S]` runs them longer and reports, per target,
 * the inputs tried, the failures and the longest time one input took.
 *
 * Each property says what must hold for every input: the reader never throws anything but its
 * own clear error, never hangs (the time per input is measured), and never damages what exists.
 */
import fc from 'fast-check';
import { ConfigError, ExperimentConfigSchema, resolveExperiment } from '../src/config/config';
import LZString from 'lz-string';
import { PRESET_NAMES } from '../src/config/presets';
import { SETTING_KEYS } from '../src/config/settings';
import { decodeExperiment, HIDEABLE } from '../src/config/urlState';
import { decodeCheckpoint, encodeCheckpoint, type Checkpoint } from '../src/core/checkpoint';
import { concatSegments, validateEpisodeBatch, validateSegment, type EpisodeBatch, type Segment } from '../src/engine/segments';
import type { UpdateRecord } from '../src/runs/records';
import { exportRunFile, parseRunFile, type SavedRun } from '../src/runs/runFile';
import { RunImportError, RunStore } from '../src/runs/runStore';
import { parseTrainArgs } from '../src/cli/args';
import { markdownTable, type Benchmark } from './types';

export interface FuzzReport {
  target: string;
  /** Inputs tried (up to the first failure). */
  runs: number;
  failures: number;
  /** The longest time one input took, in milliseconds. */
  maxMs: number;
  /** How many inputs ended each way ('refused', 'imported', ...), where the check says. */
  outcomes: Record<string, number>;
  /** The shrunk failing input and the error, when one failed. */
  counterexample?: string;
  error?: string;
}

export interface FuzzTarget {
  name: string;
  run(options: { numRuns: number; seed: number }): Promise<FuzzReport>;
}

/**
 * A target from an input generator and a check that throws when the property fails (and may
 * name how the input ended, so a report shows that both sides of the reader were reached).
 */
export function fuzzTarget<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  check: (input: T) => Outcome | Promise<Outcome>,
  around?: { before(): Promise<void>; after(): Promise<void> },
): FuzzTarget {
  return {
    name,
    async run({ numRuns, seed }) {
      let maxMs = 0;
      const outcomes: Record<string, number> = {};
      await around?.before();
      try {
        const details = await fc.check(
          fc.asyncProperty(arbitrary, async (input) => {
            const started = performance.now();
            try {
              const outcome = await check(input);
              if (outcome) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
            } finally {
              maxMs = Math.max(maxMs, performance.now() - started);
            }
          }),
          { numRuns, seed, endOnFailure: false },
        );
        const report: FuzzReport = { target: name, runs: details.numRuns, failures: details.failed ? 1 : 0, maxMs, outcomes };
        if (details.failed) {
          report.counterexample = describe(details.counterexample);
          report.error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        }
        return report;
      } finally {
        await around?.after();
      }
    },
  };
}

/** A counterexample, short (a deeply nested one overflows fast-check's own stringify). */
function describe(value: unknown): string {
  try {
    return fc.stringify(value).slice(0, 2_000);
  } catch {
    try {
      return JSON.stringify(value).slice(0, 2_000);
    } catch {
      return '(too deeply nested to print)';
    }
  }
}

type Outcome = 'refused' | 'accepted' | 'import failed' | 'imported' | 'loaded' | 'loaded, parts ignored' | void;

function fail(why: string): never {
  throw new Error(why);
}

// ---------------------------------------------------------------------------------------------
// JSON mutations: replace the value at a random place in a valid document with something hostile.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Deep nesting stands in the document as a marker string that `jsonText` expands: a value 100k
 * arrays deep cannot go through JSON.stringify (or fast-check's printer) without overflowing.
 */
const NEST = '\u0000nest:';
export function nestedArrays(depth: number): Json {
  return `${NEST}${depth}`;
}

/** The JSON text of a document, with nesting markers expanded into `[[[...]]]`. */
export function jsonText(doc: Json): string {
  return JSON.stringify(doc).replace(/"\\u0000nest:(\d+)"/g, (_, n: string) => '['.repeat(Number(n)) + ']'.repeat(Number(n)));
}

const hostileJson: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.integer({ min: 1, max: 200_000 }).map(nestedArrays),
  fc.constantFrom<Json>(4294967296, -1, 1e308, -0, 0.5, 2 ** 53, '', '=cmd|calc', null, true, [], {}),
  fc.integer({ min: 0, max: 5_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 0, max: 3_000 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
);

/** Replace the node that `picks` leads to (each pick chooses a child, modulo their number). */
export function replaceAt(doc: Json, picks: readonly number[], value: Json): Json {
  if (picks.length === 0 || doc === null || typeof doc !== 'object') return value;
  const copy: Json = Array.isArray(doc) ? [...doc] : { ...doc };
  const keys = Object.keys(copy);
  if (keys.length === 0) return value;
  const key = keys[picks[0] % keys.length];
  const child = (copy as Record<string, Json>)[key];
  (copy as Record<string, Json>)[key] = replaceAt(child, picks.slice(1), value);
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Run files: parse, import beside two saved runs, and check those are untouched.

const sampleUpdate = (i: number): UpdateRecord => ({
  type: 'update', update: i, envSteps: i * 100, episodes: i, wallSeconds: i, returns: [i], lengths: [i], meanReturn20: i,
  stepsPerSecond: 100, metrics: { loss: 1 / i }, actorStepsPerSecond: [100], lostSegments: 0, policyLags: [0, 1],
});

function sampleRun(id: string): SavedRun {
  const weights = encodeCheckpoint({ weights: [new Float32Array([1, 2, 3])], shapes: [[3]], meta: { update: 2 } });
  return { id, name: `run ${id}`, createdAt: 1_700_000_000_000, status: 'done', config: resolveExperiment('quickstart'), records: [sampleUpdate(1), sampleUpdate(2)], weights: { update: 2, envSteps: 200, bytes: weights } };
}

const EMPTY_TRACE = { task: 'wideSearch', numSubtasks: 1, finished: true, stages: [], totals: { criticalSteps: 0, totalSteps: 0, serialBaseline: 0, lowerBound: null }, criticalPath: [] };

/** The file with one more record: a valid trace carrying `extra` under a key it does not know. */
function withTrace(file: Json, extra: Json): Json {
  const f = file as { run: { records: Json[] } };
  const record: Json = { type: 'trace', update: 1, trace: { ...EMPTY_TRACE, extra }, serialTrace: EMPTY_TRACE };
  return { ...f, run: { ...f.run, records: [...f.run.records, record] } } as Json;
}

export function runFileImportTarget(): FuzzTarget {
  const base = JSON.parse(exportRunFile(sampleRun('fuzz'))) as Json;
  const input = fc.record({
    mutations: fc.array(fc.record({ picks: fc.array(fc.nat(), { maxLength: 8 }), value: hostileJson }), { maxLength: 3 }),
    // An older file's first-swarm trace ('trace', dropped on import) carries hostile JSON too.
    traceExtra: fc.option(hostileJson),
    raw: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  });
  let store: RunStore | null = null;
  let dbCount = 0;
  let before: { list: string; runs: string[] } | null = null;
  const snapshot = async (s: RunStore) => {
    const list = await s.list();
    return { list: JSON.stringify(list.map(({ updatedAt: _u, ...m }) => m)), runs: await Promise.all(list.map(async (m) => exportRunFile((await s.get(m.id))!))) };
  };
  return fuzzTarget(
    'run file import',
    input,
    async ({ mutations, traceExtra, raw }) => {
      const s = store ?? fail('no store');
      const doc = mutations.reduce<Json>((d, m) => replaceAt(d, m.picks, m.value), traceExtra === null ? base : withTrace(base, traceExtra));
      const text = jsonText(raw ? (mutations[0]?.value ?? traceExtra) : doc);
      const parsed = parseRunFile(text);
      if (!parsed.ok) {
        if (typeof parsed.reason !== 'string' || parsed.reason.length === 0) fail('refused without a reason');
        return 'refused';
      }
      let importedId: string | null = null;
      try {
        importedId = (await s.importRun(parsed.run)).id;
      } catch (err) {
        if (!(err instanceof RunImportError)) throw err;
      }
      const after = await snapshot(s);
      const prior = before ?? fail('no snapshot');
      if (importedId === null) {
        if (after.list !== prior.list || after.runs.join() !== prior.runs.join()) fail('a failed import changed the store');
        return 'import failed';
      }
      const again = await s.get(importedId);
      if (!again) fail('the imported run is not listed');
      if (!parseRunFile(exportRunFile(again)).ok) fail(`the imported run's own export is refused: ${JSON.stringify(parseRunFile(exportRunFile(again)))}`);
      await s.delete(importedId);
      const cleaned = await snapshot(s);
      if (cleaned.list !== prior.list || cleaned.runs.join() !== prior.runs.join()) fail('an import changed the runs saved before it');
      return 'imported';
    },
    {
      async before() {
        // The bench runs in Node, which has no IndexedDB: the same in-memory one the tests use.
        const fakeIdb = 'fake-indexeddb/auto';
        if (typeof indexedDB === 'undefined') await import(/* @vite-ignore */ fakeIdb);
        store = await RunStore.open(`fuzz-runs-${Date.now()}-${++dbCount}`);
        await store.importRun(sampleRun('a'));
        await store.importRun(sampleRun('b'));
        before = await snapshot(store);
      },
      async after() {
        store?.close();
        store = null;
      },
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Checkpoints: damaged bytes are refused with the decoder's message, or decode to the original.

const sampleCheckpoint: Checkpoint = {
  weights: [new Float32Array([0.5, -1.25, 3]), new Float32Array([7]), new Float32Array(0)],
  shapes: [[3, 1], [1], [0]],
  names: ['w', 'b', 'empty'],
  meta: { step: 12, note: 'fuzz' },
};

export function checkpointTarget(): FuzzTarget {
  const good = encodeCheckpoint(sampleCheckpoint);
  const damage = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('header' as const), header: hostileJson }),
    fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 512 }) }),
  );
  const expected = JSON.stringify({ ...decodeCheckpoint(good), weights: decodeCheckpoint(good).weights.map((w) => Array.from(w)) });
  return fuzzTarget('checkpoint decoder', damage, (d) => {
    let bytes: Uint8Array;
    if (d.kind === 'flip') {
      bytes = good.slice();
      bytes[d.at % bytes.length] ^= d.xor;
    } else if (d.kind === 'cut') bytes = good.subarray(0, d.at % good.length);
    else if (d.kind === 'bytes') bytes = Uint8Array.from([...new TextEncoder().encode('PARLCKPT'), 1, 0, 0, 0, ...d.bytes]);
    else {
      const header = new TextEncoder().encode(jsonText(d.header));
      bytes = new Uint8Array(16 + header.length + 64);
      bytes.set(good.subarray(0, 12));
      new DataView(bytes.buffer).setUint32(12, header.length, true);
      bytes.set(header, 16);
    }
    let decoded: Checkpoint;
    try {
      decoded = decodeCheckpoint(bytes, { requireFinite: true });
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('Not a valid PARL Playground checkpoint: ')) throw err;
      return 'refused';
    }
    // Anything that decodes from damaged bytes must be what was written (a flip the checksum
    // cannot see, such as 'e' → 'E' in a number, changes nothing).
    if (d.kind === 'flip' && JSON.stringify({ ...decoded, weights: decoded.weights.map((w) => Array.from(w)) }) !== expected) fail('a damaged checkpoint decoded to other contents');
    return 'accepted';
  });
}

// ---------------------------------------------------------------------------------------------
// Segments: one field made hostile at a time; whatever passes validation is safe to train on.

function sampleSegment(T: number, n: number, d: number): Segment {
  const B = T * n;
  return {
    actorIndex: 0, policyVersion: 3, T, numEnvs: n, obsDim: d,
    obs: new Float32Array(B * d).fill(0.5), actions: new Int32Array(B), logProbs: new Float32Array(B).fill(-0.7),
    rewards: new Float32Array(B).fill(1), dones: new Uint8Array(B), truncated: new Uint8Array(B),
    finalIndex: Int32Array.of(B - 1), finalObs: new Float32Array(d), lastObs: new Float32Array(n * d),
    episodeReturns: Float32Array.of(T), episodeLengths: Int32Array.of(T), seconds: 0.01,
  };
}

const SEGMENT_FIELDS = ['obs', 'actions', 'logProbs', 'rewards', 'dones', 'truncated', 'finalIndex', 'finalObs', 'lastObs', 'episodeReturns', 'episodeLengths', 'T', 'numEnvs', 'policyVersion'] as const;
const hostileNumber = fc.oneof(fc.constantFrom(Number.NaN, Infinity, -Infinity, -1, 2 ** 31, 1e9, 0.5, -0), fc.double());

/** What a field may be replaced with: another kind, a plain Array, other length, a hostile value. */
const fieldDamage = fc.record({
  field: fc.constantFrom(...SEGMENT_FIELDS),
  how: fc.constantFrom('plainArray', 'otherKind', 'shorter', 'longer', 'value', 'scalar', 'missing'),
  at: fc.nat(),
  value: hostileNumber,
});

type Damage = typeof fieldDamage extends fc.Arbitrary<infer D> ? D : never;

function damaged<S extends object>(s: S, dmg: Damage): S {
  const out = { ...s } as Record<string, unknown>;
  const cur = out[dmg.field];
  if (!ArrayBuffer.isView(cur)) {
    out[dmg.field] = dmg.how === 'missing' ? undefined : dmg.value;
    return out as S;
  }
  const arr = cur as Float32Array | Int32Array | Uint8Array;
  switch (dmg.how) {
    case 'plainArray':
      out[dmg.field] = Array.from(arr);
      break;
    case 'otherKind':
      out[dmg.field] = arr instanceof Float32Array ? Float64Array.from(arr) : Float32Array.from(arr);
      break;
    case 'shorter':
      out[dmg.field] = arr.subarray(0, Math.max(0, arr.length - 1 - (dmg.at % 3)));
      break;
    case 'longer': {
      const longer = new (arr.constructor as Float32ArrayConstructor)(arr.length + 1 + (dmg.at % 3));
      longer.set(arr);
      out[dmg.field] = longer;
      break;
    }
    case 'value': {
      const copy = arr.slice();
      if (copy.length > 0) copy[dmg.at % copy.length] = dmg.value;
      out[dmg.field] = copy;
      break;
    }
    case 'scalar':
      out[dmg.field] = dmg.value;
      break;
    case 'missing':
      out[dmg.field] = undefined;
      break;
  }
  return out as S;
}

/** What the learner relies on in a segment it accepted. */
function checkAcceptedSegment(s: Segment, obsDim: number, numActions: number): void {
  const B = s.T * s.numEnvs;
  const kinds: [unknown, { new (n: number): unknown }, number][] = [
    [s.obs, Float32Array, B * obsDim], [s.actions, Int32Array, B], [s.logProbs, Float32Array, B], [s.rewards, Float32Array, B],
    [s.dones, Uint8Array, B], [s.truncated, Uint8Array, B], [s.lastObs, Float32Array, s.numEnvs * obsDim],
  ];
  for (const [xs, kind, n] of kinds) if (!(xs instanceof kind) || (xs as ArrayLike<number>).length !== n) fail('accepted a field of the wrong kind or length');
  for (const xs of [s.obs, s.rewards, s.logProbs, s.lastObs, s.finalObs, s.episodeReturns]) if (!Array.from(xs).every(Number.isFinite)) fail('accepted a non-finite value');
  if (!Array.from(s.actions).every((a) => a >= 0 && a < numActions)) fail('accepted an action out of range');
  const returns = Array.from(s.episodeReturns);
  if (!Number.isFinite(returns.reduce((a, b) => a + b, 0) / Math.max(1, returns.length))) fail('accepted returns give a non-finite mean');
  concatSegments([s, s]);
}

export function segmentTarget(): FuzzTarget {
  const input = fc.record({ T: fc.integer({ min: 1, max: 6 }), n: fc.integer({ min: 1, max: 3 }), damages: fc.array(fieldDamage, { minLength: 0, maxLength: 2 }) });
  return fuzzTarget('validateSegment', input, ({ T, n, damages }) => {
    const seg = damages.reduce((s, dmg) => damaged(s, dmg), sampleSegment(T, n, 4));
    const problem = validateSegment(seg, 4, 2);
    if (problem === null) {
      checkAcceptedSegment(seg, 4, 2);
      return 'accepted';
    }
    if (typeof problem !== 'string' || problem.length === 0) fail('refused without a reason');
    return 'refused';
  });
}

const EPISODE_FIELDS = ['obs', 'actions', 'rewards', 'dones', 'episodeReturns', 'episodeLengths', 'steps', 'policyVersion'] as const;

export function episodeBatchTarget(): FuzzTarget {
  const input = fc.record({ lengths: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }), damages: fc.array(fieldDamage.map((d) => ({ ...d, field: EPISODE_FIELDS[d.at % EPISODE_FIELDS.length] })), { maxLength: 2 }) });
  return fuzzTarget('validateEpisodeBatch', input, ({ lengths, damages }) => {
    const steps = lengths.reduce((a, b) => a + b, 0);
    const dones = new Uint8Array(steps);
    let end = 0;
    for (const l of lengths) dones[(end += l) - 1] = 1;
    const good: EpisodeBatch = {
      actorIndex: 0, policyVersion: 1, steps, obsDim: 2, obs: new Float32Array(steps * 2), actions: new Int32Array(steps), rewards: new Float32Array(steps).fill(1),
      dones, episodeReturns: Float32Array.from(lengths), episodeLengths: Int32Array.from(lengths), seconds: 0,
    };
    const b = damages.reduce((s, dmg) => damaged(s, dmg as Damage), good);
    const problem = validateEpisodeBatch(b, 2, 2);
    if (problem !== null) return 'refused';
    if (!(b.obs instanceof Float32Array) || !(b.actions instanceof Int32Array) || !(b.rewards instanceof Float32Array) || !(b.dones instanceof Uint8Array)) fail('accepted a field of the wrong kind');
    if (!Array.from(b.episodeReturns).every(Number.isFinite) || !Array.from(b.rewards).every(Number.isFinite)) fail('accepted a non-finite value');
    if (Array.from(b.episodeLengths).reduce((a, x) => a + x, 0) !== b.steps) fail('accepted lengths that do not add up to the steps');
    return 'accepted';
  });
}

// ---------------------------------------------------------------------------------------------
// The train CLI's arguments: a config or a ConfigError naming a flag or a setting, nothing else.

const ARG_TOKENS = ['--preset', '--seed', '--steps', '--actors', '--set', '--url', '--out', '--checkpoint', '--quiet', '--bogus', 'quickstart', 'ppo-cartpole', 'nope', '', ' ', '3', '-1', '1e9', 'NaN', 'seed=2', 'reinforce.lr=0.003', 'reinforce.lr=5', 'actors=0', '=', 'x.jsonl', '__proto__', 'constructor=1', 'http://localhost:5173/#x=abc'];

export function cliArgsTarget(): FuzzTarget {
  const token = fc.oneof(fc.constantFrom(...ARG_TOKENS), fc.string({ maxLength: 12 }));
  // Mostly flag/value pairs after a valid preset (so many parse), sometimes any tokens at all.
  const pairs = fc.array(fc.tuple(fc.constantFrom(...ARG_TOKENS.filter((t) => t.startsWith('--'))), token), { maxLength: 5 });
  const argv = fc.oneof(
    pairs.map((ps) => ['--preset', 'quickstart', ...ps.flatMap(([flag, value]) => (flag === '--quiet' ? [flag] : [flag, value]))]),
    fc.array(token, { maxLength: 10 }),
  );
  return fuzzTarget('train CLI arguments', argv, (args) => {
    let parsed: ReturnType<typeof parseTrainArgs>;
    try {
      parsed = parseTrainArgs(args);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      if (err.field.trim().length === 0 || !err.message.startsWith(`${err.field}: `)) fail(`an error that names no field: ${err.message}`);
      return 'refused';
    }
    // Walk the flags as the parser does (a value flag takes the next token): none but --set twice.
    const seen = new Set<string>();
    for (let i = 0; i < args.length; i++) {
      if (args[i] !== '--set' && seen.has(args[i])) fail(`accepted ${args[i]} twice`);
      seen.add(args[i]);
      if (args[i] !== '--quiet') i++;
    }
    if (!ExperimentConfigSchema.safeParse(parsed.config).success) fail('returned a config its own schema refuses');
    if (parsed.out !== null && parsed.out.trim() === '') fail('accepted an empty --out');
    if (parsed.checkpoint !== null && parsed.checkpoint.trim() === '') fail('accepted an empty --checkpoint');
    return 'accepted';
  });
}

// ---------------------------------------------------------------------------------------------
// Link decoder (src/config/urlState.ts). The property: any text decodes without throwing, to a
// config that passes the schema (every accepted setting within its bounds), with what it dropped
// listed. Inputs: raw strings, and compressed link payloads of either version with random and
// renamed keys and wild values.

const linkPayload = fc.record(
  {
    v: fc.oneof(fc.constantFrom(1, 2, 3, 0, -1, 1.5), fc.anything()),
    p: fc.oneof(fc.constantFrom(...PRESET_NAMES, 'nope', ''), fc.string({ maxLength: 70 })),
    s: fc.dictionary(
      fc.oneof(fc.constantFrom(...SETTING_KEYS, 'ppo.clip', 'impala.rhoBar', 'dqn.double', 'swarm.epochs'), fc.string({ maxLength: 70 })),
      fc.oneof(fc.double(), fc.integer(), fc.boolean(), fc.string({ maxLength: 20 }), fc.constant(null), fc.anything()),
      { maxKeys: 12 },
    ),
    ui: fc.record({ a: fc.anything(), h: fc.array(fc.oneof(fc.constantFrom(...HIDEABLE, 'ppo.clip', 'reinforce.lr'), fc.string({ maxLength: 70 })), { maxLength: 70 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['v', 'p'] },
);

export function linkDecoderTarget(): FuzzTarget {
  const link = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ maxLength: 200 }).map((s) => `http://localhost:5173/#x=${s}`),
    linkPayload.map((payload) => `http://localhost:5173/#x=${LZString.compressToEncodedURIComponent(JSON.stringify(payload) ?? 'null')}`),
  );
  return fuzzTarget('link decoder', link, (text) => {
    const decoded = decodeExperiment(text);
    ExperimentConfigSchema.parse(decoded.config);
    return decoded.ignored.length === 0 ? 'loaded' : 'loaded, parts ignored';
  });
}

export function fuzzTargets(): FuzzTarget[] {
  return [runFileImportTarget(), checkpointTarget(), segmentTarget(), episodeBatchTarget(), cliArgsTarget(), linkDecoderTarget()];
}

export const fuzzBenchmark: Benchmark = {
  name: 'fuzz',
  description: 'Property-based fuzzing of the run-file importer, checkpoint decoder, segment checks, CLI arguments and the link decoder: inputs tried, failures, longest input',
  help: {
    seeds: null,
    flags: [
      { name: 'runs', value: 'N', text: 'inputs per target (default 5000)' },
      { name: 'seed', value: 'S', text: "fast-check's seed (default 20150)" },
    ],
  },
  async run({ flags }) {
    const numRuns = flags.runs === undefined ? 5_000 : Number(flags.runs);
    const seed = flags.seed === undefined ? 20_150 : Number(flags.seed);
    if (!Number.isInteger(numRuns) || numRuns < 1) throw new Error('--runs must be a positive integer');
    if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
    const reports: FuzzReport[] = [];
    for (const t of fuzzTargets()) {
      const started = performance.now();
      const r = await t.run({ numRuns, seed });
      reports.push(r);
      process.stderr.write(`${t.name}: ${r.runs} inputs, ${r.failures} failures, longest ${r.maxMs.toFixed(1)} ms, ${((performance.now() - started) / 1000).toFixed(1)} s${r.error ? `\n  ${r.error}\n  ${r.counterexample}` : ''}\n`);
    }
    const table = markdownTable(
      ['target', 'inputs tried', 'outcomes', 'failures', 'longest input (ms)'],
      reports.map((r) => [r.target, r.runs, Object.entries(r.outcomes).map(([k, n]) => `${n} ${k}`).join(', '), r.failures, r.maxMs.toFixed(1)]),
    );
    return { table: `Seed ${seed}, ${numRuns} inputs per target.\n\n${table}`, figures: { seed, numRuns, reports } };
  },
};
