/**
 * "What am I looking at?": short notes on the ideas behind the charts, grouped by the kind of
 * learning they are about, each with the preset that shows it.
 */
import { PRESETS, type Preset } from '../../config/presets';
import type { ExperimentSettings } from '../../config/settings';
import type { TeachingFamily } from './family';
import { SWARM_FIGURES, stated } from '../../config/swarmStoryFigures';

export interface Topic {
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
  /** The kind of learning it is about: the open preset's family comes first, the others fold away. */
  family: TeachingFamily;
}

export const TOPICS: Topic[] = [
  {
    id: 'how-it-learns',
    family: 'classic',
    title: 'How an agent learns here',
    text: 'The agent tries the task over and over. Each try is an episode, and its return is the reward it collected (in CartPole, one point for every step the pole stays up, at most 500). Actors play episodes in parallel, each in its own Web Worker; the learner updates the network from what they saw and sends them the new weights. The live view plays the current policy, and the return chart should climb towards the dashed target line.',
    names: ['quickstart'],
    pattern: /quickstart/i,
  },
  {
    id: 'policy-heatmap',
    family: 'classic',
    title: 'Reading the policy heatmap',
    text: 'Inside the agent, the heatmap shows what the policy does over a slice of CartPole’s states: the pole’s angle from left to right, its angular velocity from bottom to top, the cart still in the middle. At the start every cell is the same middling colour: the network pushes left or right at random. As QuickStart learns, two regions appear with a sharp edge between them: push right where the pole leans or swings to the right, push left where it goes left. In trained runs the edge runs almost level, because the angular velocity decides more than the angle. Point at a cell to see the network’s activations for that state.',
    names: ['quickstart'],
    pattern: /quickstart/i,
  },
  {
    id: 'critic-curve',
    family: 'continuous',
    title: 'What the critics think of each torque',
    text: 'Inside the agent, each line is one critic’s Q-value for every torque from −2 to 2 in one state, and the green mark is the torque the actor picks there. At the start the lines are flat and near 0. In trained SAC runs, with the pendulum just off upright the lines fall steeply away from a full push back towards upright, and the actor’s mark sits at their peak: it has learned to push where its critics point. Hanging straight down the lines are nearly flat, because a push either way starts the swing. No Pendulum step pays anything, so no true value is above 0: lines far above it mean the critics overestimate.',
    names: ['sac-pendulum', 'td3-pendulum'],
    pattern: /sac|td3/i,
  },
  {
    id: 'continuous-actions',
    family: 'continuous',
    title: 'Continuous actions: Q-values and exploration',
    text: 'In Pendulum the action is a torque, any number from −2 to 2, not a choice among a few buttons. SAC and TD3 learn two things side by side. A critic guesses, for a state and a torque, the return still to come: its Q-value (two critics, and the smaller guess is used, because a single one learns to overestimate). An actor proposes the torque the critic rates highest. To keep exploring, TD3 adds random noise to the actor’s torque while it collects data; SAC makes the actor itself random and pays it a bonus for that randomness (its entropy), with a weight α it tunes itself so the randomness shrinks as the task is learned. Every step the actors take goes into a replay buffer, and the learner trains on random samples of it, so old experience is used many times.',
    names: ['sac-pendulum', 'td3-pendulum'],
    pattern: /sac|td3/i,
  },
  {
    id: 'pendulum-return',
    family: 'continuous',
    title: 'What a good Pendulum return is',
    text: 'Each Pendulum episode is 200 steps, and every step costs more the further the pendulum is from upright, the faster it spins and the harder it pushes, so every return is negative and closer to zero is better. Random torques score about −1,200 to −1,500. A policy that swings the pendulum up and holds it scores about −150 to −200: that is solved (the dashed target line is −200). On the way there the average often sits near −800 to −1,000 for a while, then climbs quickly once the swing-up is found; single episodes keep scattering, because some start hanging straight down and need a longer swing.',
    names: ['sac-pendulum', 'td3-pendulum'],
    pattern: /pendulum/i,
  },
  {
    id: 'offline-data',
    family: 'offline',
    title: 'Learning from a fixed dataset',
    text: 'Offline learning never lets the agent try anything: it trains only on transitions someone saved before (here a shipped dataset of Pendulum steps from another policy), and takes no new environment steps while it learns. Progress is therefore counted in gradient steps, one per batch drawn from the dataset. Every so often the current policy is tested: a few greedy episodes in the real environment, whose returns are the points on the return chart (on the Pendulum scale: about −1,200 to −1,500 is random, −150 to −200 is solved). Those test episodes are only looked at, never learned from.',
    names: ['cql-pendulum'],
    pattern: /offline|cql|bc-/i,
  },
  {
    id: 'conservative-penalty',
    family: 'offline',
    title: 'Why CQL is conservative',
    text: 'A critic trained on a dataset is never told it is wrong about actions the data does not contain, and the actor goes straight for whatever the critic overrates: the policy falls apart while the critic’s numbers look fine. CQL (conservative Q-learning) adds a penalty that pushes Q down on actions the policy or chance proposes and up on the actions in the data, so the learned policy stays near what the data supports. The conservative gap among the diagnostics is that difference; the conservative weight α_cql sets how hard it pushes (0 turns it off, leaving plain SAC on the dataset). On data from one half-trained policy, turning it off makes the policy fall below random; on data with every kind of action it matters little.',
    names: ['cql-pendulum-medium', 'cql-pendulum'],
    pattern: /cql/i,
  },
  {
    id: 'shared-reward',
    family: 'marl',
    title: 'Many agents, one reward',
    text: 'In simple_spread three agents must cover three landmarks between them, without bumping into each other. They are scored as a team: each step the team loses the distance from every landmark to its nearest agent, and a little more for every collision. No agent is told which landmark is its own, so they must learn to split the work from a reward they share. Each agent sees only its own position, speed and where the others and the landmarks are relative to it. MAPPO trains one policy that all three agents use, each on what it sees (and its own number), with a critic that sees every agent’s view; QMIX and VDN learn one Q-value per agent and add (VDN) or mix (QMIX) them into the team’s; MADDPG gives each agent an actor and a critic that sees every agent during training.',
    names: ['mappo-spread', 'qmix-spread', 'vdn-spread', 'maddpg-spread'],
    pattern: /spread/i,
  },
  {
    id: 'spread-return',
    family: 'marl',
    title: 'What a good simple_spread return is',
    text: 'The return is the team’s over a 25-step episode, always negative: closer to zero is better. In this project’s benchmark random moves score about −79 and agents that stand still about −72; a scripted team that sends each agent to its own landmark by the shortest total route scores about −24 (the two grey dashed lines on the return chart); the dashed target line is −60. MAPPO’s preset first reaches the target after 17,000 to 33,000 steps (12 to 23 seconds in the page on a shared 2-core machine) and ends its 40,000 steps at about −61 to −66; after 40,000 training steps VDN and MADDPG reach about −57 to −60 with greedy actions. So a curve that climbs from the random level by ten or twenty points is real learning, even if it looks small. Early in training the average often falls below random first: the agents explore with random actions and wander off. In the live view (as PettingZoo draws it: the agents blue circles, the landmarks small grey ones) good agents head for different landmarks and stop there.',
    names: ['mappo-spread', 'qmix-spread', 'vdn-spread', 'maddpg-spread'],
    pattern: /spread/i,
  },
  {
    id: 'serial-collapse',
    family: 'swarm',
    title: 'Serial collapse',
    text: `An orchestrator that does every subtask itself is safe but slow: under the hard budget it answers only part of the task (r_perf ${stated(SWARM_FIGURES.storySerialRPerf)} on the held-out tasks, against ${stated(SWARM_FIGURES.storyAdaptivePackerRPerf)} for the best scripted orchestrator). Kimi’s report saw orchestrators fall back to working alone when delegating did not pay at first, and the parallel bonus r_parallel is there to keep them delegating. Here delegating at random, as the untrained orchestrator does, scores below working alone (${stated(SWARM_FIGURES.storyUntrainedRPerf)} on the same tasks), and still the fall did not happen: without any shaping the orchestrator ended working alone in ${stated(SWARM_FIGURES.storyNoShapingCollapseSeeds)} of 10 held-out seeds and kept ${stated(SWARM_FIGURES.storyNoShapingSubagents)} subagents per episode, at r_perf ${stated(SWARM_FIGURES.storyNoShapingRPerf)}: learning made its delegation better instead of dropping it. The link opens the preset without shaping: watch parallelism stay up.`,
    names: ['swarm-no-shaping'],
    pattern: /serial.?collapse|unshaped|no shaping/i,
  },
  {
    id: 'spurious-parallelism',
    family: 'swarm',
    title: 'Spurious parallelism',
    text: `Subagents that add nothing: work already planned or claimed handed out again, or more results than the orchestrator’s context can hold, which are then lost. Parallelism stays up while the finish rate (completed ÷ assigned) falls. Here lost results are the usual cause, with or without the bonus: the finish rate ended below four in five in ${stated(SWARM_FIGURES.storyAnnealedSpuriousSeeds)} of 10 held-out seeds with λ1 annealed, ${stated(SWARM_FIGURES.storyNoShapingSpuriousSeeds)} without shaping and ${stated(SWARM_FIGURES.storyConstantSpuriousSeeds)} with λ1 never annealed (${stated(SWARM_FIGURES.storyConstantSubagents)} subagents per episode, against ${stated(SWARM_FIGURES.storyAnnealedSubagents)} annealed). Watch the finish rate on the parallelism chart and the context used among the diagnostics.`,
    names: ['swarm-constant-lambda1'],
    pattern: /spurious/i,
  },
  {
    id: 'annealing',
    family: 'swarm',
    title: 'Annealing λ1 and λ2',
    text: `The two bonuses are scaffolding: their weights λ1 and λ2 fall to zero so that in the end only the task score (r_perf) counts. Watch the λ chart fall and the reward parts hand over to the task score. On the held-out seeds the annealed preset ends at r_perf ${stated(SWARM_FIGURES.storyAnnealedRPerf)} at ${stated(SWARM_FIGURES.storyAnnealedCriticalOverSerial)} × the serial critical steps: far above working alone (${stated(SWARM_FIGURES.storySerialRPerf)}), below the scripted adaptive packer (${stated(SWARM_FIGURES.storyAdaptivePackerRPerf)}). Without shaping it ends at ${stated(SWARM_FIGURES.storyNoShapingRPerf)}, with λ1 never annealed at ${stated(SWARM_FIGURES.storyConstantRPerf)}: here the bonuses change little, since delegating pays without them.`,
    names: ['swarm-annealed'],
    pattern: /anneal/i,
  },
  {
    id: 'critical-steps',
    family: 'swarm',
    title: 'Critical steps vs total steps',
    text: 'Critical steps add, per stage, the orchestrator’s steps and the slowest subagent’s: that is latency. Total steps count every agent’s work. Parallelism lowers the first while the second can grow; the serial baseline and the lower bound frame the gap.',
    names: ['swarm-annealed'],
    pattern: /critical|latency|swarm/i,
  },
  {
    id: 'actors-lag',
    family: 'classic',
    title: 'Actors and policy lag',
    text: 'Actors collect experience in Web Workers with a copy of the policy. When they run ahead of the learner, their batches come from older weights: the policy lag chart shows how many updates old, and V-trace (IMPALA) corrects for it.',
    names: ['impala-cartpole', 'impala'],
    pattern: /impala|policy lag|async/i,
  },
];

/** The notes for the open preset's family first, then the rest (shown folded, under their family's name). */
export function topicsFor(family: TeachingFamily): { own: Topic[]; other: Topic[] } {
  return { own: TOPICS.filter((t) => t.family === family), other: TOPICS.filter((t) => t.family !== family) };
}

/** The preset a note opens: the first of its names that exists, else the first whose name or description matches. */
export function findPreset(t: Topic): Preset | undefined {
  return t.names.map((n) => PRESETS.find((p) => p.name === n)).find(Boolean) ?? PRESETS.find((p) => t.pattern.test(p.name) || t.pattern.test(p.description));
}
