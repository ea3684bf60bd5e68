/**
 * What the rollout actors share whatever their action space (RolloutActor, ContinuousRolloutActor):
 * the lazily made training VectorEnv and where its episodes stand, and the live view's greedy
 * episode. (The crash button's method is every actor's, from the worker host: core/remote/host.ts.)
 */
import { deriveSeed } from '../core/rng';
import type { ResetResult, StepResult } from '../envs/types';
import { VectorEnv } from '../envs/vectorEnv';

/** A greedy episode's render states: frame f's value of keys[k] is frames[f·keys.length + k]. */
export interface GreedyEpisode {
  envId: string;
  keys: string[];
  frames: Float32Array;
  episodeReturn: number;
  length: number;
}

/** An actor's training envs: made and reset on first use; episodes continue across segments. */
export class ActorVector {
  private vec: VectorEnv | null = null;
  /** The current observations of every env copy (set by the first `get()`). */
  obs: Float32Array = new Float32Array(0);

  constructor(
    private readonly envId: string,
    private readonly numEnvs: number,
    private readonly seed: number,
    private readonly actorIndex: number,
  ) {}

  get(): VectorEnv {
    if (!this.vec) {
      this.vec = new VectorEnv(this.envId, this.numEnvs);
      this.obs = this.vec.reset(deriveSeed(this.seed, this.actorIndex, 0x7ec));
    }
    return this.vec;
  }
}

/** The env surface a greedy episode needs, with actions of type `A`. */
export interface GreedyEpisodeEnv<A> {
  reset(): ResetResult;
  renderState(): Record<string, number>;
  step(action: A): StepResult;
}

/** Play one episode with `choose` and keep the render states of its first `maxFrames` frames. */
export function playGreedyEpisode<A>(env: GreedyEpisodeEnv<A>, envId: string, maxFrames: number, choose: (obs: Float32Array) => A): GreedyEpisode {
  let obs = env.reset().obs;
  const keys = Object.keys(env.renderState());
  const frames: number[] = [];
  let ret = 0;
  let length = 0;
  for (;;) {
    const state = env.renderState();
    if (length < maxFrames) for (const k of keys) frames.push(state[k]);
    const step = env.step(choose(obs));
    ret += step.reward;
    length += 1;
    obs = step.obs;
    if (step.terminated || step.truncated) break;
  }
  return { envId, keys, frames: Float32Array.from(frames), episodeReturn: ret, length };
}
