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
    good: 'Policy loss wobbles around a level; value loss falls as the value estimate learns; entropy falls slowly as the agent grows sure of itself. DQN shows its TD loss, mean Q and exploration ε instead: ε falls to its floor, mean Q climbs as the pole stays up longer, and the loss stays small.',
    bad: 'Entropy at zero early (the agent stopped exploring), losses that grow without end, or a gap in the line (a non-finite loss: the run pauses itself). For DQN in CartPole, a mean Q above 100: one point per step, discounted by γ = 0.99, can never add up to more than 1/(1 − 0.99).',
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
  'agent-inside': {
    what: 'A look at the network itself. The heatmap colours a slice of the state space (in CartPole the pole’s angle across and its angular velocity up, the cart still in the middle) by the probability of one action, by the action the policy picks, or by the value where the algorithm learns one (DQN: its highest Q). Below it the network: each line a weight (blue positive, orange negative), each unit coloured by its activation on the state under the pointer.',
    good: 'Two clear regions with a sharp edge through the middle: in CartPole, push right where the pole leans or swings to the right, push left where it goes left. Trained QuickStart policies split mostly by the angular velocity.',
    bad: 'One colour all over, or a middling colour that stays so after many updates: the policy ignores the state and acts at random. Pushing the way the pole falls makes it fall faster, so regions the wrong way round cannot balance it.',
  },
  'reward-chart': {
    what: 'The orchestrator’s reward and its parts: the task score, the bonus for starting subagents (λ1 times the parallel reward) and the bonus for subagents that finish (λ2 times the finish reward). Faint: each episode; bold: the mean of its update. On the presets’ task, dashed lines mark what working alone and the scripted packer score on held-out tasks.',
    good: 'The bonuses shrink as λ1 and λ2 anneal, and the task score rises above working alone’s line to take over.',
    bad: 'A task score that stays flat while a bonus stays high: the orchestrator is collecting the bonus instead of solving the task.',
  },
  'lambda-chart': {
    what: 'The weights λ1 (on the parallel bonus) and λ2 (on the finish bonus), by update. They follow the schedule set in the settings.',
    good: 'For an annealed run both fall to zero, so that in the end only the task score counts.',
    bad: 'Nothing to fix here: this chart only shows the schedule. Both at zero means the run has no shaping at all.',
  },
  'critical-chart': {
    what: 'Critical steps (the latency: per stage, the orchestrator’s steps plus the slowest subagent’s) against total steps (all work of every agent). Dashed: the serial baseline and, where known, the lower bound.',
    good: 'Critical steps well below the hard budget, moving toward the lower bound, while the task score rises.',
    bad: 'Critical steps pinned at the hard budget with total steps equal to them: the orchestrator works alone and runs out of budget with most subtasks unanswered (serial collapse). The hard budget keeps every episode far below the serial baseline, so that line is a scale, not a threshold.',
  },
  'parallelism-chart': {
    what: 'How many subagents the orchestrator starts per stage that starts any (left axis), and the share of them that finish their subtask (right axis, 0 to 1).',
    good: 'Parallelism up and the finish rate high at the same time.',
    bad: 'Parallelism climbing while the finish rate falls (spurious parallelism: subagents started for the bonus, finishing nothing), or parallelism near zero (serial collapse).',
  },
  'swarm-timeline': {
    what: 'One recorded episode along the critical-step axis: each shaded column is a stage as wide as its critical steps, the top row the orchestrator’s own steps, each row below a subagent coloured by its kind, with the share of its subtasks that came back under it. Dots and crosses are checks of claims, triangles subtasks given again. Above it: the episode’s critical steps against the hard budget and the serial baseline (the orchestrator doing everything itself), and where the run is in its λ annealing.',
    good: 'Critical steps far below the serial baseline, a few wide launch stages with several subagents each, mostly green strips, few crosses.',
    bad: 'Only the orchestrator’s row (serial collapse: it does everything itself), many subagents whose strips are red (spurious parallelism: created for the bonus, finishing nothing), or an episode stopped by the dashed budget line.',
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
    'lag-chart': {
      what: 'How many updates old the actor was that collected each batch the learner stored. The actors keep stepping while the learner takes its gradient steps, so their data is often a few updates old.',
      good: 'Most batches at lag 0 to a few. SAC, TD3 and DDPG learn from a replay buffer of older experience by design, so lag needs no correction here.',
      bad: 'A tail that keeps growing: the actors run far ahead of the learner, and the buffer fills with data from a policy the learner has long left behind.',
    },
    'agent-inside': {
      what: 'The critics’ verdict on every torque, for the state you pick: each line is one critic’s Q(s, a), the return still to come if the actor applies that torque now and acts as usual after. TD3 and SAC train two critics and learn from the smaller guess; DDPG has one. The green mark is the torque the actor picks there without exploration noise (SAC: the middle of its distribution). Below: the actor network, with its activations on the hanging pendulum.',
      good: 'At the start every curve is flat and near 0: the critics know nothing yet. In trained SAC runs, just off upright the curves fall steeply away from a full push back towards upright (a negative torque when θ is +0.3, a positive one at −0.3: the two states mirror each other) and the green mark sits at that peak; hanging at rest any push starts the swing, so the curve there is nearly flat, a little higher at full torque either way than in the middle. The twin curves lie close together.',
      bad: 'Curves far above 0 (no Pendulum step pays anything, so no return is above 0: the critics overestimate), twin curves far apart, or, once the return has levelled off, a green mark far from the peak off upright: the actor is not following its critics.',
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
    'agent-inside': {
      what: 'CQL: the same curves as in online SAC, learned from the dataset alone: each critic’s Q for every torque in the state you pick, and the green mark for the torque the actor picks there. Behaviour cloning has no critic: only its actor network is drawn, with the torque it has copied from the data.',
      good: 'As in online SAC: flat and near 0 at the start; in trained CQL runs, just off upright the curves peak at a full push back towards upright with the green mark there, hanging at rest they are nearly flat, and every value stays below 0.',
      bad: 'Curves that climb above 0, or a peak at torques the data seldom holds, while the test returns fall: the critic overrates what the data does not contain and the actor follows it. With the conservative weight α_cql at 0 this is what happens on narrow data: SAC offline on pendulum-medium ends at −1,530 in this project’s benchmark.',
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
    'agent-inside': {
      what: 'What each agent makes of one state: the first step of an episode, from the same reset every time. QMIX, VDN and IQL: a row per agent with its Q-value for each of its five moves (stay, left, right, down, up), all from one network the agents share; the outlined move is the one it takes when not exploring. QMIX’s mixer, or VDN’s sum, turns the chosen moves’ Q-values into the team’s value Q_tot, the team return it expects from here (IQL has none). MADDPG: each agent’s critic, which sees every agent, rates each of the agent’s own moves with the others at their likeliest; under each value, the actor’s probability of that move.',
      good: 'Values that come down below 0 and settle as learning goes on, since every reward in simple_spread is negative: MADDPG’s critics do so within their first gradient steps (each values its own agent’s share, so their numbers are smaller than the team’s). QMIX’s values can sit a little above 0 while it still explores at random most of the time (ε near 1 early on); that, and moves that barely differ, is a network that has not learned yet, not a failure (after 10,000 steps QMIX is barely above random in this project’s benchmark, −70.8 against −79.1). MADDPG takes no gradient step before 25,600 steps (its “Learning starts” setting): until then every move stays at 20% and the panel does not change; after, the actors’ probabilities part.',
      bad: 'Q_tot above 0, or still climbing, long after exploration has ended: every reward in simple_spread is negative, so the learner is feeding on its own overestimates. For MADDPG, an actor sure of a move (a probability near 100%) that its own critic rates lowest.',
    },
  },
  swarm: {
    'return-chart': {
      what: 'The orchestrator’s whole reward per episode, by episodes and by environment steps: the task score plus the two bonuses (λ1 times the parallel reward, λ2 times the finish reward). While λ1 and λ2 anneal, the bonuses leave the return, so it falls then even when the orchestrator gets better; the reward chart below shows the task score on its own.',
      good: 'Once λ1 and λ2 are at zero the return is the task score alone, and it holds or rises from there.',
      bad: 'A return that keeps falling after annealing has ended: the task score itself is falling.',
    },
    'loss-chart': {
      what: `${DIAGNOSTICS} In the agent swarm, subtasks per subagent above 1 means the orchestrator batches work into shared subagents (each result read costs context, so batching saves it), and context used near 1 means the context, not the step budget, decides how many subtasks get an answer.`,
      good: 'Policy loss wobbles around a level; value loss falls as the value estimate learns; entropy falls slowly as the orchestrator grows sure of itself.',
      bad: 'Entropy at zero early (the orchestrator stopped exploring), losses that grow without end, or a gap in the line (a non-finite loss: the run pauses itself).',
    },
  },
};

/** The explanation of chart `testId` for the open preset's family: its own where it differs, else the shared one. */
export function chartExplanation(testId: string, family: TeachingFamily): ChartExplanation | undefined {
  return BY_FAMILY[family]?.[testId] ?? CHART_EXPLANATIONS[testId];
}
