/**
 * The actor class registry: an explicit string key <-> class map.
 *
 * Worker hosts build actors by key, so a class must be registered (under the same key) both in
 * the thread that calls `remoteClass` and in the worker host. Keys are explicit on purpose:
 * minifiers rename classes, so `cls.name` is not stable across builds.
 */

/** Any constructible class. `never[]` args accept every parameter list. */
export type ActorClass<T = object> = new (...args: never[]) => T;

const byKey = new Map<string, ActorClass>();
const byClass = new Map<ActorClass, string>();

/** Registers `cls` under `key`. Registering the same pair again is a no-op; reusing a key for a different class throws. */
export function registerActorClass<C extends ActorClass>(key: string, cls: C): C {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError('registerActorClass: key must be a non-empty string');
  const existing = byKey.get(key);
  if (existing !== undefined && existing !== cls) {
    throw new Error(`registerActorClass: key '${key}' is already registered for another class`);
  }
  const existingKey = byClass.get(cls);
  if (existingKey !== undefined && existingKey !== key) {
    throw new Error(`registerActorClass: class is already registered under key '${existingKey}'`);
  }
  byKey.set(key, cls);
  byClass.set(cls, key);
  return cls;
}

/** The class registered under `key`, or undefined. */
export function getActorClass(key: string): ActorClass | undefined {
  return byKey.get(key);
}

/** The key `cls` was registered under, or undefined. */
export function getActorKey(cls: ActorClass): string | undefined {
  return byClass.get(cls);
}

/** Every registered key (for error messages). */
export function registeredActorKeys(): string[] {
  return [...byKey.keys()];
}
