/**
 * The λ1/λ2 schedule editor: the swarm's schedule settings with both curves drawn as they are
 * edited. The setting keys are found by name in the settings table (swarm.lambda1,
 * swarm.lambda1Schedule, the shared swarm.annealUpdates horizon, ...rate, ...stages), so the editor follows the swarm settings as they grow
 * and shows nothing when there are none.
 */
import { SETTING_KEYS, type ExperimentSettings, type SettingKey } from '../../config/settings';
import { descriptorOf } from '../../config/registry';
import { sampleSchedule } from '../../swarm/schedules';
import type { ScheduleKind, ScheduleSpec } from '../../swarm/types';
import { usePlayground } from '../store';
import { SettingField } from './SettingField';

type Part = 'kind' | 'start' | 'horizon' | 'rate' | 'stages';
const PART_PATTERNS: [Part, RegExp][] = [
  ['kind', /kind|schedule|type/i],
  ['start', /start|init/i],
  ['horizon', /horizon|anneal|steps/i],
  ['rate', /rate/i],
  ['stages', /stages/i],
];
const LAMBDAS = ['lambda1', 'lambda2'] as const;
type Lambda = (typeof LAMBDAS)[number];

/** The schedule's settings among the open swarm's own (`swarm.`). */
function keysFor(which: Lambda, prefix: string): Partial<Record<Part, SettingKey>> {
  const out: Partial<Record<Part, SettingKey>> = {};
  const swarm = SETTING_KEYS.filter((k) => k.startsWith(`${prefix}.`));
  const mine = swarm.filter((k) => k.toLowerCase().replace(/[_.-]/g, '').includes(which));
  for (const key of mine) {
    const rest = key.slice(key.toLowerCase().indexOf('lambda') + which.length);
    // `swarm.lambda1` itself is the start value.
    const part = rest === '' ? (['start', /./] as [Part, RegExp]) : PART_PATTERNS.find(([, re]) => re.test(rest));
    if (part && !out[part[0]]) out[part[0]] = key;
  }
  // A horizon shared by both schedules (swarm.annealUpdates).
  if (!out.horizon) {
    const shared = swarm.find((k) => /horizon|anneal/i.test(k) && !/lambda[12]/i.test(k));
    if (shared) out.horizon = shared;
  }
  return out;
}

/** The settings the editor shows for `algorithm`, each once (a horizon both schedules share is one field). */
export function lambdaEditorKeys(algorithm: ExperimentSettings['algorithm']): SettingKey[] {
  const prefix = descriptorOf(algorithm).prefix;
  const keys = LAMBDAS.flatMap((w) => {
    const k = keysFor(w, prefix);
    return k.kind && k.start ? (Object.values(k) as SettingKey[]) : [];
  });
  return [...new Set(keys)];
}

const W = 260;
const H = 90;
const COLORS: Record<Lambda, string> = { lambda1: '#f472b6', lambda2: '#4ade80' };

function useSpec(which: Lambda): ScheduleSpec | null {
  const settings = usePlayground((s) => s.config.settings);
  const keys = keysFor(which, descriptorOf(settings.algorithm).prefix);
  if (!keys.kind || !keys.start) return null;
  const read = (k: SettingKey | undefined) => (k ? (settings[k] as unknown) : undefined);
  const spec: ScheduleSpec = {
    kind: String(read(keys.kind)) as ScheduleKind,
    start: Number(read(keys.start)),
    horizon: Number(read(keys.horizon) ?? 1),
    ...(keys.rate ? { rate: Number(read(keys.rate)) } : {}),
    ...(keys.stages ? { stages: Number(read(keys.stages)) } : {}),
  };
  return spec;
}

function path(spec: ScheduleSpec, until: number, yMax: number): string {
  try {
    const pts = sampleSchedule(spec, 120, { until });
    return pts.map((p, i) => `${i ? 'L' : 'M'}${((p.step / until) * W).toFixed(1)},${(H - (p.value / yMax) * (H - 6) - 2).toFixed(1)}`).join(' ');
  } catch {
    return '';
  }
}

export function LambdaEditor({ disabled }: { disabled: boolean }) {
  const algorithm = usePlayground((s) => s.config.settings.algorithm);
  const spec1 = useSpec('lambda1');
  const spec2 = useSpec('lambda2');
  const specs = [spec1, spec2].filter((s): s is ScheduleSpec => s !== null);
  if (specs.length === 0) return null;
  const until = Math.max(...specs.map((s) => (s.kind === 'constant' ? 1 : s.horizon))) * 1.25;
  const yMax = Math.max(1e-9, ...specs.map((s) => Math.abs(s.start)));
  return (
    <details className="group" open>
      <summary>λ annealing schedules</summary>
      <figure className="lambda-editor" data-testid="lambda-editor">
        <svg className="export-surface" viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label="λ1 and λ2 against training steps">
          <rect x="0" y="0" width={W} height={H} fill="#0b1220" />
          {spec1 && <path d={path(spec1, until, yMax)} stroke={COLORS.lambda1} fill="none" strokeWidth="2" />}
          {spec2 && <path d={path(spec2, until, yMax)} stroke={COLORS.lambda2} fill="none" strokeWidth="2" strokeDasharray="5 3" />}
        </svg>
        <figcaption className="help">
          <span style={{ color: COLORS.lambda1 }}>λ1 (r_parallel)</span> and <span style={{ color: COLORS.lambda2 }}>λ2 (r_finish)</span> from step 0 to{' '}
          {Math.round(until).toLocaleString('en-US')}; max {yMax.toPrecision(3)}.
        </figcaption>
      </figure>
      <div className="group-fields">
        {lambdaEditorKeys(algorithm).map((key) => (
          <SettingField key={key} settingKey={key} disabled={disabled} />
        ))}
      </div>
    </details>
  );
}
