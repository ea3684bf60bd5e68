/**
 * The actor class registry: an explicit string key <-> class map.
 *
 * An actor class declares its key once, as a static property (PaddlePaddle PARL's
 * `@remote_class`, as data):
 *
 *     export class RolloutActor {
 *       static readonly actorKey: string = 'RolloutActor';
 *       ...
 *     }
 *
 * Everything else follows from it: `remoteClass(RolloutActor)` reads the key, the worker hosts
 * register every class listed in src/workers/actorClasses.ts by it, and a worker that imports a
 * module (the `module` option) registers the classes that module exports by theirs. Keys are
 * explicit on purpose: minifiers rename classes, so `cls.name` is not stable across builds. A
 * subclass does not inherit its parent's key: it declares its own or it is not an actor class.
 */

/** Any constructible class. `never[]` args accept every parameter list. */
export type ActorClass<T = object> = new (...args: never[]) => T;

const byKey = new Map<string, ActorClass>();
const byClass = new Map<ActorClass, string>();

/** The key `cls` declares itself (its own static `actorKey`, not a parent's), or undefined. */
export function declaredActorKey(cls: unknown): string | undefined {
  if (typeof cls !== 'function' || !Object.prototype.hasOwnProperty.call(cls, 'actorKey')) return undefined;
  const key: unknown = (cls as { actorKey?: unknown }).actorKey;
  return typeof key === 'string' && key.length > 0 ? key : undefined;
}

/**
 * Registers `cls` under its declared static `actorKey`, or under `key` for a class that declares
 * none. Registering the same pair again is a no-op; reusing a key for a different class throws.
 */
export function registerActorClass<C extends ActorClass>(cls: C): C;
export function registerActorClass<C extends ActorClass>(key: string, cls: C): C;
export function registerActorClass<C extends ActorClass>(keyOrCls: string | C, maybeCls?: C): C {
  const cls = typeof keyOrCls === 'string' ? maybeCls : keyOrCls;
  if (typeof cls !== 'function') throw new TypeError('registerActorClass: a class is required');
  const declared = declaredActorKey(cls);
  const key = typeof keyOrCls === 'string' ? keyOrCls : declared;
  if (typeof key !== 'string' || key.length === 0) {
    throw new TypeError(`registerActorClass: key must be a non-empty string (declare \`static readonly actorKey = '...'\` on ${cls.name || 'the class'})`);
  }
  if (declared !== undefined && declared !== key) {
    throw new Error(`registerActorClass: class declares key '${declared}', not '${key}'`);
  }
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

/** Registers every actor class (a class with its own static `actorKey`) among a module's exports. */
export function registerExportedActorClasses(moduleExports: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const value of Object.values(moduleExports)) {
    const key = declaredActorKey(value);
    if (key === undefined) continue;
    // declaredActorKey checked it is a function; the registry stores classes with unknown args.
    registerActorClass(value as ActorClass);
    keys.push(key);
  }
  return keys;
}

/** The class registered under `key`, or undefined. */
export function getActorClass(key: string): ActorClass | undefined {
  return byKey.get(key);
}

/** The key `cls` was registered under or declares, or undefined. */
export function getActorKey(cls: ActorClass): string | undefined {
  return byClass.get(cls) ?? declaredActorKey(cls);
}

/** Every registered key (for error messages). */
export function registeredActorKeys(): string[] {
  return [...byKey.keys()];
}
