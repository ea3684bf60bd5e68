/**
 * What the update rules share for live changes (src/engine/liveChanges.ts): a hyperparameter set
 * between updates, and a learning rate that keeps the schedule it is on.
 */
import type * as tf from '@tensorflow/tfjs';

/** Set `config[name] = value` when `name` is one of `names` and the value is a finite number; true when set. */
export function setLiveNumber<C extends object>(config: C, names: readonly (keyof C & string)[], name: string, value: unknown): boolean {
  if (!(names as readonly string[]).includes(name) || typeof value !== 'number' || !Number.isFinite(value)) return false;
  Reflect.set(config, name, value);
  return true;
}

/**
 * The step size the optimizer should take after its base learning rate went from `oldBase` to
 * `newBase`: a schedule has set lr_k = lr · s_k (s_k = 1 − fraction for linear annealing, 1 with
 * none), so s_k = lr_k / lr and the new step is newBase · s_k until the schedule's next step.
 */
export function rescaledLearningRate(optimizer: tf.Optimizer | null, oldBase: number, newBase: number): number {
  const current = optimizer ? Reflect.get(optimizer, 'learningRate') : undefined;
  if (typeof current !== 'number' || !(oldBase > 0)) return newBase;
  return newBase * (current / oldBase);
}
