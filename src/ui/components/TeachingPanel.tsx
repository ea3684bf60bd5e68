import { PRESETS, type Preset } from '../../config/presets';
import { resolveExperiment } from '../../config/config';
import { experimentUrl } from '../../config/urlState';
import { usePlayground } from '../store';
import { isSwarm } from '../../config/watchable';

interface Topic {
  id: string;
  title: string;
  text: string;
  /** Preset names to try first, then a pattern over names and descriptions. */
  names: string[];
  pattern: RegExp;
  /** A seed that shows the idea, where it shows in some seeds and not others (say so in `text`). */
  seed?: number;
  /** About the agent swarm presets: listed after the others unless a swarm preset is open. */
  swarm?: boolean;
}

const TOPICS: Topic[] = [
  {
    id: 'how-it-learns',
    title: 'How an agent learns here',
    text: 'The agent tries the task over and over. Each try is an episode, and its return is the reward it collected (in CartPole, one point for every step the pole stays up, at most 500). Actors play episodes in parallel, each in its own Web Worker; the learner updates the network from what they saw and sends them the new weights. The live view plays the current policy, and the return chart should climb towards the dashed target line.',
    names: ['quickstart'],
    pattern: /quickstart/i,
  },
  {
    id: 'serial-collapse',
    swarm: true,
    title: 'Serial collapse',
    text: 'Without a reward for creating subagents, the orchestrator keeps doing every subtask itself. Handing out a few subtasks now and then does not bring the answer in on time, so the task score gives it no reason to change: critical steps stay above the serial baseline and parallelism near zero. The parallel bonus (λ1 times r_parallel) pays for each try and gets it off that plateau. It happens in 4 of 5 seeds; the link opens seed 2 (seed 1 escapes late, near update 35).',
    names: ['swarm-no-shaping', 'swarm-serial-collapse'],
    pattern: /serial.?collapse|unshaped|no shaping/i,
    seed: 2,
  },
  {
    id: 'spurious-parallelism',
    swarm: true,
    title: 'Spurious parallelism',
    text: 'Pay only for starting subagents and the orchestrator starts subagents that finish nothing: parallelism climbs while the finish rate falls. The finish bonus (λ2 times r_finish) rewards subagents that complete their subtask.',
    names: ['swarm-no-anneal', 'swarm-spurious-parallelism'],
    pattern: /spurious/i,
  },
  {
    id: 'annealing',
    swarm: true,
    title: 'Annealing λ1 and λ2',
    text: 'The two bonuses are scaffolding: their weights λ1 and λ2 fall to zero so that in the end only the task score (r_perf) counts. Watch the λ chart fall and the reward parts hand over to the task score.',
    names: ['swarm-annealed'],
    pattern: /anneal/i,
  },
  {
    id: 'critical-steps',
    swarm: true,
    title: 'Critical steps vs total steps',
    text: 'Critical steps add, per stage, the orchestrator’s steps and the slowest subagent’s: that is latency. Total steps count every agent’s work. Parallelism lowers the first while the second can grow; the serial baseline and the lower bound frame the gap.',
    names: ['swarm-annealed', 'swarm-wide-search'],
    pattern: /critical|latency|wide.?search|swarm/i,
  },
  {
    id: 'actors-lag',
    title: 'Actors and policy lag',
    text: 'Actors collect experience in Web Workers with a copy of the policy. When they run ahead of the learner, their batches come from older weights: the policy lag chart shows how many updates old, and V-trace (IMPALA) corrects for it.',
    names: ['impala-cartpole', 'impala'],
    pattern: /impala|policy lag|async/i,
  },
];

function findPreset(t: Topic): Preset | undefined {
  return t.names.map((n) => PRESETS.find((p) => p.name === n)).find(Boolean) ?? PRESETS.find((p) => t.pattern.test(p.name) || t.pattern.test(p.description));
}

/** "What am I looking at?": the ideas the charts show, each with the preset that shows it. */
export function TeachingPanel() {
  const status = usePlayground((s) => s.status);
  const setPreset = usePlayground((s) => s.setPreset);
  const setSetting = usePlayground((s) => s.setSetting);
  const setSeed = (seed: number) => setSetting('seed', seed);
  const swarmOpen = usePlayground((s) => isSwarm(s.config.settings.algorithm));
  const locked = !['idle', 'done', 'error'].includes(status);
  // What the open preset shows comes first; a newcomer on CartPole meets the basics, not λ1.
  const topics = [...TOPICS.filter((t) => !!t.swarm === swarmOpen), ...TOPICS.filter((t) => !!t.swarm !== swarmOpen)];
  return (
    <section aria-label="What am I looking at?" id="teaching" className="teaching">
      <h2>What am I looking at?</h2>
      {topics.map((t) => {
        const preset = findPreset(t);
        return (
          <details key={t.id} data-topic={t.id}>
            <summary>
              {t.title}
              {t.swarm && !swarmOpen && <span className="muted"> (agent swarm)</span>}
            </summary>
            <p>{t.text}</p>
            {preset ? (
              <a
                href={experimentUrl(window.location.href, resolveExperiment(preset.name, t.seed === undefined ? {} : { seed: t.seed }))}
                onClick={(e) => {
                  e.preventDefault();
                  if (locked) return;
                  setPreset(preset.name);
                  if (t.seed !== undefined) setSeed(t.seed);
                }}
                aria-disabled={locked}
              >
                Open the “{preset.title}” preset{t.seed === undefined ? '' : ` (seed ${t.seed})`}
              </a>
            ) : (
              <p className="help">No preset in this build shows this yet.</p>
            )}
          </details>
        );
      })}
    </section>
  );
}
