/**
 * Before/after: `npm run bench -- compare --ref GITREF [--seeds 1,2,3,4,5] [--json FILE] -- NAME [--flag value]...`
 *
 * Checks GITREF out into a temporary git worktree (node_modules linked from this checkout), then runs
 * the benchmark NAME with its flags once per seed in the old tree and in a snapshot of this working tree
 * (HEAD plus its uncommitted changes, copied at the start, so that later edits do not reach it), alternating
 * (before seed 1, after seed 1, before seed 2, ...) so both sides see the same machine load. Prints the
 * two sides' tables row beside row and a table of every numeric figure with the median of each side.
 * The worktree is removed at the end, on an error and on Ctrl-C / SIGTERM.
 *
 * The benchmark CLI takes any `--key value` and ignores keys it does not read, so a flag the old code
 * does not know would silently run different settings on the two sides: such a flag is refused up front,
 * unless named in `--unread-ok` (a flag that the old code does without on purpose).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { outputPathProblem } from '../src/cli/args';
import { markdownTable, median } from './types';
import { shellWords } from '../src/cli/commandLine';

export const COMPARE_USAGE = 'Usage: npm run bench -- compare --ref GITREF [--seeds 1,2,3,4,5] [--json FILE] [--unread-ok KEY,...] -- NAME [--flag value]...';

export interface CompareArgs {
  ref: string;
  seeds: number[];
  json: string | null;
  bench: string;
  /** The benchmark's own flags, as `--key value` pairs in the order given. */
  benchFlags: [string, string][];
  /** Benchmark flags one side may leave unread (`--unread-ok`): not refused up front. */
  unreadOk: string[];
}

export type Side = 'before' | 'after';

/** Thrown for a bad command line (exit 2). */
export class CompareUsageError extends Error {}

/** Flags the compare command sets on each run itself. */
const OWNED_FLAGS = new Set(['seeds', 'json']);

function pairs(args: readonly string[], what: string): [string, string][] {
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i];
    if (!flag.startsWith('--') || flag === '--' || args[i + 1] === undefined) {
      throw new CompareUsageError(`${what}: expected --flag value pairs, got ${JSON.stringify(flag)}`);
    }
    const key = flag.slice(2);
    if (seen.has(key)) throw new CompareUsageError(`${flag}: is given more than once`);
    seen.add(key);
    out.push([key, args[i + 1]]);
  }
  return out;
}

/** Parse the arguments after `compare`. */
export function parseCompareArgs(argv: readonly string[]): CompareArgs {
  const split = argv.indexOf('--');
  if (split < 0) throw new CompareUsageError('missing "--" before the benchmark to compare');
  const own = pairs(argv.slice(0, split), 'compare');
  const [bench, ...rest] = argv.slice(split + 1);
  if (bench === undefined || bench.startsWith('--')) throw new CompareUsageError('missing the benchmark name after "--"');
  if (bench === 'compare') throw new CompareUsageError('compare cannot compare itself');
  const benchFlags = pairs(rest, bench);
  for (const [key] of benchFlags) {
    if (OWNED_FLAGS.has(key)) throw new CompareUsageError(`--${key}: give it before "--" (compare runs each seed on its own and collects the figures)`);
  }
  let ref: string | null = null;
  let seeds = [1, 2, 3, 4, 5];
  let json: string | null = null;
  let unreadOk: string[] = [];
  for (const [key, value] of own) {
    if (key === 'ref') ref = value;
    else if (key === 'unread-ok') {
      unreadOk = value.split(',');
      const stray = unreadOk.find((k) => !benchFlags.some(([b]) => b === k));
      if (stray !== undefined) throw new CompareUsageError(`--unread-ok: ${JSON.stringify(stray)} is not one of ${bench}'s flags given after "--"`);
    }
    else if (key === 'seeds') {
      const parts = value.split(',');
      if (parts.some((p) => !/^\d+$/.test(p))) throw new CompareUsageError('--seeds must be a comma-separated list of non-negative integers');
      seeds = parts.map(Number);
    } else if (key === 'json') json = value;
    else throw new CompareUsageError(`unknown compare flag --${key} (the benchmark's own flags go after "--")`);
  }
  if (!ref) throw new CompareUsageError('--ref GITREF is required (the code to compare against)');
  return { ref, seeds, json, bench, benchFlags, unreadOk };
}

/** The order of the runs: for each seed the old code, then the new one, so both sides see the same load. */
export function interleavedRuns(seeds: readonly number[]): { side: Side; seed: number }[] {
  return seeds.flatMap((seed) => [
    { side: 'before' as const, seed },
    { side: 'after' as const, seed },
  ]);
}

/** Benchmark names listed by `npm run bench` without arguments (lines "  name   description"). */
export function benchNamesFromUsage(usage: string): string[] {
  return usage
    .split('\n')
    .map((line) => /^ {2}(\S+) +\S/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** Flag keys that no source text reads as `flags.key`, `flags?.key` or `flags['key']`. */
export function unreadFlags(sources: readonly string[], keys: readonly string[]): string[] {
  const escape = (k: string) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return keys.filter((key) => {
    const read = new RegExp(`flags\\??\\.${escape(key)}\\b|flags\\??\\.?\\[\\s*['"\`]${escape(key)}['"\`]\\s*\\]`);
    return !sources.some((text) => read.test(text));
  });
}

/**
 * Numeric leaves of a figures object, keyed by their path (`ppo.runs.seconds`). A one-element array
 * (one seed's run) is named without its index, so the same figure has the same name in every run.
 */
export function flattenFigures(value: unknown, prefix = ''): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (v: unknown, path: string) => {
    if (typeof v === 'number' && Number.isFinite(v)) out.set(path, v);
    else if (Array.isArray(v)) {
      if (v.length === 1) visit(v[0], path);
      else v.forEach((x, i) => visit(x, path ? `${path}.${i}` : String(i)));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) visit(x, path ? `${path}.${k}` : k);
    }
  };
  visit(value, prefix);
  return out;
}

/** Markdown tables in a benchmark's output: each as its header and its rows of cells. */
export function markdownTables(text: string): { header: string[]; rows: string[][] }[] {
  const tables: { header: string[]; rows: string[][] }[] = [];
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  let block: string[] = [];
  const flush = () => {
    if (block.length >= 2) tables.push({ header: cells(block[0]), rows: block.slice(2).map(cells) });
    block = [];
  };
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('|')) block.push(line);
    else flush();
  }
  flush();
  return tables;
}

export interface SideRun {
  side: Side;
  seed: number;
  /** The benchmark's printed output. */
  stdout: string;
  figures: unknown;
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return '–';
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
  return Number(x.toPrecision(3)).toString();
}

/** The two sides' tables row beside row (seed, side, then the benchmark's columns), one per table the benchmark prints. */
export function sideBySideTables(runs: readonly SideRun[]): string[] {
  const parsed = runs.map((r) => ({ run: r, tables: markdownTables(r.stdout) }));
  const count = Math.max(0, ...parsed.map((p) => p.tables.length));
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const withTable = parsed.filter((p) => p.tables[k]);
    const headers = new Set(withTable.map((p) => JSON.stringify(p.tables[k].header)));
    if (headers.size === 1) {
      const rows = withTable.flatMap((p) => p.tables[k].rows.map((row) => [p.run.seed, p.run.side, ...row]));
      out.push(markdownTable(['seed', 'code', ...withTable[0].tables[k].header], rows));
    } else {
      // The table changed shape between the two versions: each run's table on its own.
      for (const p of withTable) out.push(`${p.run.side}, seed ${p.run.seed}:\n\n${markdownTable(p.tables[k].header, p.tables[k].rows)}`);
    }
  }
  return out;
}

/** Every numeric figure: per-seed values and the median of each side, with after / before. */
export function figuresTable(runs: readonly SideRun[]): { table: string; medians: Record<string, { before: number; after: number }> } {
  const flat = runs.map((r) => ({ run: r, figures: flattenFigures(r.figures) }));
  const keys: string[] = [];
  for (const f of flat) for (const k of f.figures.keys()) if (!keys.includes(k)) keys.push(k);
  const rows: string[][] = [];
  const medians: Record<string, { before: number; after: number }> = {};
  for (const key of keys) {
    const values = (side: Side) => flat.filter((f) => f.run.side === side).map((f) => f.figures.get(key));
    const present = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
    const before = values('before');
    const after = values('after');
    const mb = median(present(before));
    const ma = median(present(after));
    medians[key] = { before: mb, after: ma };
    const list = (xs: (number | undefined)[]) => xs.map((x) => (x === undefined ? '–' : fmt(x))).join(', ');
    rows.push([key, fmt(mb), fmt(ma), Number.isFinite(mb) && Number.isFinite(ma) && mb !== 0 ? (ma / mb).toFixed(2) : '–', list(before), list(after)]);
  }
  return {
    table: markdownTable(['figure', 'before: median', 'after: median', 'after / before', 'before, per seed', 'after, per seed'], rows),
    medians,
  };
}

// ---------------------------------------------------------------------------------------------
// Running it.

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * Source files an old commit's .gitignore hid from git (so its checkout lacks them and does not run)
 * but HEAD tracks: restored in the worktree as first committed. Returns their paths.
 */
function restoreHiddenSources(root: string, dir: string): string[] {
  const tracked = new Set(git(dir, 'ls-files').split('\n'));
  const candidates = git(root, 'ls-tree', '-r', '--name-only', 'HEAD', '--', 'src').split('\n').filter((p) => p && !tracked.has(p));
  if (!candidates.length) return [];
  let ignored: string[];
  try {
    ignored = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: dir, input: candidates.join('\n'), encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return []; // exit 1: none of them is ignored
  }
  for (const path of ignored) {
    const added = git(root, 'log', '--format=%H', '--diff-filter=A', 'HEAD', '--', path).split('\n').pop() ?? 'HEAD';
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), execFileSync('git', ['show', `${added}:${path}`], { cwd: root }));
  }
  return ignored;
}

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.tsx?$/.test(entry)) out.push(readFileSync(path, 'utf8'));
  }
  return out;
}

interface Tree {
  side: Side;
  dir: string;
  label: string;
}

/**
 * Copy this checkout's uncommitted state (changed and new files git does not ignore, deletions) into
 * a worktree of HEAD: a snapshot, so that edits made while the comparison runs do not reach it.
 */
function overlayWorkingTree(root: string, dir: string): void {
  const listed = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const path of listed('ls-files', '-z', '--modified', '--others', '--exclude-standard')) {
    const from = join(root, path);
    if (!existsSync(from) || !statSync(from).isFile()) continue; // deleted below, or not a plain file
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(from, join(dir, path));
  }
  for (const path of listed('ls-files', '-z', '--deleted')) rmSync(join(dir, path), { force: true });
}

/** A temporary worktree of `ref`, removed by `remove()` (idempotent). */
function addWorktree(root: string, commit: string): { dir: string; remove: () => void } {
  const dir = join(mkdtempSync(join(tmpdir(), 'parl-compare-')), 'tree');
  git(root, 'worktree', 'add', '--detach', '--quiet', dir, commit);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  let removed = false;
  return {
    dir,
    remove: () => {
      if (removed) return;
      removed = true;
      // The link first, so nothing below can follow it into this checkout's node_modules.
      try {
        unlinkSync(join(dir, 'node_modules'));
      } catch {
        // already gone
      }
      try {
        git(root, 'worktree', 'remove', '--force', dir);
      } catch {
        rmSync(dir, { recursive: true, force: true });
        try {
          git(root, 'worktree', 'prune');
        } catch {
          // nothing more to do: `git worktree prune` later cleans it
        }
      }
      rmSync(join(dir, '..'), { recursive: true, force: true });
    },
  };
}

let current: ChildProcess | null = null;

/** The bench entry of a tree: `bench/bench.ts`, or `src/cli/bench.ts` in trees older than the bench/ folder. */
function benchEntry(cwd: string): string {
  return existsSync(join(cwd, 'bench', 'bench.ts')) ? 'bench/bench.ts' : 'src/cli/bench.ts';
}

function runBench(root: string, cwd: string, args: string[], passStderr: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [benchEntry(cwd), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (passStderr) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      current = null;
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/** Refuse up front what one side cannot run: an unknown benchmark or a flag its code never reads. */
async function preflight(root: string, tree: Tree, args: CompareArgs): Promise<string | null> {
  const usage = await runBench(root, tree.dir, [], false);
  const names = benchNamesFromUsage(usage.stderr);
  if (!names.length) {
    const why = usage.stderr.split('\n').find((line) => /error/i.test(line)) ?? `exit code ${usage.code}`;
    return `the bench CLI in ${tree.label} does not start: ${why.trim()}`;
  }
  if (!names.includes(args.bench)) {
    return `${tree.label} has no benchmark ${JSON.stringify(args.bench)} (it has: ${names.join(', ') || 'none found'})`;
  }
  const allUnread = unreadFlags(sourcesUnder(join(tree.dir, 'src')), args.benchFlags.map(([k]) => k));
  const allowed = allUnread.filter((k) => args.unreadOk.includes(k));
  if (allowed.length) process.stderr.write(`compare: note: ${tree.label} never reads ${allowed.map((k) => `--${k}`).join(', ')} (allowed by --unread-ok)\n`);
  const unread = allUnread.filter((k) => !args.unreadOk.includes(k));
  if (unread.length) {
    return `${tree.label} never reads ${unread.map((k) => `--${k}`).join(', ')} (a tree from before the bench CLI refused unknown flags ignores them, so the two sides would run different settings): leave ${unread.length > 1 ? 'them' : 'it'} out, or compare against a later --ref`;
  }
  return null;
}

export async function compareMain(argv: readonly string[]): Promise<number> {
  let args: CompareArgs;
  try {
    args = parseCompareArgs(argv);
  } catch (err) {
    if (!(err instanceof CompareUsageError)) throw err;
    process.stderr.write(`error: ${err.message}\n${COMPARE_USAGE}\n`);
    return 2;
  }
  if (args.json !== null) {
    const problem = outputPathProblem(args.json);
    if (problem) {
      process.stderr.write(`error: --json: ${problem}\n`);
      return 2;
    }
  }
  const root = git(process.cwd(), 'rev-parse', '--show-toplevel');
  let commit: string;
  try {
    commit = git(root, 'rev-parse', '--verify', '--quiet', `${args.ref}^{commit}`);
  } catch {
    process.stderr.write(`error: --ref ${args.ref}: not a commit in this repository\n`);
    return 2;
  }
  if (!existsSync(join(root, 'node_modules', '.bin', 'tsx'))) {
    process.stderr.write('error: node_modules/.bin/tsx is missing: run npm install first\n');
    return 2;
  }
  const head = git(root, 'rev-parse', '--short', 'HEAD');
  const dirty = git(root, 'status', '--porcelain', '--untracked-files=no') !== '';
  const worktree = addWorktree(root, commit);
  let snapshot: ReturnType<typeof addWorktree>;
  try {
    snapshot = addWorktree(root, 'HEAD');
  } catch (err) {
    worktree.remove();
    throw err;
  }
  const onSignal = (signal: NodeJS.Signals) => {
    current?.kill('SIGTERM');
    worktree.remove();
    snapshot.remove();
    process.stderr.write(`\ncompare: stopped by ${signal}, worktrees removed\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const trees: Record<Side, Tree> = {
      before: { side: 'before', dir: worktree.dir, label: `the code at ${args.ref}${commit.startsWith(args.ref) ? '' : ` (${commit.slice(0, 7)})`}` },
      after: { side: 'after', dir: snapshot.dir, label: `this working tree (HEAD ${head}${dirty ? ' with uncommitted changes' : ''}, as it was at the start)` },
    };
    overlayWorkingTree(root, snapshot.dir);
    const restored = restoreHiddenSources(root, worktree.dir);
    if (restored.length) process.stderr.write(`compare: note: ${args.ref} lacks ${restored.join(', ')} (its .gitignore hid them); restored from the commit that first tracked them\n`);
    const oldDeps = git(root, 'show', `${commit}:package.json`);
    if (oldDeps !== readFileSync(join(root, 'package.json'), 'utf8')) {
      process.stderr.write(`compare: note: package.json differs at ${args.ref}; both sides use this checkout's node_modules\n`);
    }
    for (const side of ['before', 'after'] as const) {
      const problem = await preflight(root, trees[side], args);
      if (problem) {
        process.stderr.write(`error: ${problem}\n`);
        return 2;
      }
    }
    const loadStart = loadavg();
    const started = Date.now();
    const runs: SideRun[] = [];
    const flagArgs = args.benchFlags.flatMap(([k, v]) => [`--${k}`, v]);
    for (const { side, seed } of interleavedRuns(args.seeds)) {
      const tree = trees[side];
      const jsonPath = join(worktree.dir, '..', `${side}-${seed}.json`);
      process.stderr.write(`compare: ${side} (${tree.label}), seed ${seed}, load ${loadavg()[0].toFixed(2)}\n`);
      const r = await runBench(root, tree.dir, [args.bench, ...flagArgs, '--seeds', String(seed), '--json', jsonPath], true);
      if (r.code !== 0) {
        process.stderr.write(`error: ${side}, seed ${seed}: the benchmark exited with code ${r.code} in ${tree.label}\n`);
        return 1;
      }
      runs.push({ side, seed, stdout: r.stdout, figures: (JSON.parse(readFileSync(jsonPath, 'utf8')) as { figures: unknown }).figures });
    }
    const loadEnd = loadavg();
    const command = `npm run bench -- compare ${shellWords(argv)}`;
    const { table, medians } = figuresTable(runs);
    const text = [
      `## compare: ${args.bench}, ${args.ref} → working tree`,
      '',
      `Command: \`${command}\`  `,
      `Before: ${trees.before.label}; after: ${trees.after.label}  `,
      `Runs alternate before/after seed by seed (${args.seeds.join(', ')}); took ${((Date.now() - started) / 1000).toFixed(0)} s; load average (1/5/15 min) ${loadStart.map((x) => x.toFixed(2)).join(' ')} at the start, ${loadEnd.map((x) => x.toFixed(2)).join(' ')} at the end  `,
      `Date: ${new Date().toISOString().slice(0, 10)}`,
      '',
      ...sideBySideTables(runs).flatMap((t) => [t, '']),
      'Figures (median over seeds):',
      '',
      table,
      '',
    ].join('\n');
    process.stdout.write(text);
    if (args.json !== null) {
      writeFileSync(args.json, JSON.stringify({ command, ref: args.ref, refCommit: commit, head, dirty, seeds: args.seeds, bench: args.bench, flags: args.benchFlags, loadStart, loadEnd, medians, runs: runs.map(({ side, seed, figures }) => ({ side, seed, figures })) }, null, 2));
    }
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    worktree.remove();
    snapshot.remove();
  }
}
