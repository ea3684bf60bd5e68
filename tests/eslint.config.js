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

/** Folders of src/ with no rule of their own still may not import bench/. */
const SRC_FOLDERS_WITHOUT_LAYER_RULES = ['algorithms', 'cli', 'cluster', 'engine', 'runs', 'swarm', 'workers'];

const layering = [
  ...layerRules('ui', (d) => [TENSORFLOW, { regex: `^${up(d)}engine(/|$)`, message: 'src/ui talks to the engine through src/workers (learnerClient), never directly.' }]),
  ...layerRules('envs', (d) => [
    {
      // Allowed: './x', up to `d` levels up (still inside src/envs), src/core/rng and src/core/portableMath.
      regex: `^(?!\\./${d > 0 ? `|(\\.\\./){1,${d}}(?!\\.\\./)` : ''}|${up(d)}core/(rng|portableMath)(\\.ts)?$)`,
      message: 'src/envs is pure TypeScript: it may import only from src/envs, src/core/rng and src/core/portableMath.',
    },
  ]),
  ...layerRules('core', (d) => [{ regex: `^${up(d)}(config|engine|runs|ui)(/|$)`, message: 'src/core is below config, engine, runs and ui: it must not import them.' }]),
  ...layerRules('config', () => [TENSORFLOW]),
  ...SRC_FOLDERS_WITHOUT_LAYER_RULES.flatMap((folder) => layerRules(folder, () => [])),
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
