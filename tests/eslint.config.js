// ESLint flat config (kept under tests/ so the top level stays small; run with `npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The layers (README's layout table) as import rules. Imports are relative, so a rule names the
 * target folder by how far up the importing file is: one block per layer and folder depth.
 */
const MAX_DEPTH = 4;
const up = (depth) => `(\\.\\./){${depth + 1}}`;
const TENSORFLOW = { group: ['@tensorflow/*'], message: 'This layer never imports tfjs.' };
/** Benchmarks are experiments about the product, never part of it (no folder under src/ is named bench). */
const NO_BENCH = { regex: '^(\\.\\./)+bench(/|$)', message: 'src/ never imports bench/: benchmarks live beside the product, not in it.' };

function layerRules(layer, patternsAt) {
  return Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => ({
    files: [`src/${layer}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_BENCH, ...patternsAt(depth)] }] },
  }));
}

/**
 * The layout table: what each folder of src/ may import from the rest of src/ (its own folder always).
 * An entry is a folder (`engine`) or one module of it (`core/rng`). `why` ends the error message.
 */
export const LAYERS = {
  core: { mayImport: [], why: 'Model / Algorithm / Agent, kernels, RNG and backend choice sit below every other layer.' },
  algorithms: { mayImport: ['core'], why: 'an update rule receives every parameter from create(): its defaults live in its descriptor (src/config).' },
  config: {
    mayImport: ['core', 'envs', 'algorithms', 'swarm/decisionCredit'],
    why: 'what an experiment is, no tfjs: update rules only as types and the lazy `load` hook; the swarm only through its plain-data modules.',
  },
  runs: { mayImport: ['core', 'envs', 'config'], why: 'run records are plain data: the swarm builds its traces from the types in src/runs/traces.ts.' },
  swarm: { mayImport: ['core', 'envs', 'algorithms', 'config', 'runs'], why: 'the swarm is driven by the engine and the workers, never the other way round.' },
  engine: { mayImport: ['core', 'envs', 'algorithms', 'config', 'runs', 'swarm'], why: 'the cluster implements the engine\'s ports (src/engine/streamedExperience.ts); the engine never imports it.' },
  cluster: { mayImport: ['core', 'config', 'engine', 'runs'], why: 'the cluster carries the engine\'s experience and weights between machines.' },
  workers: { mayImport: ['core', 'envs', 'algorithms', 'config', 'runs', 'swarm', 'engine', 'cluster'], why: 'worker entry points and the page\'s clients sit below the UI and beside the CLI.' },
  cli: { mayImport: ['core', 'envs', 'algorithms', 'config', 'runs', 'swarm', 'engine', 'cluster'], why: 'the command line runs the engine in Node, without the page or its workers.' },
  ui: {
    mayImport: ['config', 'runs', 'workers', 'envs', 'core/rng', 'swarm/schedules', 'swarm/types'],
    why: 'the page reaches the engine and the cluster through src/workers; it draws envs itself; the swarm only through its plain schedule types.',
  },
};

/** A pattern matching an import that leaves `layer` (from `depth` folders below it) for a folder it may not import. */
function outsideTable(layer, depth) {
  const allowed = [layer, ...LAYERS[layer].mayImport].map((entry) => (entry.includes('/') ? `${entry}(\\.ts)?$` : `${entry}(/|$)`));
  const list = LAYERS[layer].mayImport.map((entry) => `src/${entry}`).join(', ') || 'nothing else in src/';
  return { regex: `^${up(depth)}(?!${allowed.join('|')})`, message: `src/${layer} may import only ${list}: ${LAYERS[layer].why}` };
}

const layering = [
  ...layerRules('ui', (d) => [TENSORFLOW, outsideTable('ui', d)]),
  ...layerRules('envs', (d) => [
    {
      // Allowed: './x', up to `d` levels up (still inside src/envs), src/core/rng and src/core/portableMath.
      regex: `^(?!\\./${d > 0 ? `|(\\.\\./){1,${d}}(?!\\.\\./)` : ''}|${up(d)}core/(rng|portableMath)(\\.ts)?$)`,
      message: 'src/envs is pure TypeScript: it may import only from src/envs, src/core/rng and src/core/portableMath.',
    },
  ]),
  ...layerRules('config', (d) => [TENSORFLOW, outsideTable('config', d)]),
  ...['core', 'algorithms', 'runs', 'swarm', 'engine', 'cluster', 'workers', 'cli'].flatMap((layer) => layerRules(layer, (d) => [outsideTable(layer, d)])),
  { files: ['src/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { patterns: [NO_BENCH] }] } },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'tests/e2e/artifacts/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Use the seeded Rng from src/core/rng.ts.' }],
    },
  },
  ...layering,
);
