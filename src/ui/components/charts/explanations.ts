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
    what: 'The numbers the learning rule reports after each update, one small chart each, by update. Their scales differ, so each has its own. In the second agent swarm, subtasks per subagent above 1 means the orchestrator batches work into shared subagents (each result read costs context, so batching saves it), and context used near 1 means the context, not the step budget, decides how many subtasks get an answer.',
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
