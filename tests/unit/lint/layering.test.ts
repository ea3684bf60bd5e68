// The layer rules in tests/eslint.config.js, checked through ESLint's Node API on small snippets.
import { ESLint } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: fileURLToPath(new URL('../../eslint.config.js', import.meta.url)) });

/** The no-restricted-imports messages for `code` as if it were the file at `filePath`. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const use = (specifier: string) => `import * as m from '${specifier}';\nexport const used = m;\n`;

const cases: { layer: string; file: string; bad: string[]; good: string[] }[] = [
  {
    layer: 'src/ui never imports tfjs or the engine',
    file: 'src/ui/x.tsx',
    bad: ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', '../engine/trainer', '../engine'],
    good: ['react', '../config/presets', '../runs/records', '../workers/learnerClient', './engineView'],
  },
  {
    layer: 'the same rules hold one folder down',
    file: 'src/ui/components/x.tsx',
    bad: ['../../engine/loops/common', '@tensorflow/tfjs'],
    good: ['../../config/settings', '../store', '../engine'],
  },
  {
    layer: 'src/envs imports only src/envs and src/core/rng',
    file: 'src/envs/x.ts',
    bad: ['../core/mlp', '../engine/segments', '@tensorflow/tfjs', 'zod', '../core/rng/../mlp'],
    good: ['../core/rng', './types', './swarm/tasks'],
  },
  {
    layer: 'a subfolder of src/envs may reach the rest of src/envs',
    file: 'src/envs/swarm/x.ts',
    bad: ['../../core/backend', '../../swarm/tasks', 'comlink'],
    good: ['../../core/rng', '../types', './orchestration'],
  },
  {
    layer: 'src/core never imports config, engine, runs or ui',
    file: 'src/core/remote/x.ts',
    bad: ['../../config/settings', '../../engine/trainer', '../../runs/records', '../../ui/store'],
    good: ['../rng', './errors', 'comlink', '@tensorflow/tfjs'],
  },
  {
    layer: 'src/config never imports tfjs',
    file: 'src/config/x.ts',
    bad: ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-webgpu'],
    good: ['zod', '../core/rng', '../envs/registry'],
  },
  {
    layer: 'src/core sits below every other layer',
    file: 'src/core/x.ts',
    bad: ['../algorithms/ppo', '../envs/cartpole', '../cluster/protocol', '../swarm/types', '../workers/learnerClient', '../cli/train', '../config/settings'],
    good: ['./rng', './remote/transfer', '@tensorflow/tfjs'],
  },
  {
    layer: 'src/algorithms imports only src/core (its defaults come through create())',
    file: 'src/algorithms/x.ts',
    bad: ['../config/algorithm', '../config/algorithms/ppo', '../engine/trainer', '../envs/cartpole', '../runs/records', '../swarm/types'],
    good: ['../core/algorithm', '../core/mlp', './gae', '@tensorflow/tfjs'],
  },
  {
    layer: 'src/config imports core, envs, update rules and only the plain-data credit names of the swarm',
    file: 'src/config/algorithms/x.ts',
    bad: ['../../engine/loops', '../../runs/records', '../../cluster/protocol', '../../workers/learnerClient', '../../ui/store', '../../swarm/swarmLearner', '../../swarm/types', '../../swarm/decisionCredit/../swarmLearner'],
    good: ['../algorithm', '../../algorithms/ppo', '../../envs/registry', '../../core/rng', '../../swarm/decisionCredit'],
  },
  {
    layer: 'src/runs keeps plain data: no swarm, engine or tfjs-side layers',
    file: 'src/runs/x.ts',
    bad: ['../swarm/trace', '../engine/trainer', '../algorithms/ppo', '../cluster/protocol', '../workers/learnerClient', '../ui/store'],
    good: ['./traces', '../config/config', '../core/rng', '../envs/swarm/types'],
  },
  {
    layer: 'src/swarm is driven by the engine, never the other way round',
    file: 'src/swarm/x.ts',
    bad: ['../engine/trainer', '../cluster/protocol', '../workers/actorClasses', '../cli/train', '../ui/store'],
    good: ['../algorithms/ppo', '../config/algorithm', '../runs/traces', '../envs/swarm/types', '../core/rng'],
  },
  {
    layer: 'src/engine never imports the cluster: the cluster implements its ports',
    file: 'src/engine/loops/x.ts',
    bad: ['../../cluster/segmentSource', '../../cluster/learner', '../../workers/learnerClient', '../../cli/train', '../../ui/store'],
    good: ['../streamedExperience', '../segments', '../../algorithms/ppo', '../../swarm/learner', '../../runs/records', '../../config/config'],
  },
  {
    layer: 'src/cluster carries the engine between machines: no workers, swarm or UI',
    file: 'src/cluster/x.ts',
    bad: ['../workers/browserSpawner', '../ui/store', '../cli/cluster', '../swarm/learner', '../algorithms/ppo'],
    good: ['../engine/streamedExperience', '../core/remote/spawner', '../config/config', '../runs/records', './protocol'],
  },
  {
    layer: 'src/workers sit below the UI and beside the CLI',
    file: 'src/workers/x.ts',
    bad: ['../ui/store', '../cli/train'],
    good: ['../engine/trainer', '../cluster/tabHost', '../swarm/swarmActor', '../core/rng', './learnerProtocol'],
  },
  {
    layer: 'src/cli runs the engine in Node, without the page or its workers',
    file: 'src/cli/x.ts',
    bad: ['../ui/store', '../workers/learnerClient'],
    good: ['../engine/trainer', '../cluster/learner', '../swarm/learner', '../runs/records', './args'],
  },
  {
    layer: 'src/ui reaches the cluster, the engine and the swarm only through src/workers and src/runs',
    file: 'src/ui/session/x.ts',
    bad: ['../../cluster/joinLink', '../../cluster/tabHost', '../../swarm/trace', '../../swarm/swarmTrace', '../../core/mlp', '../../algorithms/ppo', '../../cli/train'],
    good: ['../../workers/clusterClient', '../../runs/traces', '../../envs/registry', '../../core/rng', '../../swarm/schedules', '../../swarm/types'],
  },
];

describe('layering lint rules (tests/eslint.config.js)', () => {
  for (const c of cases) {
    it(c.layer, async () => {
      for (const specifier of c.bad) {
        const errors = await layerErrors(c.file, use(specifier));
        expect(errors, `${c.file} importing '${specifier}' should fail`).toHaveLength(1);
      }
      for (const specifier of c.good) {
        expect(await layerErrors(c.file, use(specifier)), `${c.file} importing '${specifier}' should pass`).toEqual([]);
      }
    });
  }

  it('also catches re-exports and type-only imports', async () => {
    expect(await layerErrors('src/ui/x.ts', "export { TrainingRun } from '../engine/trainer';\n")).toHaveLength(1);
    expect(await layerErrors('src/core/x.ts', "import type { RunRecord } from '../runs/records';\nexport type R = RunRecord;\n")).toHaveLength(1);
  });

  it('src/ never imports bench/, from any folder or depth', async () => {
    const importers = ['src/index.ts', 'src/cli/x.ts', 'src/engine/loops/x.ts', 'src/ui/components/x.tsx', 'src/swarm/x.ts', 'src/envs/x.ts', 'src/core/remote/x.ts', 'src/config/algorithms/x.ts'];
    for (const file of importers) {
      const depth = file.split('/').length - 1;
      const toBench = `${'../'.repeat(depth)}bench/types`;
      const errors = await layerErrors(file, use(toBench));
      expect(errors.some((m) => m.includes('src/ never imports bench/')), `${file} importing '${toBench}' should fail`).toBe(true);
    }
    // bench/ itself may import the product.
    expect(await layerErrors('bench/x.ts', use('../src/engine/trainer'))).toEqual([]);
  });

  it('has a rule for every folder of src/', async () => {
    const folders = readdirSync(`${root}src`, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const covered = new Set(cases.map((c) => c.file.split('/')[1]));
    expect(folders.filter((f) => !covered.has(f))).toEqual([]);
    // A made-up sibling folder is outside every table: each layer refuses it.
    for (const folder of folders.filter((f) => f !== 'envs')) {
      expect(await layerErrors(`src/${folder}/x.ts`, use('../elsewhere/x')), `src/${folder} importing a folder not in the table`).toHaveLength(1);
    }
  });

  it('no import circle between src/algorithms and src/config: the update rules never import config', async () => {
    const files = readdirSync(`${root}src/algorithms`).filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = readFileSync(`${root}src/algorithms/${f}`, 'utf8');
      expect(text.match(/from '\.\.\/config\//g), `src/algorithms/${f}`).toBeNull();
      const [result] = await eslint.lintText(text, { filePath: `src/algorithms/${f}` });
      expect(result.messages.filter((m) => m.ruleId === 'no-restricted-imports'), `src/algorithms/${f}`).toEqual([]);
    }
  });
});
