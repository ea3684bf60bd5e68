import type { TeachingFamily } from '../family';

/**
 * Every chart explained in plain words: what it shows, what good looks like, what a failure
 * looks like. Keyed by the chart's test id; ChartFrame shows the entry under the chart's title.
 */
export interface ChartExplanation {
  what: string;
  good: string;
  bad: string;
}

export const CHART_EXPLANATIONS: Record<string, ChartExplanation> = {
  'return-chart': {
    what: 'The score of each finished episode (first plot, by episode) and the average of the last 20 episodes (second plot, by environment steps). The dashed line is the target.',
    good: 'The average climbs and stays near or above the target; single episodes scatter around it.',
    bad: 'A flat average after many updates (nothing is learned: try a different learning rate), or an average that climbs and then collapses (the updates are too large).',
  },
  'loss-chart': {
    what: 'The numbers the learning rule reports after each update, one small chart each, by update. Their scales differ, so each has its own.',
    good: 'Policy loss wobbles around a level; value loss falls as the value estimate learns; entropy falls slowly as the agent grows sure of itself.',
    bad: 'Entropy at zero early (the agent stopped exploring), losses that grow without end, or a gap in the line (a non-finite loss: the run pauses itself).',
  },
  'throughput-chart': {
    what: 'How many environment steps each actor contributed per second of wall time in the last update, learner time included. The bars add up to the run’s steps per second.',
    good: 'Bars of about the same height: the work is spread evenly over the actors.',
    bad: 'One bar far below the others (a slow or restarting actor), or all bars low while the learner works (the learner is the bottleneck, not the actors).',
  },
  'lag-chart': {
    what: 'How many updates old the policy was that collected each batch the learner used. Asynchronous actors keep stepping while the learner updates, so their data can be a few updates old.',
    good: 'Most batches at lag 0 or 1.',
    bad: 'A long tail to the right: the actors run far ahead of the learner, and learning from such old data can go unstable (V-trace corrects some of it).',
  },
  'reward-chart': {
    what: 'The orchestrator’s reward and its parts: the task score, the bonus for starting subagents (λ1 times the parallel reward) and the bonus for subagents that finish (λ2 times the finish reward). Faint: each episode; bold: the mean of its update.',
    good: 'The bonuses shrink as λ1 and λ2 anneal, and the task score rises to take over.',
    bad: 'A task score that stays flat while a bonus stays high: the orchestrator is collecting the bonus instead of solving the task.',
  },
  'lambda-chart': {
    what: 'The weights λ1 (on the parallel bonus) and λ2 (on the finish bonus), by update. They follow the schedule set in the settings.',
    good: 'For an annealed run both fall to zero, so that in the end only the task score counts.',
    bad: 'Nothing to fix here: this chart only shows the schedule. Both at zero means the run has no shaping at all.',
  },
  'critical-chart': {
    what: 'Critical steps (the latency: per stage, the orchestrator’s steps plus the slowest subagent’s) against total steps (all work of every agent). Dashed: the serial baseline and, where known, the lower bound.',
    good: 'Critical steps well below the serial baseline, moving toward the lower bound.',
    bad: 'Critical steps at or above the serial baseline (serial collapse: the orchestrator does everything itself).',
  },
  'parallelism-chart': {
    what: 'How many subagents the orchestrator starts per stage that starts any (left axis), and the share of them that finish their subtask (right axis, 0 to 1).',
    good: 'Parallelism up and the finish rate high at the same time.',
    bad: 'Parallelism climbing while the finish rate falls (spurious parallelism: subagents started for the bonus, finishing nothing), or parallelism near zero (serial collapse).',
  },
  'swarm-timeline': {
    what: 'One recorded episode along the critical-step axis: each column is a stage as wide as its critical steps, each bar a subagent coloured by how it ended. Below it, the same task done serially, on the same scale.',
    good: 'The upper lane much shorter than the serial one, with most bars green.',
    bad: 'The upper lane as long as the serial one (no parallel work), or many red and amber bars (subagents that fail or time out).',
  },
};

const DIAGNOSTICS = 'The numbers the learning rule reports after each update, one small chart each, by update. Their scales differ, so each has its own.';

/** Where a family's charts mean something else (Pendulum's negative returns, offline tests, a team's return). */
const BY_FAMILY: Partial<Record<TeachingFamily, Record<string, ChartExplanation>>> = {
  continuous: {
    'return-chart': {
      what: 'The score of each finished episode and the average of the last 20, by environment steps. In Pendulum every step costs something, so returns are negative and closer to zero is better: random torques score about −1,200 to −1,500, a policy that swings up and holds scores about −150 to −200. The dashed line is the target.',
      good: 'The average leaves the random level and climbs towards the target; single episodes keep scattering, because some start hanging straight down.',
      bad: 'An average still at the random level after the first several thousand steps (check the critic in the diagnostics below), or one that climbs and then falls back.',
    },
    'loss-chart': {
      what: `${DIAGNOSTICS} Critic loss: how far the critics’ Q-values are from their targets. Mean Q: the return still to come that a critic expects, one line per critic. Actor loss: minus the Q-value the actor’s torques get (SAC adds its entropy term). SAC also shows its entropy and the temperature α that weighs it.`,
      good: 'Mean Q settles near the returns the policy really gets, spread over the steps still to come; SAC’s α falls as its entropy comes down to the level it aims at.',
      bad: 'Mean Q above 0 (impossible in Pendulum, where no step pays anything: the critics overestimate), losses that grow without end, or a gap in the line (a non-finite loss: the run pauses itself).',
    },
  },
  offline: {
    'return-chart': {
      what: 'Returns of greedy test episodes, played in the environment after each block of gradient steps; the learner never learns from them. On the Pendulum scale, about −1,200 to −1,500 is random and −150 to −200 solved; the dashed line is the target.',
      good: 'Test returns rise from the random level towards the quality of the data or better. Points jump between tests: a few test episodes make a noisy measure.',
      bad: 'Test returns that fall as training goes on while the losses look calm: the critic overrates actions the data does not contain (a larger conservative weight α_cql keeps it down).',
    },
    'loss-chart': {
      what: `${DIAGNOSTICS} Critic loss includes the conservative penalty. Conservative gap: how much higher the critics rate actions the policy or chance proposes than the actions in the data. Evaluation return: the mean of the last test.`,
      good: 'The conservative gap comes down and stays small and positive; mean Q stays within the returns Pendulum can give (below 0).',
      bad: 'Mean Q climbing above 0 while the evaluation return falls: the critic is rating actions the data never tried, which happens with the conservative weight at 0.',
    },
  },
  marl: {
    'return-chart': {
      what: 'The team’s return per 25-step episode (the sum over the agents), by environment steps. It is always negative: the team pays the distance from each landmark to its nearest agent, and more for collisions. In this project’s benchmark random moves score about −79, standing still about −72, a scripted team sent to the landmarks by the shortest total route about −24 (the grey dashed lines), and trained VDN and MADDPG about −57 to −60 after 40,000 steps.',
      good: 'The average climbs above the random level and reaches the −60 target line. The gain looks small on this scale, but ten points is real learning.',
      bad: 'An average still at or below the random level long after exploration has ended. A dip below random at first is exploration (agents wandering off), not failure.',
    },
    'loss-chart': {
      what: `${DIAGNOSTICS} Loss: how far the team’s Q-value is from its target (QMIX, VDN), the critic and actor losses (MADDPG), or PPO’s policy and value losses and the policy’s entropy (MAPPO); exploration ε (QMIX, VDN, IQL): the share of random actions, falling as set.`,
      good: 'The loss settles after exploration ends and stays bounded; where shown, ε falls to its floor.',
      bad: 'A loss that grows steadily: every reward in simple_spread is negative, so a team Q-value that keeps rising means the learner feeds on its own overestimates (a target network copied too often does this).',
    },
  },
  swarm: {
    'loss-chart': {
      what: `${DIAGNOSTICS} In the second agent swarm, subtasks per subagent above 1 means the orchestrator batches work into shared subagents (each result read costs context, so batching saves it), and context used near 1 means the context, not the step budget, decides how many subtasks get an answer.`,
      good: 'Policy loss wobbles around a level; value loss falls as the value estimate learns; entropy falls slowly as the orchestrator grows sure of itself.',
      bad: 'Entropy at zero early (the orchestrator stopped exploring), losses that grow without end, or a gap in the line (a non-finite loss: the run pauses itself).',
    },
  },
};

/** The explanation of chart `testId` for the open preset's family: its own where it differs, else the shared one. */
export function chartExplanation(testId: string, family: TeachingFamily): ChartExplanation | undefined {
  return BY_FAMILY[family]?.[testId] ?? CHART_EXPLANATIONS[testId];
}
