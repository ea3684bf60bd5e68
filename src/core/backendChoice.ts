/**
 * Which tfjs backend "auto" picks, from measurements: a pure function, so the rule can be tested
 * without a browser. The measurements come from a short probe (src/workers/backendProbe.ts):
 * the run's own network, one forward pass and one optimiser update at its batch size, on each
 * backend this browser has.
 *
 * The rule: the fastest measured backend wins. A software GPU adapter (SwiftShader, llvmpipe)
 * emulates the GPU on the CPU; for networks as small as these wasm is usually far faster there,
 * and a software adapter is never picked over a wasm that measured faster; nor over one that
 * measured less than SOFTWARE_MARGIN times slower: the probe times one batch shape, and a software
 * adapter compiles its shaders anew for every shape a run meets (seconds each on SwiftShader; a
 * swarm's batches change size every update). When nothing could be measured, the usual order
 * applies, with software adapters after wasm.
 */
import type { BackendName } from './backend';

export interface BackendMeasurement {
  name: BackendName;
  /** The backend came up in this browser. */
  available: boolean;
  /** Milliseconds for one forward pass plus one update of the network; null when not measured (or it failed). */
  msPerUpdate: number | null;
  /** The probe stopped waiting: `msPerUpdate` is a lower bound. */
  cutShort?: boolean;
  /** A GPU backend running on a software adapter (the CPU emulating a GPU). */
  software?: boolean;
  /** Why it is not available or not measured, in words. */
  detail?: string;
}

export interface MeasuredChoice {
  name: BackendName;
  /** One line for the badge: the choice, the measured ratio, and why. */
  reason: string;
  /** How many times faster the choice is than the next-best measured backend (null when nothing to compare). */
  ratio: number | null;
  /** The backend it was compared with. */
  versus: BackendName | null;
}

const USUAL_ORDER: BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];
/** How many times faster than wasm a software GPU adapter must measure to be picked. */
export const SOFTWARE_MARGIN = 3;

function formatMs(ms: number): string {
  return ms >= 100 ? `${Math.round(ms)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
}

/** "38x", "1.4x": whole numbers from 10 up, one decimal below. */
export function formatRatio(ratio: number): string {
  return ratio >= 10 ? `${Math.round(ratio)}x` : `${ratio.toFixed(1)}x`;
}

function label(m: BackendMeasurement): string {
  return m.software ? `${m.name} (software adapter)` : m.name;
}

/**
 * The backend "auto" should use, and why. `measurements` may list backends in any order; those
 * not available are skipped. Throws only when nothing at all is available.
 */
export function chooseMeasuredBackend(measurements: readonly BackendMeasurement[]): MeasuredChoice {
  const available = measurements.filter((m) => m.available);
  if (available.length === 0) throw new Error('no backend is available to choose from');
  const measured = available.filter((m): m is BackendMeasurement & { msPerUpdate: number } => m.msPerUpdate !== null && Number.isFinite(m.msPerUpdate) && m.msPerUpdate > 0);
  if (measured.length === 0) {
    // Nothing measured: the usual order, but a software adapter goes after wasm.
    const rank = (m: BackendMeasurement) => USUAL_ORDER.indexOf(m.name) + (m.software ? 2.5 : 0);
    const pick = [...available].sort((a, b) => rank(a) - rank(b))[0];
    return { name: pick.name, reason: `${pick.name}: nothing could be measured here, so the usual order decides${pick.name === 'wasm' && available.some((m) => m.software) ? ' (a software GPU adapter goes after wasm)' : ''}`, ratio: null, versus: null };
  }
  // A measurement cut short is a lower bound: it still loses to anything faster than that bound.
  const sorted = [...measured].sort((a, b) => a.msPerUpdate - b.msPerUpdate || USUAL_ORDER.indexOf(a.name) - USUAL_ORDER.indexOf(b.name));
  const missing = measurements.filter((m) => !m.available).map((m) => `${m.name}${m.detail ? ` (${m.detail})` : ''}`);
  const absent = missing.length ? `; not available here: ${missing.join(', ')}` : '';
  const per = `per update of this network`;
  const wasm = sorted.find((m) => m.name === 'wasm');
  if (sorted[0].software && wasm && sorted[0].msPerUpdate * SOFTWARE_MARGIN > wasm.msPerUpdate) {
    const soft = sorted[0];
    const ratio = soft.msPerUpdate / wasm.msPerUpdate;
    return {
      name: 'wasm',
      reason:
        `wasm: chosen over ${label(soft)}, which measured only ${formatRatio(wasm.msPerUpdate / soft.msPerUpdate)} faster on one batch shape ` +
        `(${formatMs(wasm.msPerUpdate)} against ${formatMs(soft.msPerUpdate)} ${per}); a software adapter compiles its shaders again for every new shape, ` +
        `seconds each, so it is picked only when it is ${SOFTWARE_MARGIN}x faster${absent}`,
      ratio,
      versus: soft.name,
    };
  }
  const best = sorted[0];
  const runnerUp = sorted[1];
  if (!runnerUp) {
    const others = available.filter((m) => m !== best).map((m) => `${m.name}: ${m.detail ?? 'not measured'}`);
    return { name: best.name, reason: `${best.name}: the only backend measured here (${formatMs(best.msPerUpdate)} ${per})${others.length ? `; ${others.join('; ')}` : ''}${absent}`, ratio: null, versus: null };
  }
  const ratio = runnerUp.msPerUpdate / best.msPerUpdate;
  const atLeast = runnerUp.cutShort ? 'at least ' : '';
  const why = runnerUp.software ? `; ${runnerUp.name} runs on a software adapter, the CPU emulating a GPU` : '';
  const unmeasured = available.filter((m) => !measured.includes(m as BackendMeasurement & { msPerUpdate: number })).map((m) => `; ${label(m)}: ${m.detail ?? 'not measured'}`);
  const rest = sorted.slice(2).map((m) => `${label(m)} ${m.cutShort ? '> ' : ''}${formatMs(m.msPerUpdate)}`);
  const reason =
    `${best.name}: ${atLeast}${formatRatio(ratio)} faster than ${runnerUp.name} here ` +
    `(${formatMs(best.msPerUpdate)} against ${runnerUp.cutShort ? 'over ' : ''}${formatMs(runnerUp.msPerUpdate)} ${per}${rest.length ? `; ${rest.join(', ')}` : ''})${why}${unmeasured.join('')}${absent}`;
  return { name: best.name, reason, ratio, versus: runnerUp.name };
}
