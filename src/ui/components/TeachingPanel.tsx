import { PRESETS, type Preset } from '../../config/presets';
import { resolveExperiment } from '../../config/config';
import { experimentUrl } from '../../config/urlState';
import { usePlayground } from '../store';
import { useOpenPreset } from '../session/useOpenPreset';
import { isSwarm } from '../../config/watchable';
import { SETTINGS, isSettingKey, type ExperimentSettings } from '../../config/settings';

interface Topic {
  id: string;
  title: string;
  text: string;
  /** Preset names to try first, then a pattern over names and descriptions. */
  names: string[];
  pattern: RegExp;
  /** A seed that shows the idea, where it shows in some seeds and not others (say so in `text`). */
  seed?: number;
  /** Settings the link changes from the preset (say which in `text`). */
  settings?: Partial<ExperimentSettings>;
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
    text: 'An orchestrator that starts out doing every subtask itself can stay that way: handing out a few subtasks does not bring the answer in sooner at first, so nothing pushes it to delegate. Under the second swarm’s fair rules this comes from the start, not from the reward: from an unbiased start no held-out seed collapsed, with or without the λ bonuses; when the “direct” action starts 6 logits ahead, 4 of 10 never delegated in 120 updates (5 of 10 in 60). The link opens the second swarm with that start (start bias 6).',
    names: ['swarm-v2-annealed'],
    pattern: /serial.?collapse|unshaped|no shaping/i,
    settings: { 'swarm2.startBias': 6 },
  },
  {
    id: 'spurious-parallelism',
    swarm: true,
    title: 'Spurious parallelism',
    text: 'Subagents that add nothing: work already planned or claimed handed out again, items too small to be worth a subagent, or more results than the orchestrator’s context can hold. Parallelism rises while the finish rate falls. In the second swarm it showed in 5 to 9 of 10 held-out seeds of every row, the unshaped one included, while every decision shared the episode’s return; judged stage by stage against a learned critic it fell to 0 to 3 of 10 after 60 updates and to none after 120, and a λ1 that never anneals (the report’s cause) did not bring it back; credit bootstrapped from the critic’s own estimates (GAE λ 0.8) did, in 3 of 5 tuning seeds. Every result read also fills the orchestrator’s context: the learned, greedy and planner orchestrators leave about a fifth of the subtasks without an answer for want of it; the scripted packer, which fills its subagents fuller and asks for no second opinions, leaves an eighth. The learned one gives batching up early in training (watch “subtasks per subagent” fall to 1 among the diagnostics); started from the packer’s demonstrations it keeps some, unless r_parallel keeps paying: with λ1 constant it ends with 35 subagents for 36 subtasks, claims fewer of them and scores 0.88 against 0.91 without shaping (held-out seeds). Subagents that cost context rather than fail: the finish rate stays near 1. The link starts from the packer’s demonstrations and keeps λ1 constant: watch subtasks per subagent among the diagnostics (seed 1: from 1.75 to 1.0 within 30 updates, while r_perf falls from 0.91 to 0.84).',
    names: ['swarm-v2-constant-lambda1'],
    pattern: /spurious/i,
    settings: { 'swarm2.start': 'demonstrations', 'swarm2.teacher': 'packer' },
  },
  {
    id: 'annealing',
    swarm: true,
    title: 'Annealing λ1 and λ2',
    text: 'The two bonuses are scaffolding: their weights λ1 and λ2 fall to zero so that in the end only the task score (r_perf) counts. Watch the λ chart fall and the reward parts hand over to the task score. In the second swarm, from the seeded start the shaping changes little: after 120 updates on held-out seeds the shaped rows end at r_perf 0.85 to 0.86, the unshaped one at 0.85, within the spread between seeds. Started from the scripted packer’s demonstrations, the rows with λ1 end lower (0.88 to 0.89) than those without (0.91): each new subagent’s creating decision is paid a share of r_parallel and a join nothing, so batching loses while λ1 lasts and is not won back after. With those shares given to the stage’s launch instead (r_parallel credit: launch) the annealed row ends at 0.91 too, and it meets the target (0.9 at a third of serial) in 8 of 10 held-out seeds judged on each seed’s median over five training runs (one run alone: 7 or 8), against 5 to 6 without shaping in single runs: a small gain, about what one run differs from the next. At 100 subtasks it matters more: from the same start, 7 of 10 held-out seeds end at the target with the launch credit, 4 with the creators’ shares, whose subagents grow from about 50 to as many as 116 while λ1 lasts. The best scripted orchestrator, the packer, reaches 0.93.',
    names: ['swarm-v2-annealed'],
    pattern: /anneal/i,
  },
  {
    id: 'critical-steps',
    swarm: true,
    title: 'Critical steps vs total steps',
    text: 'Critical steps add, per stage, the orchestrator’s steps and the slowest subagent’s: that is latency. Total steps count every agent’s work. Parallelism lowers the first while the second can grow; the serial baseline and the lower bound frame the gap.',
    names: ['swarm-v2-annealed'],
    pattern: /critical|latency|swarm/i,
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
  const openPreset = useOpenPreset();
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
                href={experimentUrl(window.location.href, resolveExperiment(preset.name, { ...(t.seed === undefined ? {} : { seed: t.seed }), ...t.settings }))}
                onClick={(e) => {
                  e.preventDefault();
                  if (locked) return;
                  openPreset(preset.name);
                  if (t.seed !== undefined) setSeed(t.seed);
                  for (const key of Object.keys(t.settings ?? {})) {
                    const value = isSettingKey(key) ? t.settings?.[key] : undefined;
                    if (isSettingKey(key) && value !== undefined) setSetting(key, value);
                  }
                }}
                aria-disabled={locked}
              >
                Open the “{preset.title}” preset{t.seed === undefined ? '' : ` (seed ${t.seed})`}
                {t.settings ? ` with ${Object.entries(t.settings).map(([k, v]) => `${isSettingKey(k) ? SETTINGS[k].label : k} = ${String(v)}`).join(', ')}` : ''}
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
