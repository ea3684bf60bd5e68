import { describe, expect, it } from 'vitest';
import { declaredActorKey, getActorClass, getActorKey, registerActorClass, registerExportedActorClasses, registeredActorKeys } from '../../../../src/core/remote/registry';

describe('actor class registry', () => {
  it('maps keys to classes and back', () => {
    class A {}
    expect(registerActorClass('reg.A', A)).toBe(A);
    expect(getActorClass('reg.A')).toBe(A);
    expect(getActorKey(A)).toBe('reg.A');
    expect(registeredActorKeys()).toContain('reg.A');
    expect(getActorClass('reg.missing')).toBeUndefined();
  });

  it('is idempotent for the same pair and refuses conflicts', () => {
    class B {}
    class C {}
    registerActorClass('reg.B', B);
    expect(() => registerActorClass('reg.B', B)).not.toThrow();
    expect(() => registerActorClass('reg.B', C)).toThrow(/already registered/);
    expect(() => registerActorClass('reg.B2', B)).toThrow(/already registered under key 'reg.B'/);
    expect(() => registerActorClass('', C)).toThrow(TypeError);
  });

  it('takes the key a class declares (static actorKey), and a subclass does not inherit it', () => {
    class D {
      static readonly actorKey: string = 'reg.D';
    }
    class E extends D {}
    class F extends D {
      static override readonly actorKey: string = 'reg.F';
    }
    expect(getActorKey(D)).toBe('reg.D'); // known before any registration: remoteClass needs nothing more
    expect(registerActorClass(D)).toBe(D);
    expect(getActorClass('reg.D')).toBe(D);
    expect(declaredActorKey(E)).toBeUndefined();
    expect(getActorKey(E)).toBeUndefined();
    expect(() => registerActorClass(E)).toThrow(/declare `static readonly actorKey/);
    expect(() => registerActorClass('reg.other', D)).toThrow(/declares key 'reg.D', not 'reg.other'/);
    expect(registerActorClass(F)).toBe(F);
    expect(getActorClass('reg.F')).toBe(F);
  });

  it("registers a module's exported actor classes and skips everything else", () => {
    class G {
      static readonly actorKey: string = 'reg.G';
    }
    class Plain {}
    const keys = registerExportedActorClasses({ G, Plain, helper: () => 1, VALUE: 3, actorKey: 'reg.not-a-class' });
    expect(keys).toEqual(['reg.G']);
    expect(getActorClass('reg.G')).toBe(G);
    expect(getActorKey(Plain)).toBeUndefined();
  });
});
