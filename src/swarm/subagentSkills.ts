/**
 * Skill profiles of the decomposition task's subagent kinds MEASURED from the shipped frozen
 * checkpoints (public/subagents/manifest.json, written by `npm run subagents`), instead of the
 * hand table (DEFAULT_SKILL_TABLE). The frozen networks do not run inside the decomposition sim:
 * the sim draws each run from a result distribution (src/envs/swarm/decompositionSkills.ts), and
 * here that distribution is filled from what each network did on held-out ItemSearch episodes.
 * Why a profile and not the networks themselves: a subtask of size n is n units of work, and
 * running a grid search per unit for every subagent of every episode would cost more than
 * training the orchestrator, for the same information (success and speed per kind).
 *
 * Mapping (one ItemSearch grid per subtask kind):
 *   lookup → grid 3 (small),  reason → grid 5,  search → grid 8 (the widest)
 *   success(kind)  = held-out success rate on that grid, clipped to [0.05, 0.999]
 *   think(kind)    = max(1, round(mean steps on that grid / STEPS_PER_THINK))
 *   calibration    = CALIBRATION (not measured: the networks report no confidence)
 * The orchestrator's own direct work is the 'large' checkpoint's profile.
 */
import { isNode } from '../core/backend';
import { ORCHESTRATOR_KIND, SUBTASK_KINDS, type SkillTable, type SubtaskKind } from '../envs/swarm/decompositionSkills';

export const GRID_OF_KIND: Readonly<Record<SubtaskKind, string>> = { lookup: '3', reason: '5', search: '8' };
export const STEPS_PER_THINK = 8;
export const CALIBRATION = 0.6;
/** Checkpoints used as subagent kinds (at most 4: the set policy's kind rows): early small, intermediate and late large, the search specialist. */
export const MEASURED_KINDS = ['small-u10', 'large-u50', 'large', 'searcher'] as const;

export interface ManifestEntry {
  file: string;
  byGrid: Record<string, { successRate: number; meanSteps: number }>;
}

export class SkillManifestError extends Error {
  override name = 'SkillManifestError';
}

/** The skill table of the measured kinds from a manifest's checkpoints. */
export function measuredSkillTable(checkpoints: readonly ManifestEntry[]): { skills: SkillTable; kinds: string[] } {
  const profileOf = (name: string) => {
    const e = checkpoints.find((c) => c.file === `${name}.ckpt`);
    if (!e) throw new SkillManifestError(`subagent manifest: no checkpoint '${name}.ckpt' (it has: ${checkpoints.map((c) => c.file).join(', ')})`);
    const row = {} as Record<SubtaskKind, { success: number; think: number; calibration: number }>;
    for (const k of SUBTASK_KINDS) {
      const g = e.byGrid[GRID_OF_KIND[k]];
      if (!g || !Number.isFinite(g.successRate) || !Number.isFinite(g.meanSteps)) throw new SkillManifestError(`subagent manifest: '${name}' has no figures for grid ${GRID_OF_KIND[k]} (subtask kind ${k})`);
      row[k] = { success: Math.min(0.999, Math.max(0.05, g.successRate)), think: Math.max(1, Math.round(g.meanSteps / STEPS_PER_THINK)), calibration: CALIBRATION };
    }
    return row;
  };
  const skills: Record<string, Record<SubtaskKind, { success: number; think: number; calibration: number }>> = { [ORCHESTRATOR_KIND]: profileOf('large') };
  for (const k of MEASURED_KINDS) skills[k] = profileOf(k);
  return { skills, kinds: [...MEASURED_KINDS] };
}

async function readManifest(): Promise<unknown> {
  if (isNode()) {
    const fsName = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    return JSON.parse(await fs.readFile(new URL('../../public/subagents/manifest.json', import.meta.url), 'utf8')) as unknown;
  }
  const res = await fetch('/subagents/manifest.json');
  if (!res.ok) throw new SkillManifestError(`subagent manifest: /subagents/manifest.json answered ${res.status}`);
  return (await res.json()) as unknown;
}

/** The measured table and kinds, as a patch of a decomposition spec. */
export async function loadMeasuredSkillTable(): Promise<{ skills: SkillTable; rules: { subagentKinds: string[] } }> {
  const m = await readManifest();
  const list = typeof m === 'object' && m !== null && 'checkpoints' in m && Array.isArray(m.checkpoints) ? (m.checkpoints as ManifestEntry[]) : null;
  if (!list) throw new SkillManifestError('subagent manifest: no "checkpoints" list');
  const { skills, kinds } = measuredSkillTable(list);
  return { skills, rules: { subagentKinds: kinds } };
}
