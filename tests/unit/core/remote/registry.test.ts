import { describe, expect, it } from 'vitest';
import { getActorClass, getActorKey, registerActorClass, registeredActorKeys } from '../../../../src/core/remote/registry';

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
});
